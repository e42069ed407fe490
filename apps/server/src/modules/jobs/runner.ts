import { randomUUID } from 'node:crypto';
import type { AreaKind, JobRun, Role } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { z } from 'zod';
import type { ReadContext, ServiceContext, TenantContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { outsideTransaction } from '../../db/embedded-session.js';
import { storableText } from '../../db/storable-text.js';
import { allAreasExecutor, tenantExecutor } from '../../db/tenant.js';
import { errorIdOf, UserFacingError, userMessage } from '../../errors.js';
import { rows } from '../domain/sql.js';
import { bossConnection } from './boss-database.js';
import { deadLetterQueue, type JobDefinition, type JobRunHandle } from './define-job.js';
import { recoverInterruptedRuns, type RecoveryReport } from './recovery.js';
import { findRun, insertRun, markFinished, markProgress, markRunning } from './repository.js';

/**
 * What a pg-boss job carries: the area and the actor the handler acts as, and the payload. The run's
 * id is the pg-boss job's id (a retry is the same job, so it updates the same job_run row).
 */
export interface JobEnvelope {
  tenant: string;
  username: string;
  roles: Role[];
  payload: unknown;
  /** Sent by a schedule: no run was stored when it was queued, the worker stores it. */
  scheduled?: boolean;
}

/** Who a scheduled run acts as, and where (a schedule has no request to take them from). */
export interface ScheduleActor {
  tenant: string;
  username: string;
  roles: readonly Role[];
  /** One job may have several schedules (e.g. one per area): each has its own key. */
  key?: string;
  /** The zone the cron expression is read in (default UTC). */
  timeZone?: string;
}

export interface EnqueueOptions {
  /** The data-log entry of the file the run works on. */
  dataLogId?: number | null;
}

/** A job in its dead-letter queue: the run it was, and the error that ended it. */
export interface DeadLetter {
  runId: string | null;
  error: string | null;
}

/**
 * A message waiting in a dead-letter queue, as the queue holds it (DLQ calls, issue 9): its own id,
 * the run it was (job_run id: the first job's id, which a retry keeps), when it landed, the last
 * attempt's error and the envelope it carried.
 */
export interface StoredDeadLetter {
  id: string;
  queue: string;
  runId: string;
  failedAt: string;
  error: string | null;
  envelope: JobEnvelope;
}

export interface JobRunner {
  /** A job of this runner by name (the dead-letter reruns queue a message's job again). */
  job(name: string): JobDefinition;
  /** Starts pg-boss (installing or migrating its schema), creates the queues and starts the workers. */
  start(): Promise<void>;
  /** Stops the workers (waiting up to 10 s for running handlers) and pg-boss; safe to call twice. */
  stop(): Promise<void>;
  /**
   * Settles the attempts of nodes that are gone (recovery.ts): start() does it before its workers;
   * start.ts sweepGoneNodes calls it every few seconds on PostgreSQL. Nothing while not started.
   */
  recover(): Promise<RecoveryReport | undefined>;
  readonly started: boolean;
  /** The pg-boss instance while started, for operators and tests (redrive, queue counts); routes use enqueue. */
  readonly boss: PgBoss | null;
  /**
   * Queues a run of `job` as the context's actor in its area: stores the job_run row (queued) on
   * ctx.db, then sends the pg-boss job. Answers the run id (GET /jobs/{id}). Call it outside a
   * transaction that may still roll back: the worker may start before such a transaction commits.
   */
  enqueue<P extends z.ZodType>(
    ctx: ServiceContext,
    job: JobDefinition<P>,
    payload: z.input<P>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /** Runs `job` on a cron expression as `actor` in their area (automatic intake); replaces the same key's schedule. */
  schedule<P extends z.ZodType>(
    job: JobDefinition<P>,
    cron: string,
    payload: z.input<P>,
    actor: ScheduleActor,
  ): Promise<void>;
  unschedule(job: JobDefinition, key?: string): Promise<void>;
  /**
   * Puts every registered job's declared schedule (JobDefinition.schedule) in place, as its actor in
   * the Administration area, replacing an earlier one (a changed cron takes effect at the next
   * start; pg-boss refuses an invalid expression, so a typo stops the start instead of leaving the
   * job silently off). After start(). Answers what was scheduled, or null when there is no
   * Administration area to run the jobs in (nothing is scheduled then).
   */
  applySchedules(): Promise<{ job: string; cron: string }[] | null>;
  /** The schedules of `job`: key, cron expression, zone, and the area and actor its runs act as. */
  schedules(job: JobDefinition): Promise<{ key: string; cron: string; timeZone: string; envelope: JobEnvelope }[]>;
  /** A run of the context's area (row-level security), as GET /jobs/{id} answers it. */
  getRun(ctx: ReadContext, id: string): Promise<JobRun | null>;
  /** The jobs waiting in `job`'s dead-letter queue (for an operator; redrive is pg-boss's). */
  deadLetters(job: JobDefinition): Promise<DeadLetter[]>;
  /** The registered jobs with their dead-letter queues, in registration order. */
  deadLetterQueues(): { queue: string; job: JobDefinition }[];
  /**
   * The messages of one area waiting in a dead-letter queue, oldest first. pg-boss's tables have no
   * row-level security, so the area is an explicit filter on the envelope here (and the caller also
   * reads the runs through job_run under the area's policy).
   */
  findDeadLetters(queue: string, tenant: string): Promise<StoredDeadLetter[]>;
  /** Removes messages from a dead-letter queue (after they were queued again). */
  removeDeadLetters(queue: string, ids: readonly string[]): Promise<void>;
}

export interface JobRunnerOptions<D = unknown> {
  log: FastifyBaseLogger;
  /** The jobs it queues and works on (src/jobs/index.ts ALL_JOBS, and a test's own). */
  jobs?: readonly JobDefinition<z.ZodType, D>[];
  /**
   * What the handlers work with besides their context (jobs/dependencies.ts JobDependencies), made
   * once, when first needed, from the runner itself (its queues enqueue on it).
   */
  dependencies?: (runner: JobRunner) => D;
  /** How often an idle worker looks for jobs, in seconds (>= 0.5; default 2). New jobs also wake it at once. */
  pollingIntervalSeconds?: number;
  /** false: this process queues runs but works on none (default true). */
  work?: boolean;
}

const STOP_TIMEOUT_MS = 10_000;

/**
 * The handler's answer, or a rejection as soon as pg-boss aborts the attempt (it ran over
 * expireInSeconds, or the runner stops): pg-boss has then failed the job already, so the run record
 * must say so now rather than when (if ever) the handler returns. The handler may watch
 * `run.signal` to stop its work; progress it writes after this is ignored (the run is no longer running).
 */
async function untilAborted<T>(signal: AbortSignal, work: Promise<T>, message: string): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new UserFacingError(message));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    // The handler may still settle later; its rejection has nobody left to hear it.
    work.catch(() => undefined);
  }
}

