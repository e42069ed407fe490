import type { ProcessEventCode, Severity } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { allocatable, checkedRecords, insertSums, sumsOfChunk } from './allocated-energy.js';
import { jsonColumn, rows } from '../domain/sql.js';
import { LATER_DUPLICATE } from './train-preprocessing.js';

/**
 * combine (DOMAIN.md "Processing" step 3, issue 9 item 4) for one chunk (an area day): every
 * preprocessed CEBD record whose period ends in (start, end] is attached to the train run that
 * carried its traction unit at that time, and the run's railway undertaking pays. One DELETE and
 * one INSERT ... SELECT per chunk, whatever the number of records.
 *
 * - Which records: the checked records (processing/allocated-energy.ts `checkedRecords`) with a traction unit
 *   and none of the codes 54 (no known EMS), 59 (no place: no grid or price area to price it in) or
 *   60 (no master data: no unit to look for in a run). Those cannot be allocated at all: they keep
 *   their codes (cebd-preprocessing's events name them) and are in no allocated_energy_hourly sum of
 *   any category. Records with the other codes (55-58) are allocated: their energy was measured, the
 *   code is a remark about the delivery.
 * - Which run: a current, non-deleted train run (not a later duplicate, `LATER_DUPLICATE`: the
 *   same rule train-preprocessing flags 'duplicate-train-run' by) whose composition holds the
 *   record's traction unit (the vehicle's stored unit, or the fleet's unit of that EVN now: a unit
 *   registered after the file arrived still counts) and whose [departure - tolerance,
 *   arrival + tolerance) holds the record's mid-point (period end - 2.5 minutes); tolerance is the
 *   combine configuration's timeToleranceMinutes. When several runs match (a unit handed from one
 *   train to the next within the tolerance), the run whose [departure, arrival) holds the
 *   mid-point wins, else the nearest (distance from the mid-point to the range), then the lower id.
 * - Runs crossing midnight: runs are found by time, over operating days two before to one after
 *   the chunk's day, so a record at 00:30 finds the run of the evening before.
 * - What it writes: `allocated_energy_hourly` sums (migration 0380: per consumption point, hour,
 *   run and grid and price area, one row per island of consecutive records), category 'train-run',
 *   payer 'ru', organisation the run's RU. The chunk first deletes ALL sums of its range (every
 *   category): shunting-and-stabling and energy-outside-train-run run again after it through the
 *   processing chain (chain.ts), and find the records combine took as those inside its sums'
 *   islands (processing/allocated-energy.ts `inSum`).
 *
 * Events (`CombineResult`): records of a traction unit with energy (not 0 kWh: a parked unit's
 * night) in no run ('match-energy-failed'; left for shunting-and-stabling and
 * energy-outside-train-run), runs departing in the chunk whose
 * composition holds a unit with a consumption point but no record of that unit during the run
 * ('no-metered-data-received'), attached records of quality 61 ('uncertain-quality-flag-61') and
 * runs whose attached records of the chunk consume 0 kWh in sum ('energy-consumption-0'; a run
 * crossing midnight is judged per day, each part on its own).
 */

export interface CombineResult {
  /** Records that could be allocated (a unit, none of 54, 59, 60). */
  records: number;
  /** Of those, attached to a run. */
  attached: number;
  /** Runs that got at least one record. */
  runs: number;
  events: Partial<Record<CombineCode, { incidents: number; examples: string[] }>>;
}

export const COMBINE_CODES = [
  'match-energy-failed',
  'no-metered-data-received',
  'uncertain-quality-flag-61',
  'energy-consumption-0',
] as const satisfies readonly ProcessEventCode[];
export type CombineCode = (typeof COMBINE_CODES)[number];

/**
 * Severity per code. HIGH: a metered unit ran without data, so energy is missing from the
 * settlement until it arrives or is estimated. MEDIUM: energy outside any run is still allocated by
 * the next two steps, but to a guessed payer (often a train run that was never reported), and a run
 * consuming nothing points at a wrong composition or a meter fault. LOW: quality 61 energy is
 * allocated as it came; the flag is for the record.
 */
export const COMBINE_SEVERITY: Record<CombineCode, Severity> = {
  'match-energy-failed': 'MEDIUM',
  'no-metered-data-received': 'HIGH',
  'uncertain-quality-flag-61': 'LOW',
  'energy-consumption-0': 'MEDIUM',
};

/** A record that metered something (consumed or regenerated). */
const HAS_ENERGY = sql`(coalesce(active_consumed, 0) <> 0 OR coalesce(active_regenerated, 0) <> 0)`;

/**
 * Area days combined side by side on PostgreSQL (its definition's `concurrency`): the statement runs
 * in one backend on one core, and the chunks write disjoint period ranges, so two days at once use
 * the server's two cores (bench/combine.ts). PGlite has one session: there the days queue.
 */
export const COMBINE_CONCURRENCY = 2;

