import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { ServiceContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { allAreasExecutor, tenantExecutor } from '../../db/tenant.js';
import { rows } from '../domain/sql.js';
import type { InterruptedOutcome, JobDefinition } from './define-job.js';
import { markFinished } from './repository.js';
import type { JobEnvelope } from './runner.js';

/**
 * Runs a process left behind when it died (ARCHITECTURE.md "Background jobs", issue 17 item 5).
 *
 * A process killed during an attempt (kill -9, out of memory, power) leaves three records saying
 * "running": the pg-boss job (state active), its job_run and whatever the handler keeps (a procedure
 * result, a data-log entry). Left alone, pg-boss would fail the job only when expireInSeconds has
 * passed (4 hours for a procedure run, blocking its month that long) and then run it again.
 *
 * Which attempts are interrupted: those of nodes that are gone (ARCHITECTURE.md "Several nodes",
 * db/node-lease.ts). A node works on an attempt after markRunning wrote its number on the job_run
 * row; while the node lives it holds its lease lock, and rw_node_gone(node) is false. So an active
 * job is settled here only when the node of its job_run row is gone (PGlite, one process: rows name
 * no node, and every active job at start-up is of the process that died, as before) and that row
 * is of the job's current attempt: an attempt a live node has just fetched, whose row still names
 * the node of the attempt before (or the node that queued it), is left alone for a minute. It runs
 * at every start, before the workers, and on PostgreSQL every few seconds on one node at a time
 * (start.ts sweepGoneNodes), so a node killed in the middle of a run has its attempts retried on
 * the others within seconds:
 *
 * - the handler had finished (job_run success, failure or dead) and only pg-boss was not told:
 *   the job is completed (or failed into the dead-letter queue) as the worker would have;
 * - otherwise the attempt was interrupted. A job declared `interrupted: 'retry'` (the default)
 *   fails it in pg-boss as a failed attempt: retried after retryDelaySeconds while retries remain,
 *   else into the dead-letter queue, job_run 'failure' or 'dead' saying the server stopped. A job
 *   declared `'fail'` is cancelled in pg-boss and job_run ends 'failure': it is never run again.
 *   Then the job's `onInterrupted` brings its own records in line (procedure-run: the result's
 *   message, or failure; timeseries-import: the entry FAILED).
 *
 * A job_run still queued or running whose pg-boss job is gone or over (the process died between
 * storing the run and sending the job) ends too, when its node is gone or it is over a minute old.
 * pg-boss's own heartbeat (heartbeatSeconds) is not used: on the embedded database its write waits
 * for whatever transaction holds the one session (a long import would look dead), and the lease
 * tells a gone node at once instead of after a timeout.
 */

/** pg-boss's schema (the runner does not choose another). */
const BOSS_SCHEMA = 'pgboss';

export interface RecoveryReport {
  /** Interrupted attempts pg-boss runs again. */
  retried: string[];
  /** Interrupted runs that ended failed (no retry left, or declared 'fail'). */
  failed: string[];
  /** Finished runs whose pg-boss job was settled to match. */
  settled: string[];
  /** job_run rows without a live pg-boss job, ended. */
  lost: string[];
}

interface ActiveJob {
  id: string;
  name: string;
  data: JobEnvelope;
  retryCount: number;
  retryLimit: number;
  /** Fetched by its worker over a minute ago. */
  stale: boolean;
}

interface StoredRun {
  id: string;
  status: string;
  final: boolean;
  message: string | null;
  attempts: number;
  /** The node on the row is gone (rw_node_gone). */
  gone: boolean;
}

/** The words job_run and the handler's records get; screens show them. */
export const interruptedMessage = (attempt: number, outcome: 'retried' | 'last' | 'not-repeated'): string =>
  outcome === 'retried'
    ? `The server stopped during attempt ${attempt}; the run is retried`
    : outcome === 'last'
      ? `The server stopped during attempt ${attempt}, the last one`
      : 'The server stopped while this ran; it is not run again';

export interface RecoveryOptions {
  log: FastifyBaseLogger;
  /** The context a handler of the envelope gets (the runner builds it as for an attempt). */
  contextFor(envelope: JobEnvelope, log: FastifyBaseLogger): Promise<ServiceContext>;
}

/**
 * Settles what a dead process left of `jobs` (see above). Call it after the queues exist and before
 * any worker starts.
 */
export async function recoverInterruptedRuns(
  boss: PgBoss,
  database: Database,
  jobs: ReadonlyMap<string, JobDefinition>,
  options: RecoveryOptions,
): Promise<RecoveryReport> {
  const report: RecoveryReport = { retried: [], failed: [], settled: [], lost: [] };
  const names = [...jobs.keys()];
  if (names.length === 0) return report;
  const owner = boss.getDb();
  // Across areas on purpose: a start-up sweep over every area's runs (grep allAreasExecutor).
  const allAreas = allAreasExecutor(database, 'start-up: runs of a process that is gone');

  const { rows: active } = (await owner.executeSql(
    `SELECT id::text AS id, name, data, retry_count AS "retryCount", retry_limit AS "retryLimit",
            coalesce(started_on < now() - interval '1 minute', true) AS stale
       FROM ${BOSS_SCHEMA}.job
      WHERE state = 'active' AND name = ANY($1::text[])`,
    [names],
  )) as { rows: ActiveJob[] };
  const stored = new Map(
    (
      await rows<StoredRun>(
        allAreas,
        sql`SELECT id::text AS id, status, finished_at IS NOT NULL AS final, message, attempts, rw_node_gone(node) AS gone
              FROM job_run
             WHERE id = ANY(${sql.param(active.map((job) => job.id))}::uuid[])`,
      )
    ).map((run) => [run.id, run]),
  );

  for (const job of active) {
    const definition = jobs.get(job.name)!;
    const run = stored.get(job.id);
    // A live node works on it (or has just fetched it and not yet written its number on the row).
    // PGlite has one process: every active job is of the one that died.
    const current = run !== undefined && run.attempts === job.retryCount + 1;
    const live = run ? !run.gone || (!current && !job.stale) : !job.stale;
    if (database.kind === 'postgres' && live) continue;
    const log = options.log.child({ job: job.name, runId: job.id });
    if (run && (run.status === 'success' || (run.status === 'failure' && run.final))) {
      // The handler's outcome is recorded; the process died before pg-boss heard it.
      await boss.complete(job.name, job.id, { message: run.message });
      report.settled.push(job.id);
      continue;
    }
    if (run?.status === 'dead') {
      // The last attempt failed and was recorded: on to the dead-letter queue, as the worker would.
      await boss.fail(job.name, job.id, { message: run.message });
      report.settled.push(job.id);
      continue;
    }
    const attempt = job.retryCount + 1;
    let outcome: InterruptedOutcome;
    if (definition.interrupted === 'fail') {
      // Cancelled, not failed: a failure would be retried, or copied to the dead-letter queue from
      // where a rerun would repeat what the job's own records already say ended.
      outcome = { attempt, retried: false, message: interruptedMessage(attempt, 'not-repeated') };
      await boss.cancel(job.name, job.id);
    } else {
      const retried = job.retryCount < job.retryLimit;
      outcome = { attempt, retried, message: interruptedMessage(attempt, retried ? 'retried' : 'last') };
      // pg-boss counts it as a failed attempt: retried after retryDelaySeconds, or dead.
      await boss.fail(job.name, job.id, { message: outcome.message });
    }
    const db = tenantExecutor(database, job.data.tenant);
    await markFinished(db, job.id, {
      // Retried, or cancelled as declared ('fail'): a failure; the last attempt of a retried job: dead.
      status: !outcome.retried && definition.interrupted !== 'fail' ? 'dead' : 'failure',
      message: outcome.message,
      final: !outcome.retried,
    });
    (outcome.retried ? report.retried : report.failed).push(job.id);
    log.warn({ attempt, retried: outcome.retried }, 'a run of a process that stopped was recovered');
    if (!definition.onInterrupted) continue;
    try {
      const payload = definition.payload.parse(job.data.payload);
      await definition.onInterrupted(await options.contextFor(job.data, log), payload, outcome);
    } catch (error) {
      // The job and job_run are settled; the handler's own record says "running" until its next
      // reader (a procedure result under way with its job over is set to failure when asked).
      log.error({ err: error }, 'the records of an interrupted run could not be brought in line');
    }
  }

  // Runs whose pg-boss job is gone or over while job_run still waits for it: the process stopped
  // between storing the run and sending its job, or between the job's end and the run's.
  const waiting = await rows<{ id: string }>(
    allAreas,
    sql`SELECT id::text AS id FROM job_run
         WHERE (status IN ('queued', 'running') OR (status = 'failure' AND finished_at IS NULL))
           AND (rw_node_gone(node) OR created_at < now() - interval '1 minute')`,
  );
  if (waiting.length > 0) {
    const { rows: states } = (await owner.executeSql(
      `SELECT id::text AS id, state::text AS state FROM ${BOSS_SCHEMA}.job WHERE id = ANY($1::uuid[])`,
      [waiting.map((run) => run.id)],
    )) as { rows: { id: string; state: string }[] };
    const stateOf = new Map(states.map((s) => [s.id, s.state]));
    for (const { id } of waiting) {
      const state = stateOf.get(id);
      if (state === 'created' || state === 'retry' || state === 'active') continue;
      // 'dead': over for good, like a run whose last attempt failed (a procedure result under way
      // with such a job is free to run again: processing/service.ts refuseWhileUnderWay).
      await markFinished(allAreas, id, {
        status: 'dead',
        message:
          state === undefined
            ? 'The server stopped before the run was queued; it is not run'
            : 'The server stopped before the run’s end was recorded',
        final: true,
      });
      report.lost.push(id);
    }
  }
  return report;
}