interface Progress {
  fraction: number;
  message?: string;
}

/**
 * Progress written behind the handler: `report` answers at once, the newest value is written when
 * the previous write is done (values in between are skipped). A handler reports from inside its own
 * transaction (the import reports while it stores the file): awaiting a write there would, on the
 * embedded database's one session, wait for that very transaction (db/embedded-session.ts), and on
 * PostgreSQL only slow the work down. Screens read the newest value from memory meanwhile (getRun).
 */
function progressWriter(write: (progress: Progress) => Promise<void>, onError: (error: unknown) => void) {
  let pending: Progress | undefined;
  let writing: Promise<void> | null = null;
  const drain = async () => {
    while (pending) {
      const next = pending;
      pending = undefined;
      await write(next).catch(onError);
    }
    writing = null;
  };
  return {
    report(progress: Progress) {
      pending = progress;
      writing ??= outsideTransaction(drain);
    },
    /** Every reported value is written. */
    settled: (): Promise<void> => writing ?? Promise.resolve(),
  };
}

/** Builds the runner on `database` (PGlite or PostgreSQL, see boss-database.ts); nothing runs before start(). */
export function createJobRunner<D = unknown>(database: Database, options: JobRunnerOptions<D>): JobRunner {
  const { log } = options;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const jobs = new Map<string, JobDefinition>();
  let deps: { value: D | undefined } | undefined;
  const dependencies = (): D | undefined => (deps ??= { value: options.dependencies?.(runner) }).value;
  let boss: PgBoss | null = null;
  let stopping: Promise<void> | null = null;
  /** The newest progress of the runs this process works on, ahead of its write (progressWriter). */
  const liveProgress = new Map<string, Progress>();

  const register = (job: JobDefinition) => {
    const known = jobs.get(job.name);
    if (known && known !== job) throw new Error(`Two jobs are named ${job.name}`);
    jobs.set(job.name, job);
  };
  for (const job of options.jobs ?? []) register(job);

  const running = (): PgBoss => {
    if (!boss || stopping) throw new Error('The job runner is not running (app.jobs.start())');
    return boss;
  };
  const registered = (job: JobDefinition): JobDefinition => {
    if (jobs.get(job.name) !== job) throw new Error(`Job ${job.name} is not registered with the job runner`);
    return job;
  };

  /** The area as the access hook would resolve it for a request. */
  async function tenantOf(tenant: string): Promise<TenantContext> {
    const [area] = await rows<TenantContext>(
      tenantExecutor(database, tenant),
      sql`SELECT uuid, name, kind, time_zone AS "timeZone" FROM settlement_area WHERE uuid = ${tenant}::uuid`,
    );
    if (!area) throw new Error(`Unknown area ${tenant}`);
    return { ...area, kind: area.kind as AreaKind };
  }

  /** The context a handler of `envelope` acts in: its area, as the user who queued it. */
  async function contextFor(envelope: JobEnvelope, runLog: FastifyBaseLogger): Promise<ServiceContext> {
    const tenant = await tenantOf(envelope.tenant);
    return {
      db: tenantExecutor(database, envelope.tenant),
      tenant,
      actor: { username: envelope.username, roles: [...envelope.roles], areaKind: tenant.kind },
      log: runLog,
    };
  }

  /**
   * Before the workers start: what a process that died left active is settled (recovery.ts; this
   * assumes one working process per database, as the app is).
   */
  async function recover(instance: PgBoss): Promise<RecoveryReport> {
    const recovered = await recoverInterruptedRuns(instance, database, jobs, { log, contextFor });
    const count = Object.values(recovered).reduce((sum, ids) => sum + ids.length, 0);
    if (count > 0) log.warn(recovered, 'runs of a process that stopped were recovered');
    return recovered;
  }

  async function enqueue<P extends z.ZodType>(
    ctx: ServiceContext,
    job: JobDefinition<P>,
    payload: z.input<P>,
    enqueueOptions: EnqueueOptions = {},
  ): Promise<string> {
    const instance = running();
    registered(job);
    const parsed: unknown = job.payload.parse(payload);
    const id = randomUUID();
    const envelope: JobEnvelope = {
      tenant: ctx.tenant.uuid,
      username: ctx.actor.username,
      roles: [...ctx.actor.roles],
      payload: parsed,
    };
    await insertRun(ctx.db, { id, ...envelope, name: job.name, dataLogId: enqueueOptions.dataLogId ?? null });
    try {
      await instance.send(job.name, envelope, { id });
    } catch (error) {
      await markFinished(ctx.db, id, { status: 'dead', message: 'The job could not be queued' }).catch(() => undefined);
      throw error;
    }
    return id;
  }

  /** One attempt of one run: the record follows it, the handler acts as the run's actor in its area. */
  async function work(job: JobDefinition, bossJob: JobWithMetadata<JobEnvelope>): Promise<void> {
    const runId = bossJob.id;
    const envelope = bossJob.data;
    const attempt = bossJob.retryCount + 1;
    const db = tenantExecutor(database, envelope.tenant);
    const runLog = log.child({ job: job.name, runId, attempt });
    if (envelope.scheduled) {
      await insertRun(db, { id: runId, ...envelope, name: job.name, status: 'running' });
    }
    // Missing: the transaction that queued it has not committed (the retry finds it) or rolled back.
    if (!(await markRunning(db, runId, attempt))) throw new Error(`No job_run ${runId} in area ${envelope.tenant}`);
    const progress = progressWriter(
      ({ fraction, message }) => markProgress(db, runId, fraction, message),
      (error) => runLog.warn({ err: error }, 'could not record the job run progress'),
    );
    try {
      const ctx = await contextFor(envelope, runLog);
      const run: JobRunHandle = {
        id: runId,
        attempt,
        signal: bossJob.signal,
        embedded: database.kind === 'pglite',
        enqueue: (payload) => enqueue(ctx, job, payload),
        progress: (fraction, message) => {
          // pg-boss has given up on this attempt: what the handler still reports is not this run's.
          if (bossJob.signal.aborted) return Promise.resolve();
          const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
          const newest = { fraction: clamped, message: message ?? liveProgress.get(runId)?.message };
          liveProgress.set(runId, newest);
          progress.report(newest);
          return Promise.resolve();
        },
      };
      const result = await untilAborted(
        bossJob.signal,
        job.handler(ctx, job.payload.parse(envelope.payload), run, dependencies()),
        `The attempt was stopped: it ran over ${job.expireInSeconds} s, or the server shut down`,
      );
      liveProgress.delete(runId);
      await progress.settled();
      await markFinished(
        db,
        runId,
        typeof result === 'object' && result !== null
          ? { status: result.status, message: result.message, final: true }
          : { status: 'success', message: typeof result === 'string' ? result : null },
      );
    } catch (error) {
      // pg-boss retries while retryCount < retryLimit; the last failure moves the job to <name>__dead.
      liveProgress.delete(runId);
      await progress.settled();
      const dead = bossJob.retryCount >= bossJob.retryLimit;
      // The run's message is for users: a database error's SQL and parameters stay in the log, under
      // the id the message names (errors.ts userMessage).
      const message = userMessage(error);
      runLog.warn(
        { err: error, dead, errorId: errorIdOf(error) },
        dead ? 'job run failed for the last time' : 'job run failed; retrying',
      );
      await markFinished(db, runId, { status: dead ? 'dead' : 'failure', message }).catch((markError: unknown) =>
        runLog.error({ err: markError }, 'could not record the job run failure'),
      );
      // pg-boss stores what it is thrown as jsonb: the error itself may carry NUL or a lone surrogate
      // (a file's bytes in its message or parameters), which jsonb refuses, and the job would stay
      // active until it expires. It gets the user's message, storable.
      throw new Error(storableText(message));
    }
  }

  async function start(): Promise<void> {
    if (boss) return;
    const instance = new PgBoss({
      ...bossConnection(database),
      backend: database.kind === 'pglite' ? 'pglite' : 'postgres',
      application_name: 'railwatt-jobs',
      // A job sent to a `notify` queue wakes its worker at once; polling stays the floor (retries).
      useListenNotify: true,
      // REINDEX CONCURRENTLY cannot run in the transaction every PGlite statement runs in here.
      reindex: database.kind === 'postgres',
      // Vacuum is PostgreSQL's business; PGlite has no autovacuum to watch.
      monitorVacuum: database.kind === 'postgres',
    });
    instance.on('error', (error) => log.error({ err: error }, 'job queue error'));
    instance.on('warning', (warning) => log.warn({ warning }, 'job queue warning'));
    await instance.start();
    try {
      for (const job of jobs.values()) {
        const deadLetter = deadLetterQueue(job);
        // A dead job stays until an operator redrives or deletes it: no worker, no retries there.
        await instance.createQueue(deadLetter, { retryLimit: 0, retentionSeconds: 60 * 60 * 24 * 365 });
        const settings = {
          retryLimit: job.retryLimit,
          retryDelay: job.retryDelaySeconds,
          retryBackoff: job.retryBackoff,
          expireInSeconds: job.expireInSeconds,
          notify: true,
        };
        // createQueue keeps an existing queue as it is; updateQueue brings a changed declaration in.
        await instance.createQueue(job.name, { ...settings, deadLetter });
        await instance.updateQueue(job.name, { ...settings, deadLetter });
      }
      const working = options.work !== false;
      if (working) await recover(instance);
      for (const job of working ? jobs.values() : []) {
        await instance.work(
          job.name,
          {
            includeMetadata: true,
            batchSize: 1,
            pollingIntervalSeconds,
            notifyPollingIntervalSeconds: pollingIntervalSeconds,
          },
          async ([bossJob]: JobWithMetadata<JobEnvelope>[]) => {
            if (bossJob) await work(job, bossJob);
          },
        );
      }
    } catch (error) {
      await instance.stop({ graceful: false, timeout: STOP_TIMEOUT_MS }).catch(() => undefined);
      throw error;
    }
    boss = instance;
    stopping = null;
    log.debug({ jobs: [...jobs.keys()], database: database.kind }, 'job runner started');
  }

  function stop(): Promise<void> {
    if (!boss) return Promise.resolve();
    const instance = boss;
    stopping ??= instance
      .stop({ graceful: true, timeout: STOP_TIMEOUT_MS })
      .catch((error: unknown) => log.error({ err: error }, 'job runner stop failed'))
      .finally(() => {
        boss = null;
      });
    return stopping;
  }

  const runner: JobRunner = {
    job(name) {
      const found = jobs.get(name);
      if (!found) throw new Error(`No job ${name} is registered with the job runner`);
      return found;
    },
    start,
    stop,
    recover: async () => (boss && !stopping ? recover(boss) : undefined),
    get started() {
      return boss !== null && !stopping;
    },
    get boss() {
      return boss;
    },
    enqueue,
    async schedule(job, cron, payload, actor) {
      const instance = running();
      registered(job);
      const envelope: JobEnvelope = {
        tenant: actor.tenant,
        username: actor.username,
        roles: [...actor.roles],
        payload: job.payload.parse(payload),
        scheduled: true,
      };
      await instance.schedule(job.name, cron, envelope, {
        ...(actor.key ? { key: actor.key } : {}),
        tz: actor.timeZone ?? 'UTC',
      });
    },
    async unschedule(job, key) {
      await running().unschedule(registered(job).name, key);
    },
    async applySchedules() {
      const [area] = await rows<{ uuid: string }>(
        allAreasExecutor(database, 'the Administration area of the scheduled jobs'),
        sql`SELECT uuid FROM settlement_area WHERE kind = 'administration' ORDER BY uuid LIMIT 1`,
      );
      if (!area) return null;
      const applied: { job: string; cron: string }[] = [];
      for (const job of jobs.values()) {
        if (!job.schedule) continue;
        const { cron, actor } = job.schedule;
        const expression = typeof cron === 'function' ? cron(dependencies()) : cron;
        await runner.schedule(job, expression, {}, { tenant: area.uuid, username: actor, roles: [], timeZone: 'UTC' });
        applied.push({ job: job.name, cron: expression });
      }
      return applied;
    },
    async schedules(job) {
      const stored = await running().getSchedules(registered(job).name);
      return stored.map((entry) => ({
        key: entry.key,
        cron: entry.cron,
        timeZone: entry.timezone,
        envelope: entry.data as JobEnvelope,
      }));
    },
    async getRun(ctx, id) {
      const run = await findRun(ctx.db, ctx.tenant.uuid, id);
      const live = liveProgress.get(id);
      if (!run || !live || run.status !== 'running') return run;
      return { ...run, progress: live.fraction, message: live.message ?? run.message };
    },
    async deadLetters(job) {
      const dead = await running().findJobs<JobEnvelope>(deadLetterQueue(registered(job)));
      return dead.map((entry) => ({
        runId: entry.sourceRootId ?? entry.sourceId,
        error: (entry.sourceOutput as { message?: string } | null)?.message ?? null,
      }));
    },
    deadLetterQueues: () => [...jobs.values()].map((job) => ({ queue: deadLetterQueue(job), job })),
    async findDeadLetters(queue, tenant) {
      if (![...jobs.values()].some((job) => deadLetterQueue(job) === queue)) return [];
      // Not started (an app built without its runner, as most API tests are): nothing can have
      // landed in a queue this process reads, so there is nothing to show either.
      if (!boss || stopping) return [];
      // Containment on the envelope: only this area's messages leave pg-boss. A dead-letter queue
      // holds what waits for an operator, a few hundred at most, so one read per call is enough.
      const found = await running().findJobs<JobEnvelope>(queue, { data: { tenant }, queued: true });
      return found
        .map((entry) => ({
          id: entry.id,
          queue,
          runId: entry.sourceRootId ?? entry.sourceId ?? entry.id,
          failedAt: entry.createdOn.toISOString(),
          error: (entry.sourceOutput as { message?: string } | null)?.message ?? null,
          envelope: entry.data,
        }))
        .filter((entry) => entry.envelope?.tenant === tenant)
        .sort((a, b) => a.failedAt.localeCompare(b.failedAt) || a.id.localeCompare(b.id));
    },
    async removeDeadLetters(queue, ids) {
      if (ids.length === 0) return;
      await running().deleteJob(queue, [...ids]);
    },
  };
  return runner;
}
