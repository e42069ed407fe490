import { sql } from 'drizzle-orm';
import { defineReport, UNIT_RECORDS_ORDER } from './define-report.js';
import { organisationFilter } from '../organisation/visibility.js';
import { allocatable } from '../processing/allocated-energy.js';
import { refScope } from './sql.js';

/** The end of the quarter hour a 5-minute record's period lies in (as 15minoverview). */
const QUARTER_END = sql`date_bin('15 minutes', r.period_end - interval '1 microsecond', timestamptz '2000-01-01T00:00:00Z') + interval '15 minutes'`;

/**
 * The CEBD records in 15-minute sums, in detail (docs/reports.md "15minoverview" gives the plain
 * sums; this "15mindetailed"): every record of the month as received, summed per consumption point,
 * quarter hour and where cebd-preprocessing placed it (grid area, price area, traction system), with
 * how many records the part holds, how many of them the check found not allocatable (no unit, or
 * codes 54, 59, 60: allocated-energy.ts), allocated with a warning (codes 55-58) or has not checked
 * yet (codes NULL), the allocatable net energy (what the allocation takes) and the lowest quality. A quarter whose records lie in two grid areas is two rows. Who sees which: as
 * energyrawdata (the unit's owner).
 */
export const fifteenMinDetailedReport = defineReport({
  name: '15mindetailed',
  family: 'energy',
  title: {
    en: 'Energy in 15-minute sums, detailed',
    da: 'Energi i 15-minutterssummer, detaljeret',
    nb: 'Energi i 15-minuttersummer, detaljert',
    sv: 'Energi i 15-minuterssummor, detaljerad',
    fi: 'Energia 15 minuutin summina, yksityiskohtainen',
    es: 'Energía en sumas de 15 minutos, detallada',
  },
  ...UNIT_RECORDS_ORDER,
  columns: [
    { key: 'consumptionPoint', kind: 'text' },
    { key: 'tractionUnit', kind: 'text' },
    { key: 'periodEnd', kind: 'time' },
    { key: 'gridArea', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'tractionSystem', kind: 'text' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'reactiveConsumed', kind: 'number', unit: 'kWh' },
    { key: 'reactiveRegenerated', kind: 'number', unit: 'kWh' },
    {
      key: 'allocatableNetEnergy',
      kind: 'number',
      unit: 'kWh',
      texts: {
        en: 'Allocatable net energy',
        da: 'Fordelbar nettoenergi',
        nb: 'Fordelbar nettoenergi',
        sv: 'Fördelbar nettoenergi',
        fi: 'Kohdistettava nettoenergia',
        es: 'Energía neta asignable',
      },
    },
    { key: 'records', kind: 'integer' },
    {
      key: 'rejectedRecords',
      kind: 'integer',
      texts: {
        en: 'Rejected records',
        da: 'Afviste poster',
        nb: 'Avviste poster',
        sv: 'Avvisade poster',
        fi: 'Hylätyt tietueet',
        es: 'Registros rechazados',
      },
    },
    {
      key: 'warnedRecords',
      kind: 'integer',
      texts: {
        en: 'Records with warnings',
        da: 'Poster med advarsler',
        nb: 'Poster med advarsler',
        sv: 'Poster med varningar',
        fi: 'Tietueet, joissa varoituksia',
        es: 'Registros con avisos',
      },
    },
    {
      key: 'uncheckedRecords',
      kind: 'integer',
      texts: {
        en: 'Unchecked records',
        da: 'Ukontrollerede poster',
        nb: 'Ukontrollerte poster',
        sv: 'Okontrollerade poster',
        fi: 'Tarkistamattomat tietueet',
        es: 'Registros sin comprobar',
      },
    },
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
  sortKeys: [
    'consumptionPoint',
    'consumptionPointUuid',
    'periodEnd',
    'gridAreaUuid',
    'priceAreaUuid',
    'tractionSystem',
  ],
  query: (scope) => sql`
    SELECT cp.attributes ->> 'cpid' AS "consumptionPoint", r.consumption_point_uuid AS "consumptionPointUuid",
           min(tu.name) AS "tractionUnit", ${QUARTER_END} AS "periodEnd",
           min(g.name) AS "gridArea", min(p.name) AS "priceArea", r.traction_system AS "tractionSystem",
           sum(r.active_consumed) AS "activeConsumed", sum(r.active_regenerated) AS "activeRegenerated",
           sum(r.reactive_consumed) AS "reactiveConsumed", sum(r.reactive_regenerated) AS "reactiveRegenerated",
           coalesce(sum(r.active_consumed - r.active_regenerated) FILTER (WHERE r.codes IS NOT NULL AND ${allocatable(sql`r`)}), 0)
             AS "allocatableNetEnergy",
           count(*)::int AS "records",
           (count(*) FILTER (WHERE r.codes IS NOT NULL AND NOT (${allocatable(sql`r`)})))::int AS "rejectedRecords",
           (count(*) FILTER (WHERE r.codes <> '{}' AND ${allocatable(sql`r`)}))::int AS "warnedRecords",
           (count(*) FILTER (WHERE r.codes IS NULL))::int AS "uncheckedRecords",
           min(r.quality)::int AS "lowestQuality",
           r.grid_area_uuid AS "gridAreaUuid", r.price_area_uuid AS "priceAreaUuid"
      FROM cebd_record r
      JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = coalesce(r.traction_unit_uuid, cp.unit_uuid)
      LEFT JOIN entity_latest g ON g.entity_uuid = r.grid_area_uuid
      LEFT JOIN entity_latest p ON p.entity_uuid = r.price_area_uuid
     WHERE r.tenant = ${scope.tenant}::uuid
       AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
       AND ${refScope(sql`r.consumption_point_uuid`, scope.refs.consumptionpoint)}
       AND ${refScope(sql`coalesce(r.traction_unit_uuid, cp.unit_uuid)`, scope.refs.tractionunit)}
       AND ${organisationFilter(sql`tu.owner_uuid`, scope.organisations)}
     GROUP BY r.consumption_point_uuid, cp.attributes ->> 'cpid', 4, r.grid_area_uuid, r.price_area_uuid,
              r.traction_system`,
});
