import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import {
  allocatable,
  checkedRecords,
  ENERGY_OUTSIDE_TRAIN_RUN,
  inSum,
  insertSums,
  isoRange,
  SHUNTING_AND_STABLING,
  sumsOfChunk,
  tractionRunsNear,
} from '../processing/allocated-energy.js';

/**
 * shunting-and-stabling (DOMAIN.md "Processing" step 4, issue 9 item 4) for one chunk (an area
 * day): metered energy next to a train run of its traction unit goes to that run's railway
 * undertaking, as its own category. Set-based: a handful of statements per chunk, whatever the
 * number of records.
 *
 * Input: the checked records (allocated-energy.ts `checkedRecords`) whose period ends in (start, end], with a
 * traction unit, without the codes that make a record unusable (54 unknown EMS, 59 outside the area,
 * 60 master data missing: nobody can be billed for them; the other codes are quality warnings and
 * the energy is still someone's), that combine did not attach to a run: in none of the chunk's
 * 'train-run' sums (allocated-energy.ts `inSum`: the point's records within a sum's island are the sum's).
 *
 * The rule, per record (its time is its period end, the CEBD timestamp):
 * - Its distance from a run is 0 inside [departure, arrival], `period_end - arrival` after it
 *   (stabling), `departure - period_end` before it (shunting before the run). Runs are the current,
 *   not deleted versions whose composition (`train_run_vehicle`) holds the record's unit.
 * - Within `limitMinutes` (processing-config 'shunting-and-stabling' timeLimitAfterRunMinutes) of a
 *   run, the nearest such run's RU pays (category 'shunting-and-stabling', payer 'ru', train_run_id
 *   the run). Equally near a run before and a run after: the run before (the unit was stabled after
 *   it; a tie is rare and one reading had to be chosen), then the lower run id.
 * - Beyond the limit the record stays unallocated for energy-outside-train-run; the chunk counts
 *   them (event 'shunting-limits-exceeded', incidents = records).
 *
 * Delayed task: a record beyond the limit may still get a run within it, because train runs may be
 * reported up to train-preprocessing's `maxDaysLate` days after their operating day. The last run
 * that could claim a record of this chunk departs at most `limitMinutes` after the chunk's end, so
 * the late window for the chunk closes at `end + limitMinutes + maxDaysLate days` (our reading of
 * "when the late window closes"). While `now` is before that, the chunk records one waiting
 * `delayed_task` (destination 'shunting-and-stabling', the chunk's period, due then, a reason); when
 * due it runs this procedure for the day again (modules/delayed-tasks).
 *
 * Writes `allocated_energy_hourly` sums (migration 0380: per point, hour, run and area, one row per
 * island of consecutive records), category 'shunting-and-stabling', payer 'ru'.
 *
 * Idempotent: the chunk deletes its own category's sums, then inserts. A record that
 * energy-outside-train-run allocated earlier (a run was reported since) is taken over: the
 * energy-outside sums whose islands hold such a record are written again without it (the chain
 * runs energy-outside-train-run after this step anyway), and a 'train-run' sum is never touched. The
 * chunk's waiting tasks are replaced (a new one when still needed), and tasks a run had started for
 * the chunk's period are done.
 */

export interface ShuntingOptions {
  limitMinutes: number;
  maxDaysLate: number;
  /** The procedure result writing the rows. */
  procedureResultId?: number | null;
  /** The clock the late window is judged by (tests set it). */
  now?: Date;
}

export interface ShuntingResult {
  /** Records of the chunk that were candidates (valid, not attached to a run by combine). */
  records: number;
  /** Records allocated to a run's RU. */
  allocated: number;
  /** Records beyond the limit (left to energy-outside-train-run). */
  exceeded: number;
  /** The delayed task recorded for the chunk, when its late window is still open. */
  delayedTask: { id: number; dueAt: string } | null;
}

