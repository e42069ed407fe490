import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { defineReport, type ReportDeclaration, type ReportScope } from './define-report.js';
import { organisationScope } from './sql.js';
import { TOTAL_ROW, type Texts } from './texts.js';

/**
 * The on-account invoice's appendix per customer (docs/reports.md "onaccountappendix"): the month's
 * a-conto amounts (on-account.ts, table `on_account`) per organisation and price area, and each
 * organisation's total line, which is the on-account invoice's total with VAT.
 *
 * `on_account` keeps one amount with VAT (a share of the month before's whole bill, or the
 * parameter's energy at that bill's price per kWh). Its VAT is not stored: it is derived here from
 * the settlement version the amount is based on (`based_on_result_id`), at that line's ratio of VAT
 * to its total (VAT = amount x vat / total of the basis; excl. VAT = amount - VAT), so an amount
 * based on a bill with 25 % VAT carries 20 % of itself as VAT and the two add up to the amount.
 */

/** Who may order the on-account reports from `on_account` and for what: a month of the ordered organisations. */
export const ON_ACCOUNT_ORDER = {
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  // The amounts as on-account last wrote them for the month (a run replaces the month's rows); no
  // result's status is read: an a-conto amount is invoiced as computed, not approved.
  source: null,
} as const satisfies Pick<ReportDeclaration<unknown>, 'roles' | 'period' | 'refs' | 'source'>;

export const ON_ACCOUNT_TEXTS = {
  basedOnVersion: {
    en: 'Based on settlement version',
    da: 'Baseret på afregningsversion',
    nb: 'Basert på oppgjørsversjon',
    sv: 'Baserat på avräkningsversion',
    fi: 'Perustuu selvitysversioon',
    es: 'Basado en la versión de liquidación',
  },
  basis: {
    en: 'Basis',
    da: 'Grundlag',
    nb: 'Grunnlag',
    sv: 'Underlag',
    fi: 'Peruste',
    es: 'Base',
  },
} as const satisfies Record<string, Texts>;

/** How an amount was set (on_account.source), as the reports say it. */
export const ON_ACCOUNT_SOURCES: Record<'previous-settlement' | 'parameter', Texts> = {
  'previous-settlement': {
    en: 'Share of the month before',
    da: 'Andel af måneden før',
    nb: 'Andel av måneden før',
    sv: 'Andel av månaden före',
    fi: 'Osuus edellisestä kuukaudesta',
    es: 'Parte del mes anterior',
  },
  parameter: {
    en: 'On-account energy set',
    da: 'Fastsat acontoenergi',
    nb: 'Fastsatt a konto-energi',
    sv: 'Fastställd a conto-energi',
    fi: 'Asetettu ennakkoenergia',
    es: 'Energía a cuenta fijada',
  },
};

/** The source of an on_account row `a` in the order's language. */
export const onAccountSourceText = (scope: ReportScope): SQL =>
  sql`CASE a.source WHEN 'parameter' THEN ${ON_ACCOUNT_SOURCES.parameter[scope.language]}::text
                    ELSE ${ON_ACCOUNT_SOURCES['previous-settlement'][scope.language]}::text END`;

/**
 * `FROM` the month's on_account rows `a` with their basis `b` (the VAT share of the settlement line
 * they are based on, `b.vat_share`), the orderer's organisations only.
 */
export const onAccountWithBasis = (scope: ReportScope): SQL => sql`
  on_account a
  LEFT JOIN (SELECT l.procedure_result_id, l.organisation_uuid, l.price_area_uuid,
                    sum(l.vat_cost) / nullif(sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost
                                                 + l.grid_fee_cost + l.energy_fee_cost + l.tax_cost + l.vat_cost), 0)
                      AS vat_share
               FROM settlement_line l
              WHERE l.tenant = ${scope.tenant}::uuid
                AND l.procedure_result_id IN (SELECT x.based_on_result_id FROM on_account x
                                               WHERE x.tenant = ${scope.tenant}::uuid
                                                 AND x.month_start >= ${scope.period.start}::timestamptz
                                                 AND x.month_start < ${scope.period.end}::timestamptz)
              GROUP BY l.procedure_result_id, l.organisation_uuid, l.price_area_uuid) b
    ON b.procedure_result_id = a.based_on_result_id AND b.organisation_uuid = a.organisation_uuid
   AND b.price_area_uuid = a.price_area_uuid
  LEFT JOIN entity_latest o ON o.entity_uuid = a.organisation_uuid
  LEFT JOIN entity_latest p ON p.entity_uuid = a.price_area_uuid
 WHERE a.tenant = ${scope.tenant}::uuid
   AND a.month_start >= ${scope.period.start}::timestamptz AND a.month_start < ${scope.period.end}::timestamptz
   AND ${organisationScope(sql`a.organisation_uuid`, scope)}`;

/** The amount's VAT and the amount without it, as sums over on_account `a` and its basis `b`. */
export const ON_ACCOUNT_AMOUNTS = sql`
  sum(a.energy_kwh) AS "onAccountEnergy",
  sum(a.cost - a.cost * coalesce(b.vat_share, 0)) AS "amountExclVat",
  sum(a.cost * coalesce(b.vat_share, 0)) AS "vat",
  sum(a.cost) AS "total"`;

export const onAccountAppendixReport = defineReport({
  name: 'onaccountappendix',
  family: 'onaccount',
  title: {
    en: 'On-account invoice appendix',
    da: 'Bilag til acontofaktura',
    nb: 'Vedlegg til a konto-faktura',
    sv: 'Bilaga till a conto-faktura',
    fi: 'Ennakkolaskun liite',
    es: 'Anexo de la factura a cuenta',
  },
  ...ON_ACCOUNT_ORDER,
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'onAccountEnergy', kind: 'number', unit: 'kWh' },
    { key: 'amountExclVat', kind: 'number', unit: 'currency' },
    { key: 'vat', kind: 'number', unit: 'currency' },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'basis', kind: 'text', texts: ON_ACCOUNT_TEXTS.basis },
    { key: 'basedOnVersion', kind: 'integer', texts: ON_ACCOUNT_TEXTS.basedOnVersion },
  ],
  // The lines of an organisation by price area, its total line last.
  sortKeys: ['organisation', 'organisationUuid', 'totalLine', 'priceArea'],
  query: (scope) => sql`
    SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
           CASE WHEN GROUPING(p.name) = 1 THEN ${TOTAL_ROW[scope.language]}::text ELSE p.name END AS "priceArea",
           GROUPING(p.name) AS "totalLine", a.organisation_uuid AS "organisationUuid", ${ON_ACCOUNT_AMOUNTS},
           CASE WHEN GROUPING(p.name) = 0 THEN min(${onAccountSourceText(scope)}) END AS "basis",
           max(a.based_on_result_id) AS "basedOnVersion"
      FROM ${onAccountWithBasis(scope)}
     GROUP BY GROUPING SETS ((a.organisation_uuid, o.name, o.attributes ->> 'orgId', p.name),
                             (a.organisation_uuid, o.name, o.attributes ->> 'orgId'))`,
});
