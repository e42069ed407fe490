import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { ALLOCATABLE, isoRange, SHUNTING_AND_STABLING, tractionRunsNear } from './sql.js';

/**
 * shunting-and-stabling (DOMAIN.md "Processing" step 4, issue 9 item 4) for one chunk (an area
 * day): metered energy next to a train run of its traction unit goes to that run's railway
 * undertaking, as its own category. Set-based: a handful of statements per chunk, whatever the
 * number of records.
 *
 * Input: the checked records of `cebd_record` whose period ends in (start, end], with a traction unit,
 * without the codes that make a record unusable (54 unknown EMS, 59 outside the area, 60 master
 * data missing: nobody can be billed for them; the other codes are quality warnings and the energy
 * is still someone's), that combine did not attach to a run (no `allocated_energy` row of category
 * 'train-run').
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
 * Idempotent: the chunk deletes its own category's rows, then inserts. A record that
 * energy-outside-train-run allocated earlier (a run was reported since) is taken over: the chain
 * runs energy-outside-train-run after this step, and a 'train-run' row is never touched. The
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
    // No nested loops: the planner probed allocated_energy by key once per record (bench/settlement.ts,
    // 400 units: 115,200 probes, 0.5 s of a day's 0.9 s); the chunk's rows are read once by the key's
    // period range and hash-joined (a merge join sorted both of the day's sets: 1,000 units, 20 % of
    // the day). 64 MB keeps the day's hashes and sorts in memory.
    await tx.execute(sql`SET LOCAL enable_nestloop = off`);
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`
      DELETE FROM allocated_energy
       WHERE tenant = ${tenant}::uuid AND period_end > ${S} AND period_end <= ${E}
         AND category = ${SHUNTING_AND_STABLING}`);
    const [counts] = await rows<{ records: number; allocated: number }>(
      tx,
      sql`
      WITH recs AS (
        SELECT p.consumption_point_uuid AS cp, p.period_end, p.traction_unit_uuid AS unit, p.grid_area_uuid,
               p.price_area_uuid, p.active_consumed, p.active_regenerated
          FROM cebd_record p
         WHERE p.tenant = ${tenant}::uuid AND p.period_end > ${S} AND p.period_end <= ${E} AND ${ALLOCATABLE}
           AND NOT EXISTS (SELECT 1 FROM allocated_energy a
                            WHERE a.tenant = p.tenant AND a.consumption_point_uuid = p.consumption_point_uuid
                              AND a.period_end = p.period_end AND a.category = 'train-run'
                              AND a.period_end > ${S} AND a.period_end <= ${E})
      ), runs AS MATERIALIZED (${tractionRunsNear(tenant, sql`${S} - ${L}`, sql`${E} + ${L}`)}),
      nearest AS (
        -- Each record with its nearest run within the limit: a hash join on the unit over the
        -- chunk's few runs, then the first per record (no per-record scan of the runs).
        SELECT DISTINCT ON (r.cp, r.period_end) r.*, x.id AS run_id, x.ru_uuid
          FROM recs r
          JOIN runs x ON x.unit = r.unit AND x.departure - ${L} <= r.period_end AND x.arrival + ${L} >= r.period_end
         ORDER BY r.cp, r.period_end, greatest(x.departure - r.period_end, r.period_end - x.arrival, interval '0'),
                  (x.arrival <= r.period_end) DESC, x.id
      ), written AS (
        INSERT INTO allocated_energy
               (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid, price_area_uuid,
                active_consumed, active_regenerated, category, train_run_id, organisation_uuid, payer,
                procedure_result_id)
        SELECT ${tenant}::uuid, cp, period_end, unit, grid_area_uuid, price_area_uuid,
               coalesce(active_consumed, 0), coalesce(active_regenerated, 0), ${SHUNTING_AND_STABLING}, run_id,
               ru_uuid, 'ru', ${runId}::bigint
          FROM nearest
        ON CONFLICT ON CONSTRAINT allocated_energy_key DO UPDATE
           SET traction_unit_uuid = excluded.traction_unit_uuid, grid_area_uuid = excluded.grid_area_uuid,
               price_area_uuid = excluded.price_area_uuid, active_consumed = excluded.active_consumed,
               active_regenerated = excluded.active_regenerated, category = excluded.category,
               train_run_id = excluded.train_run_id, organisation_uuid = excluded.organisation_uuid,
               payer = excluded.payer, procedure_result_id = excluded.procedure_result_id, allocated_at = now()
         -- Only energy-outside-train-run's row of a record is taken over (see above); never combine's.
         WHERE allocated_energy.category = 'energy-outside-train-run'
        RETURNING 1
      )
      SELECT (SELECT count(*)::int FROM recs) AS records, (SELECT count(*)::int FROM written) AS allocated`,
    );
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
