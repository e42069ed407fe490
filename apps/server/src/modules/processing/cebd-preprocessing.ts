import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { jsonColumn, rows } from '../domain/sql.js';

/**
 * cebd-preprocessing (DOMAIN.md "Processing" step 1, issue 9 item 4) for one chunk of an area's
 * period: every CEBD record whose period ends in (start, end] (of the given consumption points
 * only, when `consumptionPoints` is given: one file's points) gets its grid and price area, its
 * traction unit, its validation codes, `checked_at` and `run_id` written onto its own cebd_record
 * row (migration 0370), never a copy. One UPDATE ... FROM the judged set per chunk, whatever the
 * number of records: a re-run of the chunk overwrites what the last one decided; a crash leaves it.
 * The caller (the procedure run, or the job that checks a file on arrival) splits a period into
 * chunks and writes the processing events from the counts.
 *
 * Codes (calls.md §8), judged at the start of the record's 5-minute period:
 * - 60 master data missing: no current consumption-point segment valid then (or it is inactive),
 *   no traction unit referenced, or the unit has no segment valid then (or it is inactive). When
 *   60 is found it is the only code kept (§8: "when present, only 60 is shown").
 * - 54 unknown EMS: the consumption point names no EMS type, or none of the area's `emstype`
 *   entities valid then has that name (case-insensitive).
 * - 55 received via another DCS: the file's sender (data_log.sender, the CEBD root attribute the
 *   intake keeps) is neither the orgId nor the name of the exchange organisation the unit's owner
 *   is connected to (organisation exchangeAdminRef). Not raised when the file names no sender or the
 *   owner has no exchange organisation: nothing to compare with.
 * - 56 too many missing values: fewer than `minPeriodsPerHour` (default 10) of the 12 periods of
 *   the record's UTC hour present (quality 46 "non-existent" counts as missing); every record of
 *   that consumption point and hour gets it. The hour is counted whole even when the chunk cuts it.
 * - 57 too frequent low quality: more than `maxLowQualityShare` (default 0.5) of the records
 *   received in that hour have quality 61 (uncertain) or 56 (estimated).
 * - 58 value outside expected limits: an energy below 0 or above the unit type's maxPower (MW) for
 *   five minutes (MW x 1000 x 5/60 kWh; kvarh for the reactive energies alike), `defaultMaxPowerMw`
 *   (default 10) when the type states none; or the net active energy (consumed minus regenerated,
 *   kWh; the default lower bound is negative because a braking train feeds energy back) outside
 *   the configured expected values [expectedKwh.lower, expectedKwh.upper] (the
 *   configuration's expectedValueLowerKwh/UpperKwh; no bound when not given). Both hold: the
 *   physical bound of the unit and the operator's plausibility range.
 * - 59 position outside the area: no position, or no grid area contains it. Grid areas lie within
 *   the settlement area (the `within` check of modules/infrastructure refuses one that does not), so
 *   a point in a grid area is in the settlement area and a point outside it is in no grid area: the
 *   settlement polygon (the country's, the largest) is never tested. Not raised when the unit
 *   type's position validation rules say NONE.
 *
 * Duplicates: the store keeps one row per record, so a record sent twice is not two rows. The
 * store itself sets `duplicate` on the row when the record arrives from another file, equal (the
 * first file's values stay current) or not (the stored one moves to cebd_record_superseded): it is
 * the one place that sees both files, where this step would have to reconstruct them from the
 * history. A file re-imported as the same data-log entry is not a duplicate. This step reads the
 * flag for its counts (the duplicate events) and leaves it as it is.
 *
 * Placement: the grid area whose geometry (the segment valid at the record's time, GeoJSON in
 * attributes 'geometry') contains the position, planar on lon/lat, exactly as rw_point_in_geometry
 * answers (even-odd ray casting over all rings, the same float8 arithmetic) but set-based: each
 * distinct position once, its candidates the areas whose bounding box holds it, its ray tested only
 * against the candidate's edges in its latitude band (1/64 degree; the chunk's edges are unpacked
 * once per band they span). A point on the border of two goes to the first by name. The price area
 * is the grid area's priceAreaRef (a grid area lies within its price area); only a position in no
 * grid area, or in a grid area without the reference, is tested against the price areas' polygons.
 * A position held by one grid area version (the rule) places each of its records by a hash join on
 * the position (valid at the record's time); only positions held by several (a border, an area
 * redrawn within the chunk) are decided record by record.
 *
 * Master data: the current segments valid in the chunk of its consumption points, then of their
 * units, unit types, owners and owners' exchange organisations, each a small set read once per
 * chunk; every record picks its segment of each by a hash join on the uuid and `valid @> t`. The
 * EMS check (54) is a multirange per consumption point segment of when its EMS type is known.
 *
 * Cost (PostgreSQL 15, a day of 250 units = 72,000 records): 1.7 s in bench/settlement.ts, 2-3.5 s
 * on a busier database, most of it the values' pivot and hourly counts and the insert (9.6 s with
 * a polygon walk and five index probes per record; 21 s with every position distinct). A day of
 * 1,000 units (288,000 records) alone on a fresh table: 6.8 s -> 6.2 s (medians of four, rows
 * identical) when the hourly counts became a grouped join instead of a window over the sorted
 * records, placement by position, the EMS check a join and the counts one pass. The
 * statement runs without JIT and nested loops: the planner cannot estimate the set-returning
 * functions or a CTE's filter and chose nested loops over sets of tens of thousands of rows; what
 * must be read by index gets its keys as a list or a range (an index condition, no nested loop).
 */

