import { sql } from 'drizzle-orm';
import { defineReport, UNIT_RECORDS_ORDER } from './define-report.js';
import { organisationFilter } from '../organisation/visibility.js';
import { refScope } from './sql.js';

/** The end of the quarter hour a 5-minute record's period lies in (its period end rounded up to :00, :15, :30, :45). */
const QUARTER_END = sql`date_bin('15 minutes', r.period_end - interval '1 microsecond', timestamptz '2000-01-01T00:00:00Z') + interval '15 minutes'`;

/**
 * The CEBD records in 15-minute sums (docs/reports.md "15minoverview"): every record of the month as
 * received (period end in (start, end], checked or not), summed per consumption point and quarter
 * hour, with how many records the quarter holds (3 when complete) and the lowest quality among
 * them. Who sees which: as energyrawdata (the unit's owner).
 */
export const fifteenMinOverviewReport = defineReport({
  name: '15minoverview',
  family: 'energy',
  title: {
    en: 'Energy in 15-minute sums',
    da: 'Energi i 15-minutterssummer',
    nb: 'Energi i 15-minuttersummer',
    sv: 'Energi i 15-minuterssummor',
    fi: 'Energia 15 minuutin summina',
    es: 'Energía en sumas de 15 minutos',
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
    { key: 'records', kind: 'integer' },
    {
      key: 'lowestQuality',
      kind: 'integer',
      texts: {
        en: 'Lowest quality',
        da: 'Laveste kvalitet',
        nb: 'Laveste kvalitet',
        sv: 'Lägsta kvalitet',
        fi: 'Alin laatu',
        es: 'Calidad más baja',
      },
    },
  ],
  sortKeys: ['consumptionPoint', 'consumptionPointUuid', 'periodEnd'],
  query: (scope) => sql`
    SELECT cp.attributes ->> 'cpid' AS "consumptionPoint", r.consumption_point_uuid AS "consumptionPointUuid",
           min(tu.name) AS "tractionUnit", ${QUARTER_END} AS "periodEnd",
           sum(r.active_consumed) AS "activeConsumed", sum(r.active_regenerated) AS "activeRegenerated",
           sum(r.reactive_consumed) AS "reactiveConsumed", sum(r.reactive_regenerated) AS "reactiveRegenerated",
           count(*)::int AS "records", min(r.quality)::int AS "lowestQuality"
      FROM cebd_record r
      JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = coalesce(r.traction_unit_uuid, cp.unit_uuid)
     WHERE r.tenant = ${scope.tenant}::uuid
       AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
       AND ${refScope(sql`r.consumption_point_uuid`, scope.refs.consumptionpoint)}
       AND ${refScope(sql`coalesce(r.traction_unit_uuid, cp.unit_uuid)`, scope.refs.tractionunit)}
       AND ${organisationFilter(sql`tu.owner_uuid`, scope.organisations)}
     GROUP BY r.consumption_point_uuid, cp.attributes ->> 'cpid', 4`,
});
