import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { SETTLEMENT_COST_COLUMNS, SETTLEMENT_ENERGY_COLUMNS, SETTLEMENT_SUMS } from './settlement.js';
import { MORE_TEXTS } from './settlement-versions.js';
import { organisationScope, periodDays } from './sql.js';
import { TOTAL_ROW } from './texts.js';

/**
 * The month's settlement summed per price area, all organisations together, and the area's total
 * (docs/reports.md "settlementsummary"): one statement with GROUPING SETS, so the total line is the
 * sum of exactly the price areas shown, and both are the sums of the settlement result's lines.
 */
export const settlementSummaryReport = defineReport({
  name: 'settlementsummary',
  family: 'settlement',
  title: {
    en: 'Settlement summary per price area',
    da: 'Afregningsoversigt pr. prisområde',
    nb: 'Avregningssammendrag per prisområde',
    sv: 'Avräkningssammanställning per elområde',
    fi: 'Selvityksen yhteenveto hinta-alueittain',
    es: 'Resumen de liquidación por zona de precio',
  },
  roles: AREA_WIDE_ROLES,
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'priceArea', kind: 'text' },
    { key: 'organisations', kind: 'integer', texts: MORE_TEXTS.organisations },
    ...SETTLEMENT_ENERGY_COLUMNS,
    ...SETTLEMENT_COST_COLUMNS,
    { key: 'settlementVersion', kind: 'integer' },
  ],
  // The price areas by name, the total line last.
  sortKeys: ['totalLine', 'priceArea', 'priceAreaUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
      SELECT CASE WHEN GROUPING(l.price_area_uuid) = 1 THEN ${TOTAL_ROW[scope.language]}::text ELSE min(p.name) END
               AS "priceArea",
             GROUPING(l.price_area_uuid) AS "totalLine", l.price_area_uuid AS "priceAreaUuid",
             count(DISTINCT l.organisation_uuid)::int AS "organisations", ${SETTLEMENT_SUMS},
             ${scope.resultId}::bigint AS "settlementVersion"
        FROM settlement_line l
        LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
       WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
         AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY GROUPING SETS ((l.price_area_uuid), ())`;
  },
});
