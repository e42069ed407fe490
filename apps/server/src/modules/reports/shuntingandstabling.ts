import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, refScope } from './sql.js';

/**
 * Energy allocated as shunting and stabling (docs/reports.md "shuntingandstabling"): the allocation's
 * hourly sums of category shunting-and-stabling (allocated_energy_hourly, written by the
 * shunting-and-stabling step) of the month, per paying organisation (the railway undertaking, or
 * the vehicle keeper), traction unit and day of the order's zone. Who sees which: the area's staff
 * every organisation; a consumer, vehicle keeper or cp-admin the energy its organisations pay for.
 */
export const shuntingAndStablingReport = defineReport({
  name: 'shuntingandstabling',
  family: 'energy',
  title: {
    en: 'Shunting and stabling energy',
    da: 'Energi til rangering og hensætning',
    nb: 'Energi til skifting og hensetting',
    sv: 'Energi för växling och uppställning',
    fi: 'Vaihtotyön ja seisonnan energia',
    es: 'Energía de maniobras y estacionamiento',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'month',
  refs: [
    { kind: 'organisation', many: true },
    { kind: 'tractionunit', many: true },
  ],
  source: null,
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'tractionUnit', kind: 'text' },
    { key: 'day', kind: 'day' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    { key: 'records', kind: 'integer' },
  ],
  sortKeys: ['organisation', 'organisationUuid', 'tractionUnit', 'tractionUnitUuid', 'day'],
  query: (scope) => sql`
    SELECT o.name AS "organisation", ae.organisation_uuid AS "organisationUuid",
           tu.name AS "tractionUnit", ae.traction_unit_uuid AS "tractionUnitUuid",
           to_char(ae.hour_start AT TIME ZONE ${scope.zone}, 'YYYY-MM-DD') AS "day",
           sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
           sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy", sum(ae.records)::int AS "records"
      FROM allocated_energy_hourly ae
      LEFT JOIN entity_latest o ON o.entity_uuid = ae.organisation_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = ae.traction_unit_uuid
     WHERE ae.tenant = ${scope.tenant}::uuid AND ae.category = 'shunting-and-stabling'
       AND ae.hour_start >= ${scope.period.start}::timestamptz AND ae.hour_start < ${scope.period.end}::timestamptz
       AND ${organisationScope(sql`ae.organisation_uuid`, scope)}
       AND ${refScope(sql`ae.traction_unit_uuid`, scope.refs.tractionunit)}
     GROUP BY ae.organisation_uuid, o.name, ae.traction_unit_uuid, tu.name, 5`,
});
