import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { refScope } from './sql.js';
import type { Texts } from './texts.js';

/**
 * Energy per surveillance area (docs/reports.md "surveillancearea"): the metered energy drawn
 * inside each of the area's surveillance areas, per day of the order's zone. Surveillance areas are
 * polygons that overlay the other areas (DOMAIN.md "Areas and tenants"); no grid area or record
 * names one, so a record belongs to the surveillance areas whose polygon holds the position it was
 * measured at (its lat/lon), tested in SQL by ray casting (even-odd over every ring of the area's
 * Polygon or MultiPolygon: holes and parts count right). Each distinct position of the month is
 * tested once against the areas' edges, then the records are summed per area and day.
 *
 * The records are those cebd-preprocessing checked and found valid, as consumption reads them
 * (`checked_at` set, no code, quality not 46); a record belongs to the day its 5 minutes lie in.
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
      SELECT r.lat, r.lon, r.active_consumed, r.active_regenerated,
             coalesce(r.traction_unit_uuid, cp.unit_uuid) AS unit,
             to_char((r.period_end - interval '1 microsecond') AT TIME ZONE ${scope.zone}, 'YYYY-MM-DD') AS day
        FROM cebd_record r
        JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
       WHERE r.tenant = ${scope.tenant}::uuid
         AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
         AND r.checked_at IS NOT NULL AND r.codes = '{}' AND r.quality <> 46
         AND r.lat IS NOT NULL AND r.lon IS NOT NULL
         AND ${refScope(sql`coalesce(r.traction_unit_uuid, cp.unit_uuid)`, scope.refs.tractionunit)}
    ), polygons AS (
      SELECT s.entity_uuid AS area,
             CASE WHEN s.attributes #>> '{geometry,type}' = 'Polygon'
                  THEN jsonb_build_array(s.attributes #> '{geometry,coordinates}')
                  ELSE s.attributes #> '{geometry,coordinates}' END AS parts
        FROM entity_latest s
       WHERE s.tenant = ${scope.tenant}::uuid AND s.type = 'surveillancearea'
         AND jsonb_typeof(s.attributes #> '{geometry,coordinates}') = 'array'
    ), edges AS (
      -- Every edge of every ring: the point at i and the one after it (a ring is closed).
      SELECT pg.area, (v.pt ->> 0)::float8 AS x1, (v.pt ->> 1)::float8 AS y1,
             (ring.pts -> v.i::int ->> 0)::float8 AS x2, (ring.pts -> v.i::int ->> 1)::float8 AS y2
        FROM polygons pg
        CROSS JOIN LATERAL jsonb_array_elements(pg.parts) AS part(rings)
        CROSS JOIN LATERAL jsonb_array_elements(part.rings) AS ring(pts)
        CROSS JOIN LATERAL jsonb_array_elements(ring.pts) WITH ORDINALITY AS v(pt, i)
       WHERE v.i < jsonb_array_length(ring.pts)
    ), positions AS (
      SELECT DISTINCT lat, lon FROM records
    ), inside AS (
      -- A position is inside when a ray from it towards +lon crosses the area's edges an odd number of times.
      SELECT e.area, q.lat, q.lon
        FROM positions q
        JOIN edges e ON (e.y1 > q.lat) <> (e.y2 > q.lat)
                    AND q.lon < e.x1 + (q.lat - e.y1) * (e.x2 - e.x1) / (e.y2 - e.y1)
       GROUP BY e.area, q.lat, q.lon
      HAVING count(*) % 2 = 1
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
