import { sql } from 'drizzle-orm';
import { defineReport, UNIT_RECORDS_ORDER } from './define-report.js';
import { organisationFilter } from '../organisation/visibility.js';
import { refScope } from './sql.js';

/**
 * Energy per consumption point per day (docs/reports.md "consumption"): the checked, valid CEBD
 * records (cebd-preprocessing checked them and found no code) of the month summed per consumption
 * point and day of the order's zone (a record belongs to the day its 5 minutes lie in: period end
 * minus a microsecond). Who sees which: the area's staff every point; a vehicle keeper, cp-admin or
 * consumer the points of the units its organisations own (the unit's owner), as energyrawdata.
 */
export const consumptionReport = defineReport({
  name: 'consumption',
  family: 'energy',
  title: {
    en: 'Consumption per consumption point and day',
    da: 'Forbrug pr. forbrugspunkt og dag',
    nb: 'Forbruk per forbrukspunkt og dag',
    sv: 'Förbrukning per förbrukningspunkt och dag',
    fi: 'Kulutus kulutuspisteittäin ja päivittäin',
    es: 'Consumo por punto de consumo y día',
  },
  ...UNIT_RECORDS_ORDER,
  columns: [
    { key: 'consumptionPoint', kind: 'text' },
    { key: 'tractionUnit', kind: 'text' },
    { key: 'day', kind: 'day' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    { key: 'reactiveConsumed', kind: 'number', unit: 'kWh' },
    { key: 'reactiveRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'records', kind: 'integer' },
  ],
  sortKeys: ['consumptionPoint', 'consumptionPointUuid', 'day'],
  query: (scope) => sql`
    SELECT cp.attributes ->> 'cpid' AS "consumptionPoint", r.consumption_point_uuid AS "consumptionPointUuid",
           min(tu.name) AS "tractionUnit",
           to_char((r.period_end - interval '1 microsecond') AT TIME ZONE ${scope.zone}, 'YYYY-MM-DD') AS "day",
           sum(r.active_consumed) AS "activeConsumed", sum(r.active_regenerated) AS "activeRegenerated",
           sum(r.active_consumed - r.active_regenerated) AS "netEnergy",
           sum(r.reactive_consumed) AS "reactiveConsumed", sum(r.reactive_regenerated) AS "reactiveRegenerated",
           count(*)::int AS "records"
      FROM cebd_record r
      JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = coalesce(r.traction_unit_uuid, cp.unit_uuid)
     WHERE r.tenant = ${scope.tenant}::uuid
       AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
       AND r.checked_at IS NOT NULL AND r.codes = '{}' AND r.quality <> 46
       AND ${refScope(sql`r.consumption_point_uuid`, scope.refs.consumptionpoint)}
       AND ${refScope(sql`coalesce(r.traction_unit_uuid, cp.unit_uuid)`, scope.refs.tractionunit)}
       AND ${organisationFilter(sql`tu.owner_uuid`, scope.organisations)}
     GROUP BY r.consumption_point_uuid, cp.attributes ->> 'cpid', 4`,
});