/** Combines the records whose period ends in (chunk.start, chunk.end]; `day` is the chunk's area day. */
export async function combine(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  options: { toleranceMinutes: number; procedureResultId?: number },
): Promise<CombineResult> {
  const tenant = ctx.tenant.uuid;
  const start = new Date(chunk.start).toISOString();
  const end = new Date(chunk.end).toISOString();
  if (!(start < end)) throw new Error(`Empty chunk ${chunk.start} .. ${chunk.end}`);
  const S = sql`${start}::timestamptz`;
  const E = sql`${end}::timestamptz`;
  const T = sql`make_interval(mins => ${options.toleranceMinutes}::int)`;
  const D = sql`${chunk.day}::date`;

  return ctx.db.transaction(async (tx) => {
    // The day's matches are sorted once (DISTINCT ON) and counted per unit: with the default 4 MB a
    // day of 1,000 units (~290,000 records) sorts on disk; 64 MB keeps it in memory, for this
    // transaction only.
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    // No JIT: the planner's cost of the run lookup (the later-duplicate subqueries) is far above
    // jit_above_cost, so PostgreSQL compiled the statement's ~200 expressions on every chunk, about
    // half of a day's 6 s (EXPLAIN ANALYZE, bench/combine.ts); the statement runs once per chunk, so
    // the compiled code never pays back.
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`DELETE FROM allocated_energy_hourly a WHERE ${sumsOfChunk(tenant, S, E)}`);
    const [row] = await rows<{
      records: string | number;
      attached: string | number;
      runs: string | number;
      events: Record<string, { incidents: number; examples: string[] | null }> | string | null;
    }>(
      tx,
      sql`
      WITH recs AS MATERIALIZED (
        SELECT c.consumption_point_uuid AS cp, c.period_end, c.traction_unit_uuid AS unit,
               c.grid_area_uuid, c.price_area_uuid, c.active_consumed, c.active_regenerated, c.quality,
               c.period_end - interval '150 seconds' AS mid
          FROM ${checkedRecords} c
         WHERE c.tenant = ${tenant}::uuid AND c.period_end > ${S} AND c.period_end <= ${E}
           AND ${allocatable(sql`c`)}
      ), runs AS MATERIALIZED (
        -- The runs that may hold a record of the chunk: by time (a run of the day before may reach
        -- past midnight), each with the traction units of its composition.
        SELECT r.id, r.ru_uuid, r.train_number, r.departure, r.arrival,
               coalesce(v.traction_unit_uuid, (
                 SELECT l.entity_uuid FROM entity_latest l
                  WHERE l.tenant = ${tenant}::uuid AND l.type = 'tractionunit' AND l.evn = v.evn LIMIT 1)) AS unit
          FROM train_run r
          JOIN train_run_vehicle v ON v.train_run_id = r.id AND v.tenant = r.tenant
         WHERE r.tenant = ${tenant}::uuid AND r.superseded_at IS NULL AND NOT r.deleted
           AND r.operating_day BETWEEN ${D} - 2 AND ${D} + 1
           AND r.departure - ${T} < ${E} AND r.arrival + ${T} > ${S} - interval '5 minutes'
           AND NOT ${LATER_DUPLICATE(sql`r`)}
      ), matched AS MATERIALIZED (
        -- Each record with the run it goes to (the record's columns carried along: no second join).
        SELECT DISTINCT ON (x.period_end, x.cp) x.*, u.id AS run_id, u.ru_uuid
          FROM recs x
          JOIN runs u ON u.unit = x.unit
           AND x.mid >= u.departure - ${T} AND x.mid < u.arrival + ${T}
         ORDER BY x.period_end, x.cp,
                  (x.mid >= u.departure AND x.mid < u.arrival) DESC,
                  greatest(u.departure - x.mid, x.mid - u.arrival), u.id
      ), allocation AS (
        SELECT m.cp, m.period_end, m.unit, m.grid_area_uuid, m.price_area_uuid, m.active_consumed,
               m.active_regenerated, 'train-run'::text AS category, m.run_id, m.ru_uuid AS organisation_uuid,
               'ru'::text AS payer
          FROM matched m
      ), written AS (${insertSums(tenant, sql`allocation`, options.procedureResultId ?? null)}
      ), by_run AS MATERIALIZED (
        -- The matches counted once per run and unit (a day of 1,000 units: 6,000 rows instead of
        -- 174,000), from which every count on matched below is taken.
        SELECT run_id, unit, count(*) FILTER (WHERE ${HAS_ENERGY}) AS with_energy,
               sum(coalesce(active_consumed, 0)) AS consumed, count(*) FILTER (WHERE quality = 61) AS q61
          FROM matched GROUP BY run_id, unit
      ), per_unit AS (
        -- Records with energy per unit against those matched: the units with energy outside every
        -- run (a count per unit, cheaper than an anti-join per record). A unit parked overnight
        -- sends records of 0 kWh: nothing to allocate, so no failure to match.
        SELECT a.unit, a.n - coalesce(b.n, 0) AS unmatched
          FROM (SELECT unit, count(*) FILTER (WHERE ${HAS_ENERGY}) AS n FROM recs GROUP BY unit) a
          LEFT JOIN (SELECT unit, sum(with_energy) AS n FROM by_run GROUP BY unit) b ON b.unit = a.unit
      ), metered AS MATERIALIZED (
        -- The consumption points of each unit (the fleet's current master data).
        SELECT rw_uuid(l.unit_ref) AS unit, l.entity_uuid AS cp FROM entity_latest l
         WHERE l.tenant = ${tenant}::uuid AND l.type = 'consumptionpoint' AND l.unit_ref IS NOT NULL
      ), silent AS (
        -- Runs departing in the chunk with a metered unit none of whose consumption points sent a
        -- record during the run (any record, checked or not, whatever its codes: the question is
        -- whether data arrived). Probes by consumption point and period end (cebd_record_point_idx).
        SELECT DISTINCT u.id, u.train_number FROM runs u
         WHERE u.departure >= ${S} AND u.departure < ${E}
           AND EXISTS (SELECT 1 FROM metered m WHERE m.unit = u.unit)
           AND NOT EXISTS (SELECT 1 FROM metered m
                             JOIN cebd_record c ON c.tenant = ${tenant}::uuid AND c.consumption_point_uuid = m.cp
                              AND c.period_end > u.departure AND c.period_end < u.arrival + interval '150 seconds'
                            WHERE m.unit = u.unit)
      ), zero AS (
        SELECT run_id AS train_run_id FROM by_run GROUP BY 1 HAVING sum(consumed) = 0
      ), names AS (SELECT DISTINCT id, train_number FROM runs)
      SELECT (SELECT count(*) FROM recs) AS records,
             (SELECT coalesce(sum(records), 0) FROM written) AS attached,
             (SELECT count(DISTINCT run_id) FROM by_run) AS runs,
             jsonb_build_object(
               'match-energy-failed', jsonb_build_object('incidents', (SELECT sum(unmatched) FROM per_unit),
                  'examples', (SELECT to_jsonb((array_agg(l.name ORDER BY l.name))[1:3]) FROM per_unit p
                                 JOIN entity_latest l ON l.entity_uuid = p.unit WHERE p.unmatched > 0)),
               'no-metered-data-received', jsonb_build_object('incidents', (SELECT count(*) FROM silent),
                  'examples', (SELECT to_jsonb((array_agg(train_number ORDER BY train_number))[1:3]) FROM silent)),
               'uncertain-quality-flag-61', jsonb_build_object(
                  'incidents', (SELECT coalesce(sum(q61), 0) FROM by_run), 'examples', NULL),
               'energy-consumption-0', jsonb_build_object('incidents', (SELECT count(*) FROM zero),
                  'examples', (SELECT to_jsonb((array_agg(n.train_number ORDER BY n.train_number))[1:3])
                                 FROM zero z JOIN names n ON n.id = z.train_run_id))
             ) AS events`,
    );
    const raw = jsonColumn(row?.events, {});
    const events: CombineResult['events'] = {};
    for (const code of COMBINE_CODES) {
      const e = (raw as Record<string, { incidents: number | string; examples: string[] | null }>)[code];
      const incidents = Number(e?.incidents ?? 0);
      if (incidents > 0) events[code] = { incidents, examples: e?.examples ?? [] };
    }
    return {
      records: Number(row?.records ?? 0),
      attached: Number(row?.attached ?? 0),
      runs: Number(row?.runs ?? 0),
      events,
    };
  });
}

