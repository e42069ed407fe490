import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { monthVersions, MORE_TEXTS, RANGE_PARAMETERS } from './settlement-versions.js';
import { organisationScope, refScope } from './sql.js';

/**
 * Energy per traction unit over a range of months as the approved settlement versions hold it
 * (docs/reports.md "accumulatedenergysettlementdependency"): for each month of the range its
 * approved settlement version (settlement-versions.ts; a month without one has no rows), the units'
 * allocated energy (every category: what the settlement's metered energy is made of) where the
 * version has a line for the payer, price area and day, summed per unit and month, the net energy
 * accumulated month by month, and the version each month was read from.
 */
export const accumulatedEnergySettlementDependencyReport = defineReport({
  name: 'accumulatedenergysettlementdependency',
  family: 'energy',
  title: {
    en: 'Accumulated energy per traction unit, approved settlement',
    da: 'Akkumuleret energi pr. trækkraftenhed, godkendt afregning',
    nb: 'Akkumulert energi per trekkraftenhet, godkjent avregning',
    sv: 'Ackumulerad energi per dragfordon, godkänd avräkning',
    fi: 'Kertynyt energia vetokalustoittain, hyväksytty selvitys',
    es: 'Energía acumulada por unidad de tracción, liquidación aprobada',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'months',
  refs: [
    { kind: 'organisation', many: true },
    { kind: 'tractionunit', many: true },
  ],
  parameters: RANGE_PARAMETERS,
  source: { procedure: 'settlement', approvedOnly: true, perMonth: true },
  columns: [
    { key: 'tractionUnit', kind: 'text' },
    { key: 'month', kind: 'text', texts: MORE_TEXTS.month },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    {
      key: 'accumulatedEnergy',
      kind: 'number',
      unit: 'kWh',
      texts: {
        en: 'Accumulated net energy',
        da: 'Akkumuleret nettoenergi',
        nb: 'Akkumulert nettoenergi',
        sv: 'Ackumulerad nettoenergi',
        fi: 'Kertynyt nettoenergia',
        es: 'Energía neta acumulada',
      },
    },
    { key: 'settlementVersion', kind: 'integer' },
  ],
  sortKeys: ['tractionUnit', 'tractionUnitUuid', 'month'],
  query: (scope) => sql`
    WITH v AS (${monthVersions(scope)})
    SELECT m.*, sum(m."netEnergy") OVER (PARTITION BY m."tractionUnitUuid" ORDER BY m."month") AS "accumulatedEnergy"
      FROM (SELECT tu.name AS "tractionUnit", ae.traction_unit_uuid AS "tractionUnitUuid", v.month AS "month",
                   sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
                   sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy",
                   v.result_id AS "settlementVersion"
              FROM v
              JOIN allocated_energy_hourly ae
                ON ae.tenant = ${scope.tenant}::uuid
               AND ae.hour_start >= v.month_first::timestamp AT TIME ZONE ${scope.zone}
               AND ae.hour_start < v.month_after::timestamp AT TIME ZONE ${scope.zone}
              LEFT JOIN entity_latest tu ON tu.entity_uuid = ae.traction_unit_uuid
             WHERE ${organisationScope(sql`ae.organisation_uuid`, scope)}
               AND ${refScope(sql`ae.traction_unit_uuid`, scope.refs.tractionunit)}
               AND EXISTS (SELECT 1 FROM settlement_line l
                            WHERE l.tenant = ae.tenant AND l.procedure_result_id = v.result_id
                              AND l.organisation_uuid = ae.organisation_uuid AND l.price_area_uuid = ae.price_area_uuid
                              AND l.day = (ae.hour_start AT TIME ZONE ${scope.zone})::date)
             GROUP BY ae.traction_unit_uuid, tu.name, v.month, v.result_id) AS m`,
});