export interface CebdPreprocessingLimits {
  /** Fewer periods present of an hour's 12 raise 56. Default 10. */
  minPeriodsPerHour?: number;
  /** A larger share of quality 61/56 in an hour raises 57. Default 0.5. */
  maxLowQualityShare?: number;
  /** Max power (MW) when the traction unit type states none (58). Default 10. */
  defaultMaxPowerMw?: number;
  /** Expected net active energy per record (kWh, consumed - regenerated); outside raises 58. Default: no bound. */
  expectedKwh?: { lower: number; upper: number };
}

export interface CebdPreprocessingOptions {
  /** The procedure run that writes the rows (a uuid), kept in run_id. */
  runId?: string;
  /**
   * Check only these consumption points' records (uuids), e.g. the points of one stored file
   * (cebdFileScope); default every record of the chunk. Their hours are still counted whole.
   */
  consumptionPoints?: string[];
  limits?: CebdPreprocessingLimits;
}

export interface CebdPreprocessingResult {
  /** Records of the chunk checked (their rows written). */
  records: number;
  /** Records placed in a grid area. */
  placed: number;
  /** Records per code (a record may count under several codes; 60 alone). */
  byCode: Record<number, number>;
  /** Records that arrived in more than one file. */
  duplicates: number;
  /**
   * Code 55 per sender: the file's sender (actual) and the exchange organisation the unit's owner
   * is connected to (expected: its name and orgId), with the records (a few pairs, most records first).
   */
  otherDcs: { actual: string; expected: string; expectedOrgId: string | null; records: number }[];
}

export const CEBD_PREPROCESSING_CODES = {
  unknownEms: 54,
  otherDcs: 55,
  missingValues: 56,
  lowQuality: 57,
  outsideLimits: 58,
  outsideArea: 59,
  masterDataMissing: 60,
} as const;

/** Up to this many chosen consumption points are looked up by the point index, more are hashed (ofPoints). */
const FEW_POINTS = 64;

const DEFAULT_LIMITS: Required<CebdPreprocessingLimits> = {
  minPeriodsPerHour: 10,
  maxLowQualityShare: 0.5,
  defaultMaxPowerMw: 10,
  expectedKwh: { lower: -Number.MAX_VALUE, upper: Number.MAX_VALUE },
};

