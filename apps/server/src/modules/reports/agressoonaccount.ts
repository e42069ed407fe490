import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { ON_ACCOUNT_AMOUNTS, ON_ACCOUNT_ORDER, onAccountWithBasis } from './onaccountappendix.js';
import type { Texts } from './texts.js';

/**
 * The month's on-account invoice lines for an import into Agresso (Unit4 ERP) (docs/reports.md
 * "agressoonaccount"): one line per customer and price area, keyed as an ERP reads an invoice line
 * (accounting period YYYYMM, customer id = the organisation's orgId, a line text, the amounts
 * without VAT, the VAT and the total in the area's currency, the currency code). The amounts are
 * those of onaccountappendix (its VAT derived from the settlement version the amount is based on),
 * so the lines of a customer sum to its on-account invoice's total with VAT.
 */
const TEXTS = {
  accountingPeriod: {
    en: 'Accounting period',
    da: 'Regnskabsperiode',
    nb: 'Regnskapsperiode',
    sv: 'Redovisningsperiod',
    fi: 'Kirjanpitokausi',
    es: 'Periodo contable',
  },
  customerId: {
    en: 'Customer id',
    da: 'Kunde-id',
    nb: 'Kunde-id',
    sv: 'Kund-id',
    fi: 'Asiakastunnus',
    es: 'Id. de cliente',
  },
  customer: { en: 'Customer', da: 'Kunde', nb: 'Kunde', sv: 'Kund', fi: 'Asiakas', es: 'Cliente' },
  description: {
    en: 'Description',
    da: 'Beskrivelse',
    nb: 'Beskrivelse',
    sv: 'Beskrivning',
    fi: 'Kuvaus',
    es: 'Descripción',
  },
  currency: { en: 'Currency', da: 'Valuta', nb: 'Valuta', sv: 'Valuta', fi: 'Valuutta', es: 'Moneda' },
} as const satisfies Record<string, Texts>;

/** The line text: "On account 2026-11 NO1". */
const ON_ACCOUNT_WORD: Texts = {
  en: 'On account',
  da: 'A conto',
  nb: 'A konto',
  sv: 'A conto',
  fi: 'Ennakko',
  es: 'A cuenta',
};

export const agressoOnAccountReport = defineReport({
  name: 'agressoonaccount',
  family: 'onaccount',
  title: {
    en: 'On-account invoice lines for Agresso',
    da: 'Acontofakturalinjer til Agresso',
    nb: 'A konto-fakturalinjer til Agresso',
    sv: 'A conto-fakturarader till Agresso',
    fi: 'Ennakkolaskun rivit Agressoon',
    es: 'Líneas de factura a cuenta para Agresso',
  },
  ...ON_ACCOUNT_ORDER,
  // An ERP import is the area's finance staff's.
  roles: AREA_WIDE_ROLES,
  columns: [
    { key: 'accountingPeriod', kind: 'text', texts: TEXTS.accountingPeriod },
    { key: 'customerId', kind: 'text', texts: TEXTS.customerId },
    { key: 'customer', kind: 'text', texts: TEXTS.customer },
    { key: 'priceArea', kind: 'text' },
    { key: 'description', kind: 'text', texts: TEXTS.description },
    { key: 'onAccountEnergy', kind: 'number', unit: 'kWh' },
    { key: 'amountExclVat', kind: 'number', unit: 'currency' },
    { key: 'vat', kind: 'number', unit: 'currency' },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'currency', kind: 'text', texts: TEXTS.currency },
  ],
  sortKeys: ['customerId', 'organisationUuid', 'priceArea', 'priceAreaUuid'],
  query: (scope) => {
    const month = sql`(a.month_start AT TIME ZONE ${scope.zone})`;
    return sql`
    SELECT to_char(${month}, 'YYYYMM') AS "accountingPeriod", o.attributes ->> 'orgId' AS "customerId",
           o.name AS "customer", a.organisation_uuid AS "organisationUuid", p.name AS "priceArea",
           a.price_area_uuid AS "priceAreaUuid",
           concat_ws(' ', ${ON_ACCOUNT_WORD[scope.language]}::text, to_char(${month}, 'YYYY-MM'), p.name) AS "description",
           ${ON_ACCOUNT_AMOUNTS}, ${scope.currency}::text AS "currency"
      FROM ${onAccountWithBasis(scope)}
     GROUP BY a.month_start, a.organisation_uuid, o.name, o.attributes ->> 'orgId', a.price_area_uuid, p.name`;
  },
});
