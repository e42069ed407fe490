import { PROCESS_RUNNERS, type ProcedureName, type ProcedureResult } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import type { Procedures } from './define-procedure.js';
import { startRun, type RunQueue } from './service.js';

/**
 * The processing chain (DOMAIN.md "Processing" steps 1-4): when a run succeeds, each procedure its
 * definition names as a follower (`followers`, `configuredFollowers`: src/procedures.ts
 * ALL_PROCEDURES) runs for the same period, as a new result started by the system (username
 * 'system'; its `cause` and final message name the run that caused it).
 *
 * Why a job of its own (`procedure-follow-up`, jobs/procedure-follow-up.ts) between the two runs
 * rather than starting the follower at once: the follower may already be under way for an
 * overlapping period (process_already_running, one run per scope), and that run may have read the
 * data before the step ahead of it changed them, so the follow-up must not be dropped. The
 * follow-up job tries to start the follower and, while one is under way, fails its attempt; pg-boss
 * tries it again every 30 s for an hour, then it waits in `procedure-follow-up__dead` for an operator
 * (the dead-letter queue screens). Being a pg-boss job, it survives a restart between the two runs.
 *
 * The queues are the app's job runner's, handed to the jobs that use them (jobs/dependencies.ts):
 * the procedure-run job passes them to run.ts, the import job to rerunAfterCebd. Without them (the
 * settlement bench runs procedures alone) a success queues nothing and says so in the log.
 */

export interface FollowUp {
  procedure: ProcedureName;
  /** The period [start, end), ISO instants. */
  start: string;
  end: string;
  /** Why the system starts it ("after combine run 12", "CEBD file 40 arrived ..."). */
  cause: string;
}

export interface ChainQueue {
  /** Queues the `procedure-follow-up` job for a follow-up run; answers the job run id. */
  followUp(ctx: ServiceContext, followUp: FollowUp): Promise<string>;
  /** Queues a procedure result's `procedure-run` job (as the run route does). */
  run: RunQueue;
}

export const SYSTEM_USERNAME = 'system';

/** The context of a run the system starts: the same area, the system as actor (a process runner). */
const asSystem = (ctx: ServiceContext): ServiceContext => ({
  ...ctx,
  actor: { username: SYSTEM_USERNAME, roles: [...PROCESS_RUNNERS] },
});

/** The procedures that follow a successful run of `name` for the period starting at `periodStart`. */
async function followersOf(
  ctx: ServiceContext,
  procedures: Procedures,
  name: ProcedureName,
  periodStart: string,
): Promise<ProcedureName[]> {
  const definition = procedures.get(name);
  if (!definition) return [];
  return [...definition.followers, ...((await definition.configuredFollowers?.(ctx, periodStart)) ?? [])];
}

/** After `result` succeeded: queues a follow-up of each procedure its definition names after it. */
export async function queueFollowers(
  ctx: ServiceContext,
  result: Pick<ProcedureResult, 'id' | 'procedureName' | 'periodStart' | 'periodEnd'>,
  procedures: Procedures,
  queue: Pick<ChainQueue, 'followUp'> | undefined,
): Promise<void> {
  const followers = await followersOf(ctx, procedures, result.procedureName, result.periodStart);
  if (followers.length === 0) return;
  if (!queue) {
    ctx.log.warn({ procedureResultId: result.id }, 'processing chain: no queue given, no follow-up queued');
    return;
  }
  for (const procedure of followers) {
    await queue.followUp(asSystem(ctx), {
      procedure,
      start: result.periodStart,
      end: result.periodEnd,
      cause: `started by the system after ${result.procedureName} run ${result.id}`,
    });
  }
}

/**
 * The follow-up job's work: starts the follower as a new result by the system. While a run of it
 * is under way for an overlapping period this throws (400 process_already_running), so the job's
 * attempt fails and pg-boss tries again later.
 */
export async function startFollowUp(ctx: ServiceContext, followUp: FollowUp, run: RunQueue): Promise<ProcedureResult> {
  return startRun(
    asSystem(ctx),
    run,
    followUp.procedure,
    { timeRange: { start: followUp.start, end: followUp.end }, refs: [] },
    { cause: followUp.cause, bySystem: true },
  );
}

/**
 * Combine runs again when CEBD arrives after it ran (product.md §4): after a CEBD file's import
 * stored new values (entry `dataLogId`), the area days its series cover (data_log_time_series) that
 * a successful cebd-preprocessing or combine result already covered get a new cebd-preprocessing
 * run, one per stretch of consecutive days; the chain then runs combine and the steps after it.
 * Days no run has covered yet are left alone: they are processed when someone runs them. Answers
 * the follow-ups queued.
 */
export async function rerunAfterCebd(
  ctx: ServiceContext,
  dataLogId: number,
  queue: Pick<ChainQueue, 'followUp'>,
): Promise<FollowUp[]> {
  const tenant = ctx.tenant.uuid;
  const zone = ctx.tenant.timeZone;
  const days = await rows<{ start: string; end: string }>(
    ctx.db,
    sql`WITH span AS (
          SELECT min(start_time) AS s, max(end_time) AS e FROM data_log_time_series WHERE data_log_id = ${dataLogId}
        ), days AS (
          -- A record belongs to the day its period starts in (its period end lies in (start, end]).
          SELECT (d AT TIME ZONE ${zone}) AS s, ((d + interval '1 day') AT TIME ZONE ${zone}) AS e
            FROM span, generate_series(date_trunc('day', span.s AT TIME ZONE ${zone}),
                                       (span.e - interval '1 microsecond') AT TIME ZONE ${zone},
                                       interval '1 day') AS d
           WHERE span.s IS NOT NULL
        )
        SELECT rw_iso(days.s) AS start, rw_iso(days.e) AS end FROM days
         WHERE EXISTS (SELECT 1 FROM procedure_result r
                        WHERE r.tenant = ${tenant}::uuid AND r.procedure_name IN ('cebd-preprocessing', 'combine')
                          AND r.status = 'success'
                          AND tstzrange(r.period_start, r.period_end) && tstzrange(days.s, days.e))
         ORDER BY days.s`,
  );
  // Consecutive days as one period (a month's file: one run, not thirty).
  const periods: { start: string; end: string }[] = [];
  for (const day of days) {
    const last = periods.at(-1);
    if (last && Date.parse(last.end) === Date.parse(day.start)) last.end = day.end;
    else periods.push({ ...day });
  }
  const queued: FollowUp[] = [];
  for (const period of periods) {
    const followUp: FollowUp = {
      procedure: 'cebd-preprocessing',
      start: new Date(period.start).toISOString(),
      end: new Date(period.end).toISOString(),
      cause: `started by the system: CEBD file ${dataLogId} arrived after the period was processed`,
    };
    await queue.followUp(asSystem(ctx), followUp);
    queued.push(followUp);
  }
  return queued;
}
