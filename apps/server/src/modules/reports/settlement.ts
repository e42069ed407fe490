import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport, type ReportColumn, type ReportDeclaration } from './define-report.js';
import { organisationScope, periodDays } from './sql.js';

/**
 * The month's settlement lines of a settlement result (docs/reports.md "settlement"), per
 * organisation and price area: the energies (supply = metered + estimated + other + losses), the
 * energy cost, fees, tax, VAT, the total, what was invoiced on account and what is due. Exactly
 * the sums GET /timeseries/settlement/lines answers for the same result.
 */

/** The columns of the settlement's lines, shared with the invoice appendix. */
export const SETTLEMENT_ENERGY_COLUMNS: readonly ReportColumn[] = [
  { key: 'meteredEnergy', kind: 'number', unit: 'kWh' },
  { key: 'estimatedEnergy', kind: 'number', unit: 'kWh' },
  { key: 'otherEnergy', kind: 'number', unit: 'kWh' },
  { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
  { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
  { key: 'onAccountEnergy', kind: 'number', unit: 'kWh' },
];
export const SETTLEMENT_COST_COLUMNS: readonly ReportColumn[] = [
  { key: 'energyCost', kind: 'number', unit: 'currency' },
  { key: 'gridFee', kind: 'number', unit: 'currency' },
  { key: 'energyFee', kind: 'number', unit: 'currency' },
  { key: 'tax', kind: 'number', unit: 'currency' },
  { key: 'amountExclVat', kind: 'number', unit: 'currency' },
  { key: 'vat', kind: 'number', unit: 'currency' },
  { key: 'total', kind: 'number', unit: 'currency' },
  { key: 'onAccountCost', kind: 'number', unit: 'currency' },
  { key: 'due', kind: 'number', unit: 'currency' },
];

/** The sums of settlement_line alias `l` behind those columns (exact numerics; the renderers round). */
/**
 * Who may order the reports of a settlement result's lines (settlement, customerinvoicemonthappendix)
 * and what they hold: a month of the ordered organisations, one line per organisation and price area.
 */
export const SETTLEMENT_LINES_ORDER = {
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    ...SETTLEMENT_ENERGY_COLUMNS,
    ...SETTLEMENT_COST_COLUMNS,
    { key: 'settlementVersion', kind: 'integer' },
  ],
} as const satisfies Pick<ReportDeclaration<unknown>, 'roles' | 'period' | 'refs' | 'source' | 'columns'>;

export const SETTLEMENT_SUMS = sql`
  sum(l.metered_kwh) AS "meteredEnergy", sum(l.estimated_kwh) AS "estimatedEnergy",
  sum(l.other_kwh) AS "otherEnergy", sum(l.losses_kwh) AS "lossesEnergy",
  sum(l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh) AS "supplyEnergy",
  sum(l.on_account_kwh) AS "onAccountEnergy",
  sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost) AS "energyCost",
  sum(l.grid_fee_cost) AS "gridFee", sum(l.energy_fee_cost) AS "energyFee", sum(l.tax_cost) AS "tax",
  sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost + l.energy_fee_cost
      + l.tax_cost) AS "amountExclVat",
  sum(l.vat_cost) AS "vat",
  sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost + l.energy_fee_cost
      + l.tax_cost + l.vat_cost) AS "total",
  sum(l.on_account_cost) AS "onAccountCost",
  sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost + l.energy_fee_cost
      + l.tax_cost + l.vat_cost - l.on_account_cost) AS "due"`;

export const settlementReport = defineReport({
  name: 'settlement',
  family: 'settlement',
  title: {
    en: 'Settlement',
    da: 'Afregning',
    nb: 'Avregning',
    sv: 'Avräkning',
    fi: 'Selvitys',
    es: 'Liquidación',
  },
  ...SETTLEMENT_LINES_ORDER,
  sortKeys: ['priceArea', 'organisation', 'organisationUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId", p.name AS "priceArea",
             l.organisation_uuid AS "organisationUuid", ${SETTLEMENT_SUMS},
             ${scope.resultId}::bigint AS "settlementVersion"
        FROM settlement_line l
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
       WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
         AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY l.organisation_uuid, o.name, o.attributes ->> 'orgId', l.price_area_uuid, p.name`;
  },
});
