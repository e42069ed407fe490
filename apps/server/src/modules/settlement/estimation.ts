import type { EstimationMethod, ProcessEventCode, Severity } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows, segmentValidAt } from '../domain/sql.js';
import { parameterAt } from '../parameter-overview/service.js';
import { LATER_DUPLICATE } from '../processing/train-preprocessing.js';

/**
 * The estimation of non-metered runs (DOMAIN.md "Processing" step 5, issue 10 item 1) for one chunk
 * (an area day): energy = consumption factor (kWh per gross tonne-km) x gross tonne-km, spread over
 * the run's hours and grid areas, written to `estimated_energy` set-based (one statement per chunk).
 * Three methods, each a procedure (log only: the chain runs reported-train-consumption when
 * train-preprocessing succeeds, then the method train-preprocessing's configuration names in
 * estimationMethod, if another; modules/processing/chain.ts):
 *
 * - reported-train-consumption: the run's reported gross tonne-km; the energy shared equally between
 *   the distinct grid areas of the route's places, and over the hours by the minutes run in each.
 *   A place names a reported train metering point (a station, with its gridAreaRef) or a grid area
 *   (case-insensitive); places that name neither are passed over; none found: 'track-unknown' (HIGH:
 *   the run has no estimate).
 * - reported-train-consumption-with-track: the same energy, spread along the track. Consecutive
 *   places with a location (reported train metering points and payload points) are the legs; a leg
 *   is as long as the great circle between its ends (rw_km), times the track's own length over the
 *   great circle between the track's ends when both places lie on the same track (lengthKm,
 *   fromLocation, toLocation: the track's bends). Each leg is sampled at SAMPLES_PER_LEG points, each
 *   placed in the grid area whose geometry holds it, at the time the run passes it at an even speed;
 *   each placed sample carries its share of the route's length. So a run from Oslo to Bergen puts its
 *   energy in the grid areas it crosses, in the hour it crosses them, in proportion to the distance.
 * - payload-with-trainprofile: the gross tonne-km from the composition itself: the vehicles' gross
 *   weights (train_run_vehicle, the payload included) x the route's length along the track (as
 *   above), at the train profile's factor only (its parameter for the month, or its own factor);
 *   spread along the track as with-track. Runs without a train profile are not this method's.
 *
 * A run has the rows of one method at a time: a method replaces a run's rows when it can estimate
 * the run (a factor and, along the track, at least one placed sample); a run it cannot estimate keeps
 * what it has (the estimate by stations the chain made first) and the method reports why (LOW for the
 * two refinements: the run is still estimated). Rows of runs no longer current or no longer
 * non-metered are removed by whichever method runs next; a method's own rows of runs it can no
 * longer estimate are removed by it.
 *
 * Shared readings:
 * - Non-metered: no vehicle of the composition is a traction unit (its stored unit, or the fleet's
 *   unit of that EVN) with a consumption point. A metered unit that sent nothing is combine's
 *   'no-metered-data-received', not an estimate: its data may still come.
 * - The factor, the first found: the train profile's parameter for the month of the departure
 *   (parameter overview, consumption_factor_trainprofile: what calculate-consumption-factor derives
 *   or the user sets), the train profile's own consumptionFactor, the traffic category's parameter
 *   (consumption_factor_trafficcategory), the traffic category's own factor (payload-with-
 *   trainprofile: the first two only). None: event 'consumption-factor-missing', no estimate.
 * - Master data as it was when the run left: the version (current segment) valid at its departure
 *   of each grid area (geometry, priceAreaRef), station, payload point, track, train profile and
 *   traffic category, so a grid area redrawn or a factor changed later does not move or reprice the
 *   runs before the change. Each grid area lies in one price area (its priceAreaRef).
 * - Time: the hours may reach into the next day. A chunk handles the runs of its operating day,
 *   whichever hours they fall in.
 * - Later duplicates (train-preprocessing's rule) and deleted or superseded versions are not estimated.
 */