/** Preprocesses the CEBD records whose period ends in (chunk.start, chunk.end], in the context's area. */
export async function preprocessCebd(
  ctx: ServiceContext,
  chunk: { start: string; end: string },
  options: CebdPreprocessingOptions = {},
): Promise<CebdPreprocessingResult> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const tenant = ctx.tenant.uuid;
  const start = new Date(chunk.start).toISOString();
  const end = new Date(chunk.end).toISOString();
  if (!(start < end)) throw new Error(`Empty chunk ${chunk.start} .. ${chunk.end}`);
  const runId = options.runId ?? null;
  const S = sql`${start}::timestamptz`;
  const E = sql`${end}::timestamptz`;
  // The whole UTC hours the chunk's records lie in (56 and 57 count per hour), as constants: a
  // date_trunc in the statement is evaluated per value scanned and hides the range from pruning.
  const HOUR_MS = 3_600_000;
  const firstHour = new Date(Math.floor(Date.parse(start) / HOUR_MS) * HOUR_MS).toISOString();
  const endHour = new Date((Math.floor((Date.parse(end) - 300_000) / HOUR_MS) + 1) * HOUR_MS).toISOString();
  const points = options.consumptionPoints;
  if (points && points.length === 0) return { records: 0, placed: 0, byCode: {}, duplicates: 0, otherDcs: [] };
  /**
   * The chunk's consumption points when the caller chose them. A few as a list (= ANY: an index
   * condition of cebd_record_point_idx, one descent per point); many (a day file's thousands) as a
   * set the chunk's rows are hashed against: as a list on the key (tenant, period_end, point) each
   * of 2,520 points walked the whole day's range (bench/cebd-intake.ts: 170 s instead of ~15 s).
   */
  const ofPoints = (column: SQL) => {
    if (!points) return sql``;
    const list = sql`${sql.param([...points])}::uuid[]`;
    return points.length <= FEW_POINTS
      ? sql`AND ${column} = ANY(${list})`
      : sql`AND ${column} IN (SELECT unnest(${list}))`;
  };
  /**
   * The latitude band of y (1/64 degree, ~1.7 km; x 64 is exact in binary, so the bands keep the
   * order of the latitudes), clamped so that a stray value cannot make an edge span millions.
   */
  const band = (y: SQL) => sql`least(greatest(floor(${y} * 64), -6000), 6000)::int`;
  /**
   * The current segments of `kind` valid at some time of the chunk whose entity is a `ref` of
   * `from` (a small set: one row per entity for a chunk of a day, rarely two), with the references
   * the later sets follow. The records pick theirs by a hash join on the uuid and `valid @> r.t`
   * (segments of one entity never overlap: entity_segment_no_overlap), instead of one index probe
   * per record and kind. The uuids are plain columns of the set before (rw_uuid applied there, see
   * ARCHITECTURE.md "Indexes under RLS"), as a list: an index condition (entity_segment_entity_idx)
   * without a nested loop; no tenant clause (the policy applies).
   */
  const segmentsOf = (kind: string, from: SQL) => sql`
    SELECT s.entity_uuid, s.valid, s.name, s.attributes, (s.active AND s.state <> 'INACTIVE') AS active,
           rw_uuid(s.attributes ->> 'tractionUnitRef') AS unit_ref,
           rw_uuid(s.attributes ->> 'tractionUnitTypeRef') AS type_ref,
           rw_uuid(s.attributes ->> 'owner') AS owner_ref,
           rw_uuid(s.attributes ->> 'exchangeAdminRef') AS exchange_ref
      FROM entity_segment s
     WHERE s.entity_uuid = ANY(ARRAY(${from})) AND s.type = ${kind}
       AND s.superseded_at IS NULL AND s.valid && tstzrange(${S} - interval '5 minutes', ${E})`;
  /**
   * The areas of `kind` that hold each position of `positions` (lon, lat), as rw_point_in_geometry
   * would answer, set-based: the position's candidates are the areas whose bounding box holds it;
   * its horizontal ray is tested against the candidate's edges in the position's band only (an edge
   * can cross the ray only in a band its latitudes span); a polygon holds the position when an odd
   * number of its edges (all rings) are crossed, with the same float8 arithmetic as the function.
   */
  const holding = (kind: string, positions: SQL) => sql`
    SELECT DISTINCT x.lon, x.lat, x.id FROM (
      SELECT c.lon, c.lat, c.id
        FROM (SELECT p.lon, p.lat, a.id, ${band(sql`p.lat`)} AS band
                FROM ${positions} p JOIN areas a
                  ON a.type = ${kind} AND p.lon BETWEEN a.bb[1] AND a.bb[3] AND p.lat BETWEEN a.bb[2] AND a.bb[4]) c
        JOIN edges e ON e.id = c.id AND e.band = c.band
       WHERE (e.y1 > c.lat) <> (e.y2 > c.lat) AND c.lon < (e.x2 - e.x1) * (c.lat - e.y1) / (e.y2 - e.y1) + e.x1
       GROUP BY c.lon, c.lat, c.id, e.poly
      HAVING count(*) % 2 = 1) x`;
  /** The first area (by name) of the held ones valid at the record's time, per record. */
  const firstHolding = (kind: string, held: string) => sql`
    SELECT DISTINCT ON (r.cp, r.t) r.cp, r.t, a.entity_uuid, a.price_ref
      FROM hourly r
      JOIN ${sql.raw(held)} h ON h.lon = r.lon AND h.lat = r.lat
      JOIN areas a ON a.id = h.id AND a.type = ${kind} AND a.valid @> r.t
     ORDER BY r.cp, r.t, a.name, a.entity_uuid`;

  return ctx.db.transaction(async (tx) => {
    // One statement per chunk: compiling its few hundred expressions cost more than JIT saved
    // (as in combine); the sorts and hashes of a day's records fit in memory.
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    // Every join below is of sets (records, the chunk's segments, positions, edges): hash joins. The
    // planner cannot count the rows of the edges' set-returning functions or of a CTE's filter (it
    // took 360 records for 72,000) and chose nested loops that ran for minutes.
    await tx.execute(sql`SET LOCAL enable_nestloop = off`);
    const statement = sql`
      WITH vals AS (
        -- Every record of every hour the chunk touches (whole hours: 56 and 57 count per hour), one
        -- range scan of the key (tenant, period_end) per month partition.
        SELECT r.consumption_point_uuid AS cp, r.period_end - interval '5 minutes' AS t, r.period_end,
               r.active_consumed AS ac, r.active_regenerated AS ar, r.reactive_consumed AS rc,
               r.reactive_regenerated AS rr, r.quality, r.lat, r.lon, r.data_log_id, r.duplicate
          FROM cebd_record r
         WHERE r.tenant = ${tenant}::uuid
           AND r.period_end > ${firstHour}::timestamptz AND r.period_end <= ${endHour}::timestamptz
           ${ofPoints(sql`r.consumption_point_uuid`)}
      ), counts AS (
        -- The counts of each consumption point's hour (a few per point and hour: hashed, no sort).
        SELECT v.cp, date_trunc('hour', v.t, 'UTC') AS hour,
               count(*) FILTER (WHERE v.quality <> 46) AS present,
               count(*) FILTER (WHERE v.quality IN (61, 56)) AS low,
               count(*) AS received
          FROM vals v GROUP BY 1, 2
      ), hourly AS (
        -- Each record with the counts of its hour.
        SELECT v.*, c.present, c.low, c.received
          FROM vals v
          JOIN counts c ON c.cp = v.cp AND c.hour = date_trunc('hour', v.t, 'UTC')
      ), ems AS MATERIALIZED (
        SELECT s.name, s.valid FROM entity_segment s
         WHERE s.tenant = ${tenant}::uuid AND s.type = 'emstype' AND s.superseded_at IS NULL
           AND s.active AND s.state <> 'INACTIVE' AND s.valid && tstzrange(${S} - interval '5 minutes', ${E})
      ), cps AS MATERIALIZED (${segmentsOf('consumptionpoint', sql`SELECT DISTINCT v.cp FROM vals v`)}
      ), cp_ems AS MATERIALIZED (
        -- When each consumption point segment's EMS type is known (its emsType names an EMS type
        -- valid then), as one multirange per segment: a hash join per record instead of a lookup.
        SELECT c.entity_uuid, c.valid AS cp_valid, range_agg(c.valid * e.valid) AS known
          FROM cps c JOIN ems e ON lower(e.name) = lower(c.attributes ->> 'emsType') AND c.valid && e.valid
         GROUP BY c.entity_uuid, c.valid
      ), units AS MATERIALIZED (${segmentsOf('tractionunit', sql`SELECT c.unit_ref FROM cps c`)}
      ), types AS MATERIALIZED (${segmentsOf('tractionunittype', sql`SELECT u.type_ref FROM units u`)}
      ), owners AS MATERIALIZED (${segmentsOf('organisation', sql`SELECT u.owner_ref FROM units u`)}
      ), exchanges AS MATERIALIZED (${segmentsOf('organisation', sql`SELECT o.exchange_ref FROM owners o`)}
      ), areas AS MATERIALIZED (
        SELECT row_number() OVER () AS id, s.entity_uuid, s.type, s.name, s.valid, s.attributes -> 'geometry' AS geom,
               rw_geometry_bbox(s.attributes -> 'geometry') AS bb, rw_uuid(s.attributes ->> 'priceAreaRef') AS price_ref
          FROM entity_segment s
         WHERE s.tenant = ${tenant}::uuid AND s.type IN ('gridarea', 'pricearea')
           AND s.superseded_at IS NULL AND s.valid && tstzrange(${S} - interval '5 minutes', ${E})
           AND jsonb_typeof(s.attributes -> 'geometry') = 'object'
      ), edges AS MATERIALIZED (
        -- Every edge of the areas' polygons as rw_point_in_geometry walks them (vertex k and the one
        -- before it, the last for k = 0; e.poly numbers the polygons of a MultiPolygon), once per
        -- latitude band it spans. Horizontal edges never cross a ray and are left out.
        SELECT a.id, p.i AS poly, v.x1, v.y1, v.x2, v.y2, b.band
          FROM areas a
         CROSS JOIN LATERAL (SELECT CASE a.geom ->> 'type' WHEN 'Polygon' THEN jsonb_build_array(a.geom -> 'coordinates')
                                                           WHEN 'MultiPolygon' THEN a.geom -> 'coordinates' END AS polygons) g
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(g.polygons) = 'array' THEN g.polygons
                                                      ELSE '[]'::jsonb END) WITH ORDINALITY AS p(rings, i)
         CROSS JOIN LATERAL jsonb_array_elements(p.rings) AS r(ring)
         CROSS JOIN LATERAL (SELECT jsonb_array_length(r.ring) AS n) l
         CROSS JOIN LATERAL generate_series(0, l.n - 1) AS k
         CROSS JOIN LATERAL (SELECT (r.ring -> k ->> 0)::float8 AS x1, (r.ring -> k ->> 1)::float8 AS y1,
                                    (r.ring -> (CASE WHEN k = 0 THEN l.n - 1 ELSE k - 1 END) ->> 0)::float8 AS x2,
                                    (r.ring -> (CASE WHEN k = 0 THEN l.n - 1 ELSE k - 1 END) ->> 1)::float8 AS y2) v
         CROSS JOIN LATERAL generate_series(${band(sql`least(v.y1, v.y2)`)}, ${band(sql`greatest(v.y1, v.y2)`)}) AS b(band)
         WHERE v.y1 <> v.y2
      ), positions AS MATERIALIZED (
        -- Each position once: a unit standing still or stabled sends the same one many times.
        SELECT DISTINCT r.lon, r.lat FROM hourly r WHERE r.lon IS NOT NULL AND r.lat IS NOT NULL
      ), grid_held AS MATERIALIZED (${holding('gridarea', sql`positions`)}
      ), holders AS MATERIALIZED (
        -- Each position's grid area versions that hold it, and how many: one (the rule) places every
        -- record there by its position alone, valid at the record's time.
        SELECT h.lon, h.lat, a.entity_uuid, a.price_ref, a.valid, a.name, count(*) OVER (PARTITION BY h.lon, h.lat) AS n
          FROM grid_held h JOIN areas a ON a.id = h.id AND a.type = 'gridarea'
      ), placed_shared AS MATERIALIZED (
        -- A position held by several (a border, an area redrawn within the chunk): per record, the
        -- first by name of those valid at its time.
        SELECT DISTINCT ON (r.cp, r.t) r.cp, r.t, s.entity_uuid, s.price_ref
          FROM hourly r JOIN holders s ON s.lon = r.lon AND s.lat = r.lat AND s.n > 1 AND s.valid @> r.t
         ORDER BY r.cp, r.t, s.name, s.entity_uuid
      ), price_positions AS MATERIALIZED (
        -- Tested against the price areas: every position but those one grid area version with
        -- priceAreaRef holds over all the hours read (their records always take its price area).
        SELECT p.lon, p.lat FROM positions p
         WHERE NOT EXISTS (SELECT 1 FROM holders s
                            WHERE s.lon = p.lon AND s.lat = p.lat AND s.n = 1 AND s.price_ref IS NOT NULL
                              AND s.valid @> tstzrange(${firstHour}::timestamptz, ${endHour}::timestamptz))
      ), price_held AS MATERIALIZED (${holding('pricearea', sql`price_positions`)}
      ), priced AS MATERIALIZED (${firstHolding('pricearea', 'price_held')}
      ), judged AS (
        -- Each record's decision computed here (OFFSET 0 keeps the subquery whole): inlined into the
        -- UPDATE, its expressions were evaluated after the UPDATE's hash join, which then hashed every
        -- record with the unit's, type's and organisations' attributes (1.3 kB a row, spilled to
        -- disk: EXPLAIN ANALYZE of a day file, bench/cebd-intake.ts).
        SELECT * FROM (
        SELECT r.*, u.entity_uuid AS unit, coalesce(g.entity_uuid, gs.entity_uuid) AS grid,
               coalesce(g.price_ref, gs.price_ref, pa.entity_uuid) AS price,
               (c.entity_uuid IS NULL OR NOT c.active OR u.entity_uuid IS NULL OR NOT u.active) AS c60,
               (nullif(c.attributes ->> 'emsType', '') IS NULL OR NOT coalesce(ce.known @> r.t, false)) AS c54,
               (d.sender IS NOT NULL AND x.entity_uuid IS NOT NULL
                 AND lower(d.sender) NOT IN (lower(x.name), lower(coalesce(x.attributes ->> 'orgId', '')))) AS c55,
               (r.present < ${limits.minPeriodsPerHour}::int) AS c56,
               (r.low::float8 / r.received > ${limits.maxLowQualityShare}::float8) AS c57,
               (least(r.ac, r.ar, r.rc, r.rr) < 0
                 OR greatest(r.ac, r.ar, r.rc, r.rr) > coalesce((ty.attributes ->> 'maxPower')::numeric,
                      ${limits.defaultMaxPowerMw}::numeric) * 1000 * 5 / 60
                 OR coalesce(r.ac, 0) - coalesce(r.ar, 0) < ${limits.expectedKwh.lower}::float8
                 OR coalesce(r.ac, 0) - coalesce(r.ar, 0) > ${limits.expectedKwh.upper}::float8) AS c58,
               (NOT coalesce(ty.attributes -> 'positionValidationRules' ? 'NONE', false)
                 AND (r.lat IS NULL OR r.lon IS NULL OR coalesce(g.entity_uuid, gs.entity_uuid) IS NULL)) AS c59
          FROM hourly r
          LEFT JOIN cps c ON c.entity_uuid = r.cp AND c.valid @> r.t
          LEFT JOIN cp_ems ce ON ce.entity_uuid = c.entity_uuid AND ce.cp_valid = c.valid
          LEFT JOIN units u ON u.entity_uuid = c.unit_ref AND u.valid @> r.t
          LEFT JOIN types ty ON ty.entity_uuid = u.type_ref AND ty.valid @> r.t
          LEFT JOIN owners o ON o.entity_uuid = u.owner_ref AND o.valid @> r.t
          LEFT JOIN exchanges x ON x.entity_uuid = o.exchange_ref AND x.valid @> r.t
          LEFT JOIN data_log d ON d.id = r.data_log_id
          LEFT JOIN holders g ON g.lon = r.lon AND g.lat = r.lat AND g.n = 1 AND g.valid @> r.t
          LEFT JOIN placed_shared gs ON gs.cp = r.cp AND gs.t = r.t
          LEFT JOIN priced pa ON pa.cp = r.cp AND pa.t = r.t
         WHERE r.period_end > ${S} AND r.period_end <= ${E}
        OFFSET 0) f
      ), written AS (
        UPDATE cebd_record w
           SET traction_unit_uuid = j.unit, grid_area_uuid = j.grid, price_area_uuid = j.price,
               codes = CASE WHEN j.c60 THEN ARRAY[60]::smallint[]
                            ELSE array_remove(ARRAY[CASE WHEN j.c54 THEN 54 END, CASE WHEN j.c55 THEN 55 END,
                                                    CASE WHEN j.c56 THEN 56 END, CASE WHEN j.c57 THEN 57 END,
                                                    CASE WHEN j.c58 THEN 58 END, CASE WHEN j.c59 THEN 59 END]::smallint[], NULL) END,
               checked_at = now(), run_id = ${runId}::uuid
          FROM judged j
         WHERE w.tenant = ${tenant}::uuid AND w.period_end = j.period_end AND w.consumption_point_uuid = j.cp
           AND w.period_end > ${S} AND w.period_end <= ${E}
        RETURNING w.codes, w.grid_area_uuid, w.duplicate
      )
      SELECT count(*) AS records, count(grid_area_uuid) AS placed, count(*) FILTER (WHERE duplicate) AS duplicates,
             -- The codes found, each with its count (one pass; codes never found are left out).
             jsonb_strip_nulls(jsonb_build_object(${sql.join(
               Object.values(CEBD_PREPROCESSING_CODES).map(
                 (code) =>
                   sql`${String(code)}::text, nullif(count(*) FILTER (WHERE ${code}::smallint = ANY(codes)), 0)`,
               ),
               sql`, `,
             )})) AS by_code
        FROM written`;
    const [row] = await rows<{
      records: string | number;
      placed: string | number;
      duplicates: string | number;
      by_code: Record<string, string | number> | string | null;
    }>(tx, statement);
    const byCodeRaw = jsonColumn(row?.by_code, {});
    const byCode: Record<number, number> = {};
    for (const [code, n] of Object.entries(byCodeRaw as Record<string, string | number>))
      byCode[Number(code)] = Number(n);
    // Who sent the records of code 55 and who was expected (issue 18 item 5): read only when found.
    const otherDcs =
      (byCode[CEBD_PREPROCESSING_CODES.otherDcs] ?? 0) === 0
        ? []
        : await rows<{ actual: string; expected: string; expectedOrgId: string | null; records: number }>(
            tx,
            sql`SELECT d.sender AS actual, x.name AS expected, x.attributes ->> 'orgId' AS "expectedOrgId",
                       count(*)::int AS records
                  FROM cebd_record c
                  JOIN data_log d ON d.id = c.data_log_id
                  JOIN entity_latest u ON u.entity_uuid = c.traction_unit_uuid
                  JOIN entity_latest o ON o.entity_uuid = rw_uuid(u.attributes ->> 'owner')
                  JOIN entity_latest x ON x.entity_uuid = rw_uuid(o.attributes ->> 'exchangeAdminRef')
                 WHERE c.tenant = ${tenant}::uuid AND c.period_end > ${S} AND c.period_end <= ${E}
                   ${ofPoints(sql`c.consumption_point_uuid`)}
                   AND ${CEBD_PREPROCESSING_CODES.otherDcs}::smallint = ANY(c.codes)
                 GROUP BY 1, 2, 3
                 ORDER BY 4 DESC, 1, 2
                 LIMIT 3`,
          );
    return {
      records: Number(row?.records ?? 0),
      placed: Number(row?.placed ?? 0),
      byCode,
      duplicates: Number(row?.duplicates ?? 0),
      otherDcs,
    };
  });
}

/**
 * What one stored CEBD file covers, to check it on arrival (`preprocessCebd(ctx, { start, end },
 * { consumptionPoints })`): the consumption points of its records and the span (start, end] of their
 * period ends (start is the first record's period start). Only the records whose current values
 * came from this file are found (cebd_record.data_log_id, cebd_record_file_idx): a record the
 * file sent again with equal values keeps its first file and was checked with it. Null when the
 * file holds no current record.
 */
export async function cebdFileScope(
  ctx: ServiceContext,
  dataLogId: number,
): Promise<{ consumptionPoints: string[]; start: string; end: string } | null> {
  const [found] = await rows<{ points: string[] | string | null; first: string | null; last: string | null }>(
    ctx.db,
    sql`SELECT jsonb_agg(DISTINCT consumption_point_uuid) AS points,
               rw_iso(min(period_end) - interval '5 minutes') AS first, rw_iso(max(period_end)) AS last
          FROM cebd_record
         WHERE tenant = ${ctx.tenant.uuid}::uuid AND data_log_id = ${dataLogId}::bigint`,
  );
  const points = jsonColumn<string[]>(found?.points, []);
  if (!found?.first || !found.last || points.length === 0) return null;
  return { consumptionPoints: points, start: found.first, end: found.last };
}
