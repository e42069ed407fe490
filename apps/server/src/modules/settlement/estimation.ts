import type { ProcessEventCode, Severity } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { parameterAt } from '../parameter-overview/service.js';
import { LATER_DUPLICATE } from '../processing/train-preprocessing.js';

/**
 * reported-train-consumption (DOMAIN.md "Processing" step 5, issue 10 item 1) for one chunk (an area
 * day): every current train run of the operating day without a metered traction unit gets an
 * estimate, energy = consumption factor (kWh per gross tonne-km) x the run's gross tonne-km, written
 * to `estimated_energy` set-based (one DELETE and one INSERT ... SELECT per chunk).
 *
 * Readings (commented because the spec leaves them open):
 * - Non-metered: no vehicle of the composition is a traction unit (its stored unit, or the fleet's
 *   unit of that EVN) with a consumption point. A metered unit that sent nothing is combine's
 *   'no-metered-data-received', not an estimate: its data may still come.
 * - The factor, the first found: the train profile's parameter for the month of the departure
 *   (parameter overview, consumption_factor_trainprofile: what calculate-consumption-factor derives
 *   or the user sets), the train profile's own consumptionFactor, the traffic category's parameter
 *   (consumption_factor_trafficcategory), the traffic category's own factor. None: event
 *   'consumption-factor-missing', no estimate.
 * - The track: the grid areas of the route's places. A place names a reported train metering point
 *   (a station, administration kind reportedtrainmeteringpoint, with its gridAreaRef) or a grid area
 *   (case-insensitive). The energy is shared equally between the distinct grid areas found ("spread
 *   over ... the price areas its track crosses": each grid area lies in one price area). Places that
 *   name neither are passed over; none found: event 'track-unknown', no estimate.
 * - Time: spread over the run's hours in proportion to the minutes it ran in each (departure to
 *   arrival); the hours may reach into the next day. A chunk replaces the rows of the runs of its
 *   operating day, whichever hours they fall in.
 * - Later duplicates (train-preprocessing's rule) and deleted or superseded versions are not estimated.
 */

export const ESTIMATION_CODES = [
  'consumption-factor-missing',
  'track-unknown',
] as const satisfies readonly ProcessEventCode[];
export type EstimationCode = (typeof ESTIMATION_CODES)[number];
export const ESTIMATION_SEVERITY: Record<EstimationCode, Severity> = {
  'consumption-factor-missing': 'HIGH',
  'track-unknown': 'HIGH',
};

export interface EstimationResult {
  /** Non-metered runs of the day, and of those estimated. */
  runs: number;
  estimated: number;
  /** kWh estimated in all. */
  energy: number;
  events: Record<EstimationCode, { incidents: number; examples: string[] }>;
}