/**
 * Withdraws the 'no-metered-data-received' events earlier combine runs recorded for the chunk's
 * runs (issue 18 item 5): raised while the day's CEBD had not been processed, they are answered by
 * this run, which attached the records that arrived since and recorded its own event for the runs
 * still without data (`stillSilent` of them). An earlier event stays in the log, LOW with no
 * incidents, its message saying which result withdrew it; the event of this run is the one that counts.
 */
export async function withdrawSilentRunEvents(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  options: { procedureResultId: number; stillSilent: number },
): Promise<number> {
  const S = sql`${new Date(chunk.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(chunk.end).toISOString()}::timestamptz`;
  const now =
    options.stillSilent === 0
      ? `the records of ${chunk.day} are attached`
      : `${options.stillSilent} train runs of ${chunk.day} still have no data (its own event)`;
  const [withdrawn] = await rows<{ n: number }>(
    ctx.db,
    sql`WITH withdrawn AS (
          UPDATE processing_event
             SET severity = 'LOW', incidents = 0,
                 message = left('Withdrawn by combine result ' || ${options.procedureResultId}::text || ': ' || ${now}
                                || '. ' || coalesce(message, ''), 4000)
           WHERE tenant = ${ctx.tenant.uuid}::uuid AND process_name = 'combine'
             AND error_code = 'no-metered-data-received' AND incidents > 0
             AND procedure_result_id < ${options.procedureResultId}::bigint
             AND event_time >= ${S} AND event_time < ${E}
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM withdrawn`,
  );
  return withdrawn?.n ?? 0;
}