export async function allocateShuntingAndStabling(
  ctx: ServiceContext,
  chunk: { start: string; end: string },
  options: ShuntingOptions,
): Promise<ShuntingResult> {
  const tenant = ctx.tenant.uuid;
  const { start, end } = isoRange(chunk);
  const S = sql`${start}::timestamptz`;
  const E = sql`${end}::timestamptz`;
  const L = sql`make_interval(mins => ${options.limitMinutes}::int)`;
  const runId = options.procedureResultId ?? null;
  const now = (options.now ?? new Date()).toISOString();

  return ctx.db.transaction(async (tx) => {
    // No JIT: compiling the statement costs more than running it once per chunk (bench/settlement.ts:
    // about 1.1-1.8 s of a day's time, as it was for combine).
    await tx.execute(sql`SET LOCAL jit = off`);
    // No nested loops: the planner probed the allocation by key once per record (bench/settlement.ts,
    // 400 units: 115,200 probes, 0.5 s of a day's 0.9 s); the chunk's sums are read once by hour and
    // hash-joined (a merge join sorted both of the day's sets: 1,000 units, 20 % of the day). 64 MB
    // keeps the day's hashes and sorts in memory.
    await tx.execute(sql`SET LOCAL enable_nestloop = off`);
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`
      DELETE FROM allocated_energy_hourly a
       WHERE ${sumsOfChunk(tenant, S, E)} AND a.category = ${SHUNTING_AND_STABLING}`);
    const [counts] = await rows<{ records: number; allocated: number }>(
      tx,
      sql`
      WITH combined AS MATERIALIZED (
        SELECT a.* FROM allocated_energy_hourly a WHERE ${sumsOfChunk(tenant, S, E)} AND a.category = 'train-run'
      ), recs AS (
        SELECT p.consumption_point_uuid AS cp, p.period_end, p.traction_unit_uuid AS unit, p.grid_area_uuid,
               p.price_area_uuid, p.active_consumed, p.active_regenerated
          FROM ${checkedRecords} p
         WHERE p.tenant = ${tenant}::uuid AND p.period_end > ${S} AND p.period_end <= ${E} AND ${allocatable(sql`p`)}
           AND NOT EXISTS (SELECT 1 FROM combined a WHERE ${inSum(sql`a`, sql`p`)})
      ), runs AS MATERIALIZED (${tractionRunsNear(tenant, sql`${S} - ${L}`, sql`${E} + ${L}`)}),
      nearest AS (
        -- Each record with its nearest run within the limit: a hash join on the unit over the
        -- chunk's few runs, then the first per record (no per-record scan of the runs).
        SELECT DISTINCT ON (r.cp, r.period_end) r.*, x.id AS run_id, x.ru_uuid
          FROM recs r
          JOIN runs x ON x.unit = r.unit AND x.departure - ${L} <= r.period_end AND x.arrival + ${L} >= r.period_end
         ORDER BY r.cp, r.period_end, greatest(x.departure - r.period_end, r.period_end - x.arrival, interval '0'),
                  (x.arrival <= r.period_end) DESC, x.id
      ), allocation AS (
        SELECT n.cp, n.period_end, n.unit, n.grid_area_uuid, n.price_area_uuid, n.active_consumed,
               n.active_regenerated, ${SHUNTING_AND_STABLING}::text AS category, n.run_id,
               n.ru_uuid AS organisation_uuid, 'ru'::text AS payer
          FROM nearest n
      ), written AS (${insertSums(tenant, sql`allocation`, runId)})
      SELECT (SELECT count(*)::int FROM recs) AS records,
             (SELECT coalesce(sum(records), 0)::int FROM written) AS allocated`,
    );
    // Energy-outside sums holding a record this step now allocates (a run reported since brought it
    // within the limit) are written again with their other records (the point's records in the
    // island that no shunting sum holds), as the same payer.
    await tx.execute(sql`
      WITH mine AS MATERIALIZED (
        SELECT a.* FROM allocated_energy_hourly a
         WHERE ${sumsOfChunk(tenant, S, E)} AND a.category = ${SHUNTING_AND_STABLING}
      ), taken AS MATERIALIZED (
        SELECT o.* FROM allocated_energy_hourly o
         WHERE ${sumsOfChunk(tenant, S, E, sql`o`)} AND o.category = ${ENERGY_OUTSIDE_TRAIN_RUN}
           AND EXISTS (SELECT 1 FROM mine m
                        WHERE m.consumption_point_uuid = o.consumption_point_uuid AND m.hour_start = o.hour_start
                          AND m.first_period_end <= o.last_period_end AND m.last_period_end >= o.first_period_end)
      ), kept AS (
        SELECT p.consumption_point_uuid AS cp, p.period_end, o.traction_unit_uuid AS unit, o.grid_area_uuid,
               o.price_area_uuid, p.active_consumed, p.active_regenerated, o.category, o.train_run_id AS run_id,
               o.organisation_uuid, o.payer
          FROM taken o
          JOIN ${checkedRecords} p ON ${inSum(sql`o`, sql`p`)}
         WHERE p.tenant = ${tenant}::uuid AND p.period_end > ${S} AND p.period_end <= ${E}
           AND NOT EXISTS (SELECT 1 FROM mine m WHERE ${inSum(sql`m`, sql`p`)})
      ), removed AS (
        DELETE FROM allocated_energy_hourly d USING taken o
         WHERE d.tenant = o.tenant AND d.hour_start = o.hour_start AND d.consumption_point_uuid = o.consumption_point_uuid
           AND d.category = o.category AND d.first_period_end = o.first_period_end
      )
      ${insertSums(tenant, sql`kept`, runId)}`);
    const records = Number(counts?.records ?? 0);
    const allocated = Number(counts?.allocated ?? 0);
    const exceeded = records - allocated;

    // The chunk's tasks: the ones a run started for this period are done (this is that run, or a
    // later one that judged the same records); waiting ones are replaced by the judgement below. A
    // task of a longer period than this (clipped) chunk is left alone.
    const within = sql`tenant = ${tenant}::uuid AND destination_uri = ${SHUNTING_AND_STABLING}
                       AND period_start >= ${S} AND period_end <= ${E}`;
    await tx.execute(
      sql`UPDATE delayed_task SET status = 'done', updated_at = now() WHERE ${within} AND status = 'started'`,
    );
    await tx.execute(sql`DELETE FROM delayed_task WHERE ${within} AND status = 'waiting'`);
    const dueAt = new Date(Date.parse(end) + options.limitMinutes * 60_000 + options.maxDaysLate * 86_400_000);
    let delayedTask: ShuntingResult['delayedTask'] = null;
    if (exceeded > 0 && Date.parse(now) < dueAt.getTime()) {
      const reason =
        `${exceeded} of ${records} records have no train run within ${options.limitMinutes} minutes; ` +
        `train runs may be reported until ${dueAt.toISOString()} (${options.maxDaysLate} days late)`;
      const [task] = await rows<{ id: string | number }>(
        tx,
        sql`INSERT INTO delayed_task (tenant, destination_uri, period_start, period_end, due_at, reason,
                                      procedure_result_id)
            VALUES (${tenant}::uuid, ${SHUNTING_AND_STABLING}, ${S}, ${E}, ${dueAt.toISOString()}::timestamptz,
                    ${reason}, ${runId}::bigint)
            RETURNING id`,
      );
      delayedTask = { id: Number(task!.id), dueAt: dueAt.toISOString() };
    }
    return { records, allocated, exceeded, delayedTask };
  });
}