export async function estimateNonMeteredRuns(
  ctx: ServiceContext,
  day: string,
  options: { procedureResultId?: number },
): Promise<EstimationResult> {
  const tenant = ctx.tenant.uuid;
  const D = sql`${day}::date`;
  const resultId = sql`${options.procedureResultId ?? null}::bigint`;
  await ctx.db.execute(sql`DELETE FROM estimated_energy WHERE tenant = ${tenant}::uuid AND operating_day = ${D}`);
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
    sql`WITH runs AS MATERIALIZED (
          SELECT r.id, r.train_number, r.ru_uuid, r.departure, r.arrival, r.gross_tonne_km, r.route,
                 f.factor, f.source AS factor_source
            FROM train_run r
            LEFT JOIN entity_latest tp ON tp.entity_uuid = r.train_profile_uuid
            LEFT JOIN entity_latest tc ON tc.entity_uuid = r.traffic_category_uuid
            -- The first factor found: the train profile's parameter for the month, its own factor,
            -- then the traffic category's parameter and its own factor.
            LEFT JOIN LATERAL (
              SELECT x.factor, x.source FROM (VALUES
                  (1, ${parameterAt('consumption_factor_trainprofile', sql`r.train_profile_uuid`, sql`r.departure`)}, 'trainprofile-parameter'),
                  (2, (tp.attributes ->> 'consumptionFactor')::numeric, 'trainprofile'),
                  (3, ${parameterAt('consumption_factor_trafficcategory', sql`r.traffic_category_uuid`, sql`r.departure`)}, 'trafficcategory-parameter'),
                  (4, (tc.attributes ->> 'consumptionFactor')::numeric, 'trafficcategory')
                ) AS x(rank, factor, source)
               WHERE x.factor IS NOT NULL ORDER BY x.rank LIMIT 1
            ) f ON true
           WHERE r.tenant = ${tenant}::uuid AND r.operating_day = ${D} AND r.superseded_at IS NULL AND NOT r.deleted
             AND r.departure IS NOT NULL AND r.arrival > r.departure
             AND NOT ${LATER_DUPLICATE(sql`r`)}
             -- Non-metered: no vehicle is a traction unit with a consumption point.
             AND NOT EXISTS (
               SELECT 1 FROM train_run_vehicle v
                 JOIN entity_latest cp ON cp.tenant = v.tenant AND cp.type = 'consumptionpoint'
                  AND cp.unit_ref = coalesce(v.traction_unit_uuid::text, (
                        SELECT l.entity_uuid::text FROM entity_latest l
                         WHERE l.tenant = v.tenant AND l.type = 'tractionunit' AND l.evn = v.evn LIMIT 1))
                WHERE v.train_run_id = r.id AND v.tenant = r.tenant)
        ), track AS MATERIALIZED (
          -- The distinct grid areas of the route's places, with their price areas: a place names a
          -- reported train metering point (a station, with its gridAreaRef) or a grid area.
          SELECT DISTINCT u.id, g.entity_uuid AS grid, rw_uuid(g.attributes ->> 'priceAreaRef') AS price_area
            FROM runs u
            CROSS JOIN LATERAL unnest(u.route) AS place(name)
            JOIN entity_latest p ON p.tenant = ${tenant}::uuid AND p.type IN ('reportedtrainmeteringpoint', 'gridarea')
             AND lower(p.name) = lower(place.name)
            JOIN entity_latest g ON g.tenant = ${tenant}::uuid AND g.type = 'gridarea'
             AND g.entity_uuid = CASE WHEN p.type = 'gridarea' THEN p.entity_uuid ELSE rw_uuid(p.attributes ->> 'gridAreaRef') END
           WHERE g.attributes ->> 'priceAreaRef' IS NOT NULL
        ), shares AS (
          SELECT id, grid, price_area, 1.0 / count(*) OVER (PARTITION BY id) AS share FROM track
        ), hours AS (
          -- Each hour the run touches, with the fraction of the run's time in it.
          SELECT u.id, h AS hour,
                 extract(epoch FROM least(u.arrival, h + interval '1 hour') - greatest(u.departure, h))
                   / extract(epoch FROM u.arrival - u.departure) AS fraction
            FROM runs u
            CROSS JOIN LATERAL generate_series(date_trunc('hour', u.departure, 'UTC'),
                                               u.arrival - interval '1 microsecond', interval '1 hour') AS h
           WHERE u.factor IS NOT NULL
        ), written AS (
          INSERT INTO estimated_energy (tenant, train_run_id, operating_day, hour_start, grid_area_uuid, price_area_uuid,
                                        organisation_uuid, energy_kwh, factor, factor_source, procedure_result_id)
          SELECT ${tenant}::uuid, u.id, ${D}, h.hour, s.grid, s.price_area, u.ru_uuid,
                 u.factor * u.gross_tonne_km * s.share * h.fraction, u.factor, u.factor_source, ${resultId}
            FROM runs u JOIN shares s ON s.id = u.id JOIN hours h ON h.id = u.id
          RETURNING train_run_id, energy_kwh
        )
        SELECT (SELECT count(*) FROM runs)::int AS runs,
               (SELECT count(DISTINCT train_run_id) FROM written)::int AS estimated,
               (SELECT sum(energy_kwh) FROM written)::text AS energy,
               (SELECT count(*) FROM runs WHERE factor IS NULL)::int AS no_factor,
               (SELECT (array_agg(train_number ORDER BY train_number))[1:3] FROM runs WHERE factor IS NULL) AS no_factor_examples,
               (SELECT count(*) FROM runs u WHERE factor IS NOT NULL AND NOT EXISTS (SELECT 1 FROM track t WHERE t.id = u.id))::int AS no_track,
               (SELECT (array_agg(train_number ORDER BY train_number))[1:3] FROM runs u
                 WHERE factor IS NOT NULL AND NOT EXISTS (SELECT 1 FROM track t WHERE t.id = u.id)) AS no_track_examples`,
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