/** A 'lat,lon' attribute (product.md §5 "location"). */
const LOCATION_PATTERN = String.raw`^\s*-?[0-9]+(\.[0-9]+)?\s*,\s*-?[0-9]+(\.[0-9]+)?\s*$`;
const isLocation = (text: SQL) => sql`(${text} ~ ${LOCATION_PATTERN})`;
/** The latitude or longitude of a 'lat,lon' text, NULL when the text is not one. */
const coordinate = (text: SQL, part: 'lat' | 'lon') =>
  sql`(CASE WHEN ${isLocation(text)} THEN trim(split_part(${text}, ',', ${sql.raw(part === 'lat' ? '1' : '2')}))::float8 END)`;

/** Points per leg placed in grid areas: a 100 km leg is placed every 5 km. */
export const SAMPLES_PER_LEG = 20;

export const ESTIMATION_CODES = [
  'consumption-factor-missing',
  'track-unknown',
] as const satisfies readonly ProcessEventCode[];
export type EstimationCode = (typeof ESTIMATION_CODES)[number];
/** HIGH where the run is left without an estimate; LOW where it keeps the estimate it had. */
export const estimationSeverity = (method: EstimationMethod): Record<EstimationCode, Severity> =>
  method === 'reported-train-consumption'
    ? { 'consumption-factor-missing': 'HIGH', 'track-unknown': 'HIGH' }
    : { 'consumption-factor-missing': 'LOW', 'track-unknown': 'LOW' };

export interface EstimationResult {
  /** Runs of the day this method considered, and of those estimated. */
  runs: number;
  estimated: number;
  /** kWh estimated in all. */
  energy: number;
  events: Record<EstimationCode, { incidents: number; examples: string[] }>;
}

