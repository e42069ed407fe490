import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { allocatable } from '../processing/allocated-energy.js';
import { defineReport } from './define-report.js';
import { refScope } from './sql.js';
import type { Texts } from './texts.js';

/**
 * Energy per surveillance area (docs/reports.md "surveillancearea"): the metered energy drawn
 * inside each of the area's surveillance areas, per day of the order's zone. Surveillance areas are
 * polygons that overlay the other areas (DOMAIN.md "Areas and tenants"); no grid area or record
 * names one, so a record belongs to the surveillance areas whose polygon holds the position it was
 * measured at (its lat/lon), tested as cebd-preprocessing places records in grid areas: the area's
 * bounding box, then rw_point_in_geometry (even-odd ray casting over every ring of the Polygon or
 * MultiPolygon, migration 0150). Each distinct position of the month is tested once, then the
 * records are summed per area and day.
 *
 * The records are those settlement bills: checked by cebd-preprocessing and allocatable (a traction
 * unit, none of the codes 54, 59, 60: allocated-energy.ts `allocatable`, the rule combine and the
 * allocation steps read; 55-58 are warnings and their energy is still drawn), quality not 46; a
 * record belongs to the day its 5 minutes lie in.
 * The area's staff order it (it is the whole area's energy, every organisation's).
 */
const TEXTS = {
  surveillanceArea: {
    en: 'Surveillance area',
    da: 'Overvågningsområde',
    nb: 'Overvåkingsområde',
    sv: 'Övervakningsområde',
    fi: 'Valvonta-alue',
    es: 'Zona de vigilancia',
  },
  tractionUnitCount: {
    en: 'Traction units',
    da: 'Trækkraftenheder',
    nb: 'Trekkraftenheter',
    sv: 'Dragfordon',
    fi: 'Vetokalustoyksiköt',
    es: 'Unidades de tracción',
  },
} as const satisfies Record<string, Texts>;

export const surveillanceAreaReport = defineReport({
  name: 'surveillancearea',
  family: 'areaenergy',
  title: {
    en: 'Energy per surveillance area',
    da: 'Energi pr. overvågningsområde',
    nb: 'Energi per overvåkingsområde',
    sv: 'Energi per övervakningsområde',
    fi: 'Energia valvonta-alueittain',
    es: 'Energía por zona de vigilancia',
  },
  roles: AREA_WIDE_ROLES,
  period: 'month',
  refs: [{ kind: 'tractionunit', many: true }],
  source: null,
  columns: [
    { key: 'surveillanceArea', kind: 'text', texts: TEXTS.surveillanceArea },
    { key: 'day', kind: 'day' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    { key: 'records', kind: 'integer' },
    { key: 'tractionUnitCount', kind: 'integer', texts: TEXTS.tractionUnitCount },
  ],
  sortKeys: ['surveillanceArea', 'areaUuid', 'day'],
  query: (scope) => sql`
    WITH records AS (
      SELECT r.lat, r.lon, r.active_consumed, r.active_regenerated, r.traction_unit_uuid AS unit,
             to_char((r.period_end - interval '1 microsecond') AT TIME ZONE ${scope.zone}, 'YYYY-MM-DD') AS day
        FROM cebd_record r
       WHERE r.tenant = ${scope.tenant}::uuid
         AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
         AND r.codes IS NOT NULL AND ${allocatable(sql`r`)} AND r.quality <> 46
         AND r.lat IS NOT NULL AND r.lon IS NOT NULL
         AND ${refScope(sql`r.traction_unit_uuid`, scope.refs.tractionunit)}
    ), areas AS (
      SELECT s.entity_uuid AS area, s.attributes -> 'geometry' AS geom,
             rw_geometry_bbox(s.attributes -> 'geometry') AS bb
        FROM entity_latest s
       WHERE s.tenant = ${scope.tenant}::uuid AND s.type = 'surveillancearea'
         AND jsonb_typeof(s.attributes -> 'geometry') = 'object'
    ), positions AS (
      SELECT DISTINCT lat, lon FROM records
    ), inside AS (
      -- The bounding box first, then the polygon (rw_point_in_geometry, as cebd-preprocessing places records).
      SELECT a.area, q.lat, q.lon
        FROM positions q
        JOIN areas a ON q.lon BETWEEN a.bb[1] AND a.bb[3] AND q.lat BETWEEN a.bb[2] AND a.bb[4]
                    AND rw_point_in_geometry(a.geom, q.lon, q.lat)
    )
    SELECT a.name AS "surveillanceArea", i.area AS "areaUuid", r.day AS "day",
           sum(r.active_consumed) AS "activeConsumed", sum(r.active_regenerated) AS "activeRegenerated",
           sum(r.active_consumed - r.active_regenerated) AS "netEnergy", count(*)::int AS "records",
           count(DISTINCT r.unit)::int AS "tractionUnitCount"
      FROM records r
      JOIN inside i ON i.lat = r.lat AND i.lon = r.lon
      LEFT JOIN entity_latest a ON a.entity_uuid = i.area
     GROUP BY i.area, a.name, r.day`,
});
