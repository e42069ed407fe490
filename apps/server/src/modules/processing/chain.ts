import {
  dayInZone,
  dayStartInZone,
  ENTITY_KINDS,
  LIST_LIMITS,
  nextPeriodStart,
  PROCESS_RUNNERS,
  type ProcedureName,
  type ProcedureResult,
  type ProcedureRunOptions,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { cebdFileScope } from './cebd-preprocessing.js';
import { areaDays } from './chunks.js';
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
 * the procedure-run job passes them to run.ts, the import job to queueArrivalCheck, the
 * cebd-check job to startArrivalCheck. Without them (the
 * settlement bench runs procedures alone) a success queues nothing and says so in the log.
 */

export interface FollowUp {
  procedure: ProcedureName;
  /** The period [start, end), ISO instants. */
  start: string;
  end: string;
  /** Why the system starts it ("after combine run 12"). */
  cause: string;
  /** The run's options (the month-end re-check's onlyDue, jobs/cebd-month-end.ts). */
  runOptions?: ProcedureRunOptions;
}

export interface ChainQueue {
  /** Queues the `procedure-follow-up` job for a follow-up run; answers the job run id. */
  followUp(ctx: ServiceContext, followUp: FollowUp): Promise<string>;
  /** Queues the `cebd-check` job of a stored CEBD file (startArrivalCheck); answers the job run id. */
  checkFile(ctx: ServiceContext, dataLogId: number): Promise<string>;
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
  result: Pick<ProcedureResult, 'id' | 'procedureName' | 'periodStart' | 'periodEnd' | 'runOptions'>,
  procedures: Procedures,
  queue: Pick<ChainQueue, 'followUp'> | undefined,
): Promise<void> {
  const followers = await followersOf(ctx, procedures, result.procedureName, result.periodStart);
  if (followers.length === 0) return;
  if (!queue) {
    ctx.log.warn({ procedureResultId: result.id }, 'processing chain: no queue given, no follow-up queued');
    return;
  }
  // A file's check on arrival (startArrivalCheck) is followed on the days processed further already.
  const periods =
    result.runOptions?.followers === 'processed'
      ? await processedStretches(ctx, { start: result.periodStart, end: result.periodEnd })
      : [{ start: result.periodStart, end: result.periodEnd }];
  for (const procedure of followers) {
    for (const period of periods) {
      await queue.followUp(asSystem(ctx), {
        procedure,
        start: period.start,
        end: period.end,
        cause: `started by the system after ${result.procedureName} run ${result.id}`,
        // A run of the due days only (the nightly allocation, the month-end re-check) is followed
        // on the due days only: each follower skips the days nothing marked (due-days.ts).
        ...(result.runOptions?.onlyDue ? { runOptions: { onlyDue: true } } : {}),
      });
    }
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
    { cause: followUp.cause, bySystem: true, ...(followUp.runOptions ? { runOptions: followUp.runOptions } : {}) },
  );
}

/**
 * The days of [start, end) (whole area days) that a successful combine result already covered, as
 * stretches of consecutive days (a month: one period, not thirty).
 */
async function processedStretches(
  ctx: ServiceContext,
  period: { start: string; end: string },
): Promise<{ start: string; end: string }[]> {
  const all = areaDays(period.start, period.end, ctx.tenant.timeZone);
  const days = await rows<{ start: string; end: string }>(
    ctx.db,
    sql`SELECT rw_iso(d.s) AS start, rw_iso(d.e) AS end
          FROM unnest(${sql.param(all.map((c) => c.start))}::timestamptz[],
                      ${sql.param(all.map((c) => c.end))}::timestamptz[]) AS d(s, e)
         WHERE EXISTS (SELECT 1 FROM procedure_result r
                        WHERE r.tenant = ${ctx.tenant.uuid}::uuid AND r.procedure_name = 'combine' AND r.status = 'success'
                          AND tstzrange(r.period_start, r.period_end) && tstzrange(d.s, d.e))
         ORDER BY d.s`,
  );
  const stretches: { start: string; end: string }[] = [];
  for (const day of days) {
    const last = stretches.at(-1);
    if (last && Date.parse(last.end) === Date.parse(day.start)) last.end = new Date(day.end).toISOString();
    else stretches.push({ start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString() });
  }
  return stretches;
}

/**
 * After a CEBD file's import stored new values (jobs/timeseries-import.ts): queues its check on
 * arrival as a job of its own. Answers the job run id, or null without a queue (a test's app without jobs).
 */
export async function queueArrivalCheck(
  ctx: ServiceContext,
  dataLogId: number,
  queue: Pick<ChainQueue, 'checkFile'> | undefined,
): Promise<string | null> {
  if (!queue) {
    ctx.log.warn({ dataLogId }, 'processing chain: no queue given, the CEBD file is checked at month end');
    return null;
  }
  return queue.checkFile(asSystem(ctx), dataLogId);
}

/**
 * Checked on arrival (issue 19 item 2): after a CEBD file's import stored new values (entry
 * `dataLogId`), a cebd-preprocessing run by the system over the area days of the file's records,
 * limited to the file's consumption points (its refs; a file of more than a run's refs limit checks
 * the whole days), its cause naming the file. It is the run of the process log, with progress per
 * day and events, in its own `procedure-run` job. Run option `followers: 'processed'`: the chain
 * then runs combine and the steps after it only on the days a combine already covered (queueFollowers);
 * days not processed yet are only checked. It runs beside other runs of its days (migration 0376:
 * neither refuses the other; their chunks of one day take turns). Called by the `cebd-check` job
 * (jobs/cebd-check.ts). Answers the run, or null when the file holds no records to check.
 */
export async function startArrivalCheck(
  ctx: ServiceContext,
  dataLogId: number,
  run: RunQueue,
): Promise<ProcedureResult | null> {
  const scope = await cebdFileScope(ctx, dataLogId);
  if (!scope || scope.consumptionPoints.length === 0) return null;
  const zone = ctx.tenant.timeZone;
  const lastDay = dayInZone(new Date(Date.parse(scope.end) - 1), zone);
  const timeRange = {
    start: dayStartInZone(dayInZone(new Date(scope.start), zone), zone),
    end: nextPeriodStart(dayStartInZone(lastDay, zone), 'P1D', zone).toISOString(),
  };
  const points = [...new Set(scope.consumptionPoints)];
  const refs =
    points.length <= LIST_LIMITS.refs ? points.map((uuid) => ({ uuid, type: ENTITY_KINDS.consumptionpoint })) : [];
  return startRun(
    asSystem(ctx),
    run,
    'cebd-preprocessing',
    { timeRange, refs },
    {
      cause: `started by the system: CEBD file ${dataLogId} arrived`,
      bySystem: true,
      runOptions: { followers: 'processed' },
    },
  );
}