export async function estimateNonMeteredRuns(
  ctx: ServiceContext,
  day: string,
  options: { procedureResultId?: number; method?: EstimationMethod },
): Promise<EstimationResult> {
  const method = options.method ?? 'reported-train-consumption';
  const tenant = ctx.tenant.uuid;
  const T = sql`${tenant}::uuid`;
  const D = sql`${day}::date`;
  const M = sql`${method}::text`;
  const resultId = sql`${options.procedureResultId ?? null}::bigint`;
  const payload = method === 'payload-with-trainprofile';

  // The factor, the first found (payload-with-trainprofile: the train profile's only).
  const factors = payload
    ? sql`(1, ${parameterAt('consumption_factor_trainprofile', sql`r.train_profile_uuid`, sql`r.departure`)}, 'trainprofile-parameter'),
          (2, (tp.attributes ->> 'consumptionFactor')::numeric, 'trainprofile')`
    : sql`(1, ${parameterAt('consumption_factor_trainprofile', sql`r.train_profile_uuid`, sql`r.departure`)}, 'trainprofile-parameter'),
          (2, (tp.attributes ->> 'consumptionFactor')::numeric, 'trainprofile'),
          (3, ${parameterAt('consumption_factor_trafficcategory', sql`r.traffic_category_uuid`, sql`r.departure`)}, 'trafficcategory-parameter'),
          (4, (tc.attributes ->> 'consumptionFactor')::numeric, 'trafficcategory')`;
  // Which of the day's non-metered runs this method considers.
  const considered = payload ? sql`r.train_profile_uuid IS NOT NULL` : sql`true`;

  // Each run's share per hour, grid area and price area (weights summing to 1 per run), and the
  // route's length along the track (NULL for the stations' method).
  const distribution =
    method === 'reported-train-consumption'
      ? sql`track AS MATERIALIZED (
              SELECT DISTINCT u.id, g.entity_uuid AS grid, rw_uuid(g.attributes ->> 'priceAreaRef') AS price_area
                FROM runs u
                CROSS JOIN LATERAL unnest(u.route) AS place(name)
                JOIN entity_segment p ON p.tenant = ${T} AND p.type IN ('reportedtrainmeteringpoint', 'gridarea')
                 AND ${segmentValidAt('p', sql`u.departure`)} AND lower(p.name) = lower(place.name)
                JOIN entity_segment g ON g.tenant = ${T} AND g.type = 'gridarea' AND ${segmentValidAt('g', sql`u.departure`)}
                 AND g.entity_uuid = CASE WHEN p.type = 'gridarea' THEN p.entity_uuid ELSE rw_uuid(p.attributes ->> 'gridAreaRef') END
               WHERE g.attributes ->> 'priceAreaRef' IS NOT NULL
            ), hours AS (
              SELECT u.id, h AS hour,
                     extract(epoch FROM least(u.arrival, h + interval '1 hour') - greatest(u.departure, h))
                       / extract(epoch FROM u.arrival - u.departure) AS fraction
                FROM runs u
                CROSS JOIN LATERAL generate_series(date_trunc('hour', u.departure, 'UTC'),
                                                   u.arrival - interval '1 microsecond', interval '1 hour') AS h
            ), dist AS (
              SELECT t.id, h.hour, t.grid, t.price_area,
                     h.fraction / count(*) OVER (PARTITION BY t.id, h.hour) AS weight, NULL::numeric AS route_km
                FROM track t JOIN hours h ON h.id = t.id
            )`
      : sql`places AS (
              -- The route's places with a location, in order: stations and payload points.
              SELECT u.id, u.departure, place.ord, s.lat, s.lon, s.track
                FROM runs u
                CROSS JOIN LATERAL unnest(u.route) WITH ORDINALITY AS place(name, ord)
                CROSS JOIN LATERAL (
                  SELECT ${coordinate(sql`p.attributes ->> 'location'`, 'lat')} AS lat,
                         ${coordinate(sql`p.attributes ->> 'location'`, 'lon')} AS lon,
                         rw_uuid(p.attributes ->> 'trackRef') AS track
                    FROM entity_segment p
                   WHERE p.tenant = ${T} AND p.type IN ('reportedtrainmeteringpoint', 'payloadpoint')
                     AND ${segmentValidAt('p', sql`u.departure`)} AND lower(p.name) = lower(place.name)
                     AND ${isLocation(sql`p.attributes ->> 'location'`)}
                   ORDER BY p.type DESC, p.entity_uuid LIMIT 1) s
            ), legs AS (
              SELECT id, departure, ord, lat AS lat2, lon AS lon2, track AS track2,
                     lag(lat) OVER w AS lat1, lag(lon) OVER w AS lon1, lag(track) OVER w AS track1
                FROM places WINDOW w AS (PARTITION BY id ORDER BY ord)
            ), legs_km AS (
              -- A leg on one track with the track's length and ends: the great circle times the
              -- track's length over the great circle between its ends (never shorter than straight).
              SELECT l.id, l.departure, l.ord, l.lat1, l.lon1, l.lat2, l.lon2,
                     rw_km(l.lat1, l.lon1, l.lat2, l.lon2) * coalesce(greatest(1, (
                       SELECT (t.attributes ->> 'lengthKm')::float8
                              / nullif(rw_km(${coordinate(sql`t.attributes ->> 'fromLocation'`, 'lat')},
                                             ${coordinate(sql`t.attributes ->> 'fromLocation'`, 'lon')},
                                             ${coordinate(sql`t.attributes ->> 'toLocation'`, 'lat')},
                                             ${coordinate(sql`t.attributes ->> 'toLocation'`, 'lon')}), 0)
                         FROM entity_segment t
                        WHERE t.tenant = ${T} AND t.type = 'track' AND t.entity_uuid = l.track1 AND l.track2 = l.track1
                          AND ${segmentValidAt('t', sql`l.departure`)}
                          AND t.attributes ->> 'lengthKm' IS NOT NULL)), 1) AS km
                FROM legs l
               WHERE l.lat1 IS NOT NULL AND (l.lat1, l.lon1) IS DISTINCT FROM (l.lat2, l.lon2)
            ), cum AS (
              SELECT k.*, sum(k.km) OVER (PARTITION BY k.id ORDER BY k.ord) - k.km AS before,
                     sum(k.km) OVER (PARTITION BY k.id) AS total
                FROM legs_km k
            ), areas AS MATERIALIZED (
              -- Every version of the grid areas valid at some run's departure; a sample picks the one of its run.
              SELECT a.entity_uuid AS grid, rw_uuid(a.attributes ->> 'priceAreaRef') AS price_area, a.valid,
                     a.attributes -> 'geometry' AS geom, rw_geometry_bbox(a.attributes -> 'geometry') AS bb
                FROM entity_segment a
               WHERE a.tenant = ${T} AND a.type = 'gridarea' AND a.superseded_at IS NULL
                 AND a.valid && (SELECT tstzrange(min(u.departure), max(u.departure), '[]') FROM runs u)
                 AND jsonb_typeof(a.attributes -> 'geometry') = 'object' AND a.attributes ->> 'priceAreaRef' IS NOT NULL
            ), placed AS (
              -- Each sample (the middle of one of SAMPLES_PER_LEG equal parts of a leg) in its grid area.
              SELECT c.id, (c.before + c.km * f.f) / c.total AS along, c.km / ${SAMPLES_PER_LEG} AS km, a.grid, a.price_area
                FROM cum c
                CROSS JOIN LATERAL (SELECT (i + 0.5) / ${SAMPLES_PER_LEG}::float8 AS f
                                      FROM generate_series(0, ${SAMPLES_PER_LEG - 1}) AS i) f
                CROSS JOIN LATERAL (
                  SELECT a.grid, a.price_area FROM areas a
                   WHERE a.valid @> c.departure
                     AND c.lon1 + (c.lon2 - c.lon1) * f.f BETWEEN a.bb[1] AND a.bb[3]
                     AND c.lat1 + (c.lat2 - c.lat1) * f.f BETWEEN a.bb[2] AND a.bb[4]
                     AND rw_point_in_geometry(a.geom, c.lon1 + (c.lon2 - c.lon1) * f.f, c.lat1 + (c.lat2 - c.lat1) * f.f)
                   ORDER BY a.grid LIMIT 1) a
               WHERE c.total > 0
            ), route AS (
              SELECT id, max(total) AS km FROM cum GROUP BY id
            ), dist AS (
              -- The hour the run passes each sample at an even speed; the weights renormalised over
              -- the placed samples.
              SELECT p.id, date_trunc('hour', u.departure + (u.arrival - u.departure) * p.along, 'UTC') AS hour,
                     p.grid, p.price_area, sum(p.km) / sum(sum(p.km)) OVER (PARTITION BY p.id) AS weight,
                     max(r.km)::numeric AS route_km
                FROM placed p JOIN runs u ON u.id = p.id JOIN route r ON r.id = p.id
               GROUP BY p.id, 2, p.grid, p.price_area
            )`;
  const gtkm = payload ? sql`(u.tonnes * d.route_km)` : sql`u.gross_tonne_km`;

  const [summary] = await rows<{
    runs: number;
    estimated: number;
    energy: string | null;
    no_factor: number;
    no_factor_examples: string[] | null;
    no_track: number;
    no_track_examples: string[] | null;
  }>(
    ctx.db,
    sql`WITH candidates AS MATERIALIZED (
          -- The day's current non-metered runs: no vehicle is a traction unit with a consumption point.
          SELECT r.* FROM train_run r
           WHERE r.tenant = ${T} AND r.operating_day = ${D} AND r.superseded_at IS NULL AND NOT r.deleted
             AND r.departure IS NOT NULL AND r.arrival > r.departure
             AND NOT ${LATER_DUPLICATE(sql`r`)}
             AND NOT EXISTS (
               SELECT 1 FROM train_run_vehicle v
                 JOIN entity_latest cp ON cp.tenant = v.tenant AND cp.type = 'consumptionpoint'
                  AND cp.unit_ref = coalesce(v.traction_unit_uuid::text, (
                        SELECT l.entity_uuid::text FROM entity_latest l
                         WHERE l.tenant = v.tenant AND l.type = 'tractionunit' AND l.evn = v.evn LIMIT 1))
                WHERE v.train_run_id = r.id AND v.tenant = r.tenant)
        ), runs AS MATERIALIZED (
          SELECT r.id, r.train_number, r.ru_uuid, r.departure, r.arrival, r.gross_tonne_km, r.route,
                 (SELECT sum(v.gross_weight) FROM train_run_vehicle v WHERE v.train_run_id = r.id AND v.tenant = r.tenant) AS tonnes,
                 f.factor, f.source AS factor_source
            FROM candidates r
            LEFT JOIN entity_segment tp ON tp.entity_uuid = r.train_profile_uuid AND ${segmentValidAt('tp', sql`r.departure`)}
            LEFT JOIN entity_segment tc ON tc.entity_uuid = r.traffic_category_uuid AND ${segmentValidAt('tc', sql`r.departure`)}
            LEFT JOIN LATERAL (
              SELECT x.factor, x.source FROM (VALUES ${factors}) AS x(rank, factor, source)
               WHERE x.factor IS NOT NULL ORDER BY x.rank LIMIT 1
            ) f ON true
           WHERE ${considered}
        ), ${distribution}, estimated AS MATERIALIZED (
          SELECT u.id, d.hour, d.grid, d.price_area, u.ru_uuid, u.factor, u.factor_source, ${gtkm} AS gtkm,
                 u.factor * ${gtkm} * d.weight AS energy
            FROM runs u JOIN dist d ON d.id = u.id
           WHERE u.factor IS NOT NULL
        ), cleared AS (
          -- The day's rows of this method, of runs re-estimated now, and of runs no longer current or
          -- non-metered; those written again below are updated in place instead.
          DELETE FROM estimated_energy x
           WHERE x.tenant = ${T} AND x.operating_day = ${D}
             AND (x.method = ${M} OR x.train_run_id IN (SELECT id FROM estimated)
                  OR x.train_run_id NOT IN (SELECT id FROM candidates))
             AND NOT EXISTS (SELECT 1 FROM estimated e
                              WHERE e.id = x.train_run_id AND e.hour = x.hour_start AND e.grid = x.grid_area_uuid)
        ), written AS (
          INSERT INTO estimated_energy (tenant, train_run_id, operating_day, hour_start, grid_area_uuid, price_area_uuid,
                                        organisation_uuid, energy_kwh, factor, factor_source, procedure_result_id,
                                        method, gross_tonne_km)
          SELECT ${T}, e.id, ${D}, e.hour, e.grid, e.price_area, e.ru_uuid, e.energy, e.factor, e.factor_source,
                 ${resultId}, ${M}, e.gtkm
            FROM estimated e
          ON CONFLICT ON CONSTRAINT estimated_energy_key DO UPDATE
             SET operating_day = excluded.operating_day, price_area_uuid = excluded.price_area_uuid,
                 organisation_uuid = excluded.organisation_uuid, energy_kwh = excluded.energy_kwh,
                 factor = excluded.factor, factor_source = excluded.factor_source,
                 procedure_result_id = excluded.procedure_result_id, method = excluded.method,
                 gross_tonne_km = excluded.gross_tonne_km, estimated_at = now()
          RETURNING train_run_id, energy_kwh
        )
        SELECT (SELECT count(*) FROM runs)::int AS runs,
               (SELECT count(DISTINCT train_run_id) FROM written)::int AS estimated,
               (SELECT sum(energy_kwh) FROM written)::text AS energy,
               (SELECT count(*) FROM runs WHERE factor IS NULL)::int AS no_factor,
               (SELECT (array_agg(train_number ORDER BY train_number))[1:3] FROM runs WHERE factor IS NULL) AS no_factor_examples,
               (SELECT count(*) FROM runs u WHERE factor IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dist d WHERE d.id = u.id))::int AS no_track,
               (SELECT (array_agg(train_number ORDER BY train_number))[1:3] FROM runs u
                 WHERE factor IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dist d WHERE d.id = u.id)) AS no_track_examples`,
  );
  return {
    runs: summary?.runs ?? 0,
    estimated: summary?.estimated ?? 0,
    energy: Number(summary?.energy ?? 0),
    events: {
      'consumption-factor-missing': {
        incidents: summary?.no_factor ?? 0,
        examples: summary?.no_factor_examples ?? [],
      },
      'track-unknown': { incidents: summary?.no_track ?? 0, examples: summary?.no_track_examples ?? [] },
    },
  };
}
