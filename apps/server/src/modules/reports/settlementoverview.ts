import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { SETTLEMENT_COST_COLUMNS, SETTLEMENT_ENERGY_COLUMNS, SETTLEMENT_SUMS } from './settlement.js';
import { monthVersions, MORE_TEXTS, RANGE_PARAMETERS } from './settlement-versions.js';
import { organisationScope } from './sql.js';

/**
 * The settlement lines month by month over a range (docs/reports.md "settlementoverview"): for each
 * month of the range its own settlement version (settlement-versions.ts: approved first, else the
 * newest with the orderer's statuses), its lines summed per organisation and price area, naming
 * the version and its status. A month is exactly the settlement report of that month and version.
 */
export const settlementOverviewReport = defineReport({
  name: 'settlementoverview',
  family: 'settlement',
  title: {
    en: 'Settlement overview by month',
    da: 'Afregningsoverblik pr. måned',
    nb: 'Avregningsoversikt per måned',
    sv: 'Avräkningsöversikt per månad',
    fi: 'Selvityksen kuukausikatsaus',
    es: 'Resumen de liquidación por mes',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'months',
  refs: [{ kind: 'organisation', many: true }],
  parameters: RANGE_PARAMETERS,
  source: { procedure: 'settlement', perMonth: true },
  columns: [
    { key: 'month', kind: 'text', texts: MORE_TEXTS.month },
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    ...SETTLEMENT_ENERGY_COLUMNS,
    ...SETTLEMENT_COST_COLUMNS,
    { key: 'settlementVersion', kind: 'integer' },
    { key: 'versionStatus', kind: 'text', texts: MORE_TEXTS.versionStatus },
  ],
  sortKeys: ['month', 'organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid'],
  query: (scope) => sql`
    WITH v AS (${monthVersions(scope)})
    SELECT v.month AS "month", o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
           l.organisation_uuid AS "organisationUuid", p.name AS "priceArea", l.price_area_uuid AS "priceAreaUuid",
           ${SETTLEMENT_SUMS}, v.result_id AS "settlementVersion", v.status AS "versionStatus"
      FROM v
      JOIN settlement_line l
        ON l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = v.result_id
       AND l.day >= v.month_first AND l.day < v.month_after
      LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
      LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
     WHERE ${organisationScope(sql`l.organisation_uuid`, scope)}
     GROUP BY v.month, v.result_id, v.status, l.organisation_uuid, o.name, o.attributes ->> 'orgId',
              l.price_area_uuid, p.name`,
});
