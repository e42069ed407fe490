import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays } from './sql.js';
import type { Texts } from './texts.js';

/**
 * What changed between an approved settlement version and the one that corrected it (docs/reports.md
 * "energycorrection"). The version read (`scope.resultId`: the approved one, or the one
 * `processingId` names) is compared with the version it corrected: the newest older settlement
 * result of the same period and kind (plain or TPA) whose status is `corrected` (approving with
 * updatePreviouslyApprovedToCorrected marks the earlier approved version so, tasks.ts). Per
 * organisation and price area of either version: supply energy and the total with VAT before and
 * after, and the differences (after - before); a line only one version has counts 0 in the other.
 * No corrected version before the one read: nothing was corrected, the report has no rows.
 */
const TEXTS = {
  previousVersion: {
    en: 'Corrected version',
    da: 'Korrigeret version',
    nb: 'Korrigert versjon',
    sv: 'Korrigerad version',
    fi: 'Korjattu versio',
    es: 'Versión corregida',
  },
  previousSupplyEnergy: {
    en: 'Supply energy before',
    da: 'Leveret energi før',
    nb: 'Levert energi før',
    sv: 'Levererad energi före',
    fi: 'Toimitettu energia ennen',
    es: 'Energía suministrada antes',
  },
  supplyEnergyDifference: {
    en: 'Supply energy difference',
    da: 'Forskel i leveret energi',
    nb: 'Differanse i levert energi',
    sv: 'Differens i levererad energi',
    fi: 'Toimitetun energian erotus',
    es: 'Diferencia de energía suministrada',
  },
  previousTotal: {
    en: 'Total before',
    da: 'I alt før',
    nb: 'Totalt før',
    sv: 'Totalt före',
    fi: 'Yhteensä ennen',
    es: 'Total antes',
  },
  totalDifference: {
    en: 'Total difference',
    da: 'Forskel i alt',
    nb: 'Totaldifferanse',
    sv: 'Total differens',
    fi: 'Erotus yhteensä',
    es: 'Diferencia total',
  },
} as const satisfies Record<string, Texts>;

export const energyCorrectionReport = defineReport({
  name: 'energycorrection',
  family: 'correction',
  title: {
    en: 'Energy correction',
    da: 'Energikorrektion',
    nb: 'Energikorreksjon',
    sv: 'Energikorrigering',
    fi: 'Energiakorjaus',
    es: 'Corrección de energía',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'previousVersion', kind: 'integer', texts: TEXTS.previousVersion },
    { key: 'settlementVersion', kind: 'integer' },
    { key: 'previousSupplyEnergy', kind: 'number', unit: 'kWh', texts: TEXTS.previousSupplyEnergy },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'supplyEnergyDifference', kind: 'number', unit: 'kWh', texts: TEXTS.supplyEnergyDifference },
    { key: 'previousTotal', kind: 'number', unit: 'currency', texts: TEXTS.previousTotal },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'totalDifference', kind: 'number', unit: 'currency', texts: TEXTS.totalDifference },
  ],
  sortKeys: ['organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    const supply = sql`l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh`;
    const total = sql`l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost
                      + l.energy_fee_cost + l.tax_cost + l.vat_cost`;
    const isNew = sql`l.procedure_result_id = ${scope.resultId}::bigint`;
    return sql`
      WITH versions AS (
        SELECT r.id AS current_id,
               (SELECT max(c.id) FROM procedure_result c
                 WHERE c.tenant = r.tenant AND c.procedure_name = r.procedure_name AND c.status = 'corrected'
                   AND c.id < r.id AND c.period_start <= ${scope.period.start}::timestamptz
                   AND c.period_end >= ${scope.period.end}::timestamptz
                   AND coalesce(c.run_options ->> 'tpa', 'false') = coalesce(r.run_options ->> 'tpa', 'false'))
                 AS previous_id
          FROM procedure_result r
         WHERE r.tenant = ${scope.tenant}::uuid AND r.id = ${scope.resultId}::bigint
      )
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
             l.organisation_uuid AS "organisationUuid", p.name AS "priceArea", l.price_area_uuid AS "priceAreaUuid",
             v.previous_id AS "previousVersion", v.current_id AS "settlementVersion",
             coalesce(sum(${supply}) FILTER (WHERE NOT ${isNew}), 0) AS "previousSupplyEnergy",
             coalesce(sum(${supply}) FILTER (WHERE ${isNew}), 0) AS "supplyEnergy",
             sum(CASE WHEN ${isNew} THEN ${supply} ELSE -(${supply}) END) AS "supplyEnergyDifference",
             coalesce(sum(${total}) FILTER (WHERE NOT ${isNew}), 0) AS "previousTotal",
             coalesce(sum(${total}) FILTER (WHERE ${isNew}), 0) AS "total",
             sum(CASE WHEN ${isNew} THEN ${total} ELSE -(${total}) END) AS "totalDifference"
        FROM versions v
        JOIN settlement_line l ON l.tenant = ${scope.tenant}::uuid
                              AND l.procedure_result_id IN (v.current_id, v.previous_id)
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
       WHERE v.previous_id IS NOT NULL AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY v.previous_id, v.current_id, l.organisation_uuid, o.name, o.attributes ->> 'orgId',
                l.price_area_uuid, p.name`;
  },
});
