import { sql } from 'drizzle-orm';
import { defineReport, UNIT_RECORDS_ORDER } from './define-report.js';
import { organisationFilter } from '../organisation/visibility.js';
import { refScope } from './sql.js';

/**
 * The CEBD records as received (docs/reports.md "energyrawdata"): every 5-minute record of the
 * period (period end in (start, end]) of the ordered consumption points or traction units, with its
 * four energies, quality, position, traction system, the check's codes and the file it came in.
 * Who sees which: the area's staff every unit; a vehicle keeper, cp-admin or consumer the units its
 * organisations own (the unit's owner).
 */
export const energyRawDataReport = defineReport({
  name: 'energyrawdata',
  family: 'energy',
  title: {
    en: 'Energy raw data',
    da: 'Rå energidata',
    nb: 'Rå energidata',
    sv: 'Rå energidata',
    fi: 'Energian raakadata',
    es: 'Datos brutos de energía',
  },
  ...UNIT_RECORDS_ORDER,
  columns: [
    { key: 'consumptionPoint', kind: 'text' },
    { key: 'tractionUnit', kind: 'text' },
    { key: 'periodEnd', kind: 'time' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'reactiveConsumed', kind: 'number', unit: 'kWh' },
    { key: 'reactiveRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'quality', kind: 'integer' },
    { key: 'latitude', kind: 'number', unit: 'degrees' },
    { key: 'longitude', kind: 'number', unit: 'degrees' },
    { key: 'tractionSystem', kind: 'text' },
    { key: 'codes', kind: 'text' },
    { key: 'fileName', kind: 'text' },
  ],
  sortKeys: ['consumptionPoint', 'consumptionPointUuid', 'periodEnd'],
  query: (scope) => sql`
    SELECT cp.attributes ->> 'cpid' AS "consumptionPoint", r.consumption_point_uuid AS "consumptionPointUuid",
           tu.name AS "tractionUnit", r.period_end AS "periodEnd",
           r.active_consumed AS "activeConsumed", r.active_regenerated AS "activeRegenerated",
           r.reactive_consumed AS "reactiveConsumed", r.reactive_regenerated AS "reactiveRegenerated",
           r.quality AS "quality", r.lat AS "latitude", r.lon AS "longitude", r.traction_system AS "tractionSystem",
           array_to_string(r.codes, ',') AS "codes", f.file_name AS "fileName"
      FROM cebd_record r
      JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = coalesce(r.traction_unit_uuid, cp.unit_uuid)
      LEFT JOIN data_log f ON f.id = r.data_log_id
     WHERE r.tenant = ${scope.tenant}::uuid
       AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
       AND ${refScope(sql`r.consumption_point_uuid`, scope.refs.consumptionpoint)}
       AND ${refScope(sql`coalesce(r.traction_unit_uuid, cp.unit_uuid)`, scope.refs.tractionunit)}
       AND ${organisationFilter(sql`tu.owner_uuid`, scope.organisations)}`,
});
