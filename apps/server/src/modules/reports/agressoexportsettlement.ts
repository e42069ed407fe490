import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { SETTLEMENT_SUMS } from './settlement.js';
import { organisationScope, periodDays } from './sql.js';
import { COLUMN_TEXTS } from './texts.js';

/**
 * The month's invoice lines in the Agresso (Unit4 ERP) import layout (docs/reports.md
 * "agressoexportsettlement"): per customer (Agresso's apar_id: the organisation id) and price area
 * (dimension 1), one transaction line per article: ENERGY (the energy cost, its quantity the supply
 * energy), GRIDFEE, ENERGYFEE and TAX (quantity the supply energy), VAT (on all of them), and
 * ONACCOUNT (what was invoiced on account, deducted: negative) when there was any. The accounting
 * period is Agresso's YYYYMM. A customer's amounts sum to what is due, and without on account to its
 * invoice total with VAT. The article's description is in the report's language.
 */
export const agressoExportSettlementReport = defineReport({
  name: 'agressoexportsettlement',
  family: 'erp',
  title: {
    en: 'Settlement export for Agresso',
    da: 'Afregningseksport til Agresso',
    nb: 'Avregningseksport til Agresso',
    sv: 'Avräkningsexport till Agresso',
    fi: 'Selvityksen vienti Agressoon',
    es: 'Exportación de liquidación para Agresso',
  },
  roles: AREA_WIDE_ROLES,
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    {
      key: 'accountingPeriod',
      kind: 'text',
      texts: {
        en: 'Period',
        da: 'Periode',
        nb: 'Periode',
        sv: 'Period',
        fi: 'Kausi',
        es: 'Periodo',
      },
    },
    { key: 'organisationId', kind: 'text' },
    { key: 'organisation', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    {
      key: 'article',
      kind: 'text',
      texts: { en: 'Article', da: 'Artikel', nb: 'Artikkel', sv: 'Artikel', fi: 'Nimike', es: 'Artículo' },
    },
    {
      key: 'description',
      kind: 'text',
      texts: {
        en: 'Description',
        da: 'Beskrivelse',
        nb: 'Beskrivelse',
        sv: 'Beskrivning',
        fi: 'Kuvaus',
        es: 'Descripción',
      },
    },
    {
      key: 'quantity',
      kind: 'number',
      unit: 'kWh',
      texts: { en: 'Quantity', da: 'Mængde', nb: 'Mengde', sv: 'Kvantitet', fi: 'Määrä', es: 'Cantidad' },
    },
    {
      key: 'amount',
      kind: 'number',
      unit: 'currency',
      texts: { en: 'Amount', da: 'Beløb', nb: 'Beløp', sv: 'Belopp', fi: 'Summa', es: 'Importe' },
    },
    { key: 'settlementVersion', kind: 'integer' },
  ],
  sortKeys: ['organisationId', 'organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid', 'articleOrder'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    const text = (key: keyof typeof COLUMN_TEXTS) => sql`${COLUMN_TEXTS[key][scope.language]}::text`;
    return sql`
      SELECT to_char(${first}, 'YYYYMM') AS "accountingPeriod", s."organisationId", s."organisation",
             s."organisationUuid", s."priceArea", s."priceAreaUuid", a.article_order AS "articleOrder",
             a.article AS "article", a.description AS "description", a.quantity AS "quantity", a.amount AS "amount",
             ${scope.resultId}::bigint AS "settlementVersion"
        FROM (SELECT o.attributes ->> 'orgId' AS "organisationId", o.name AS "organisation",
                     l.organisation_uuid AS "organisationUuid", p.name AS "priceArea",
                     l.price_area_uuid AS "priceAreaUuid", ${SETTLEMENT_SUMS}
                FROM settlement_line l
                LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
                LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
               WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
                 AND l.day >= ${first} AND l.day < ${after}
                 AND ${organisationScope(sql`l.organisation_uuid`, scope)}
               GROUP BY l.organisation_uuid, o.name, o.attributes ->> 'orgId', l.price_area_uuid, p.name) AS s
       CROSS JOIN LATERAL (VALUES
         (1, 'ENERGY'::text, ${text('energyCost')}, s."supplyEnergy"::numeric, s."energyCost"::numeric),
         (2, 'GRIDFEE', ${text('gridFee')}, s."supplyEnergy", s."gridFee"),
         (3, 'ENERGYFEE', ${text('energyFee')}, s."supplyEnergy", s."energyFee"),
         (4, 'TAX', ${text('tax')}, s."supplyEnergy", s."tax"),
         (5, 'VAT', ${text('vat')}, NULL, s."vat"),
         (6, 'ONACCOUNT', ${text('onAccountCost')}, -s."onAccountEnergy", -s."onAccountCost")
       ) AS a (article_order, article, description, quantity, amount)
       WHERE a.article <> 'ONACCOUNT' OR a.amount <> 0`;
  },
});
