import { DEAD_LETTER_QUEUE_SUFFIX } from '@railwatt/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../../context.js';

/**
 * What a handler may answer besides a message: a finished outcome. `failure` ends the run as failed
 * WITHOUT a retry: the job did its work and the answer is a refusal (a file refused for its content
 * fails the same way every time). A thrown error is a failed attempt that pg-boss retries.
 */
export interface JobOutcome {
  status: 'success' | 'failure';
  message: string;
}
export type JobResult = string | void | JobOutcome;

/** What a handler gets besides its context and payload: the run it works for. */
export interface JobRunHandle {
  /** The job_run id (also the pg-boss job id): GET /jobs/{id} shows this run. */
  id: string;
  /** 1 on the first attempt, 2 on the first retry ... */
  attempt: number;
  /**
   * Aborted when pg-boss gives up on this attempt (it ran over expireInSeconds) or the runner stops:
   * long work checks it and stops; the attempt is recorded as failed at once either way.
   */
  signal: AbortSignal;
  /**
   * The run works on the embedded database (PGlite): its statements run on the server's thread and
   * hold the one session, so long work keeps them short (db/embedded-session.ts).
   */
  embedded: boolean;
  /** Stores how far the run is (0..1, clamped) and, when given, a message screens show beside it. */
  progress(fraction: number, message?: string): Promise<void>;
  /**
   * Queues another run of the same job with `payload` (checked against the job's schema), as this
   * run's actor in its area; answers its run id. A procedure run asks other nodes to help with its
   * days this way (processing/run.ts). Absent where a run is driven by hand (benches).
   */
  enqueue?(payload: unknown): Promise<string>;
}

/**
 * When a job runs by itself: on a cron expression (read in UTC), as `actor` (the system, no roles)
 * in the Administration area, where its job_run rows show (the job acts across areas itself). The
 * runner puts every declared schedule in place at the start (JobRunner.applySchedules).
 */
export interface JobSchedule<D = unknown> {
  /**
   * The cron expression, or the setting of the app's dependencies that holds it. (Method syntax: a
   * job of any dependencies is a JobDefinition, as with `handler`.)
   */
  cron: string | { fromDeps(deps: D): string }['fromDeps'];
  actor: string;
}

/**
 * A background procedure, declared once: its name (the pg-boss queue; the dead-letter queue is
 * `<name>__dead`), the contract of its payload (checked when it is queued and again when it runs),
 * its schedule if it runs by itself, and the handler. The handler acts as the user who queued the
 * run, in that user's area: `ctx.db` is bound to the area (row-level security) exactly as on a
 * request; what it works with besides (the database, the queues, the procedures, settings) is the
 * runner's `deps` (jobs/dependencies.ts JobDependencies), passed in, never imported. Its answer, when
 * a string, becomes the run's final message. A handler that throws fails the attempt; pg-boss
 * retries it `retryLimit` times, then the run is 'dead' and the job waits in the dead-letter queue.
 */
export interface JobDefinition<P extends z.ZodType = z.ZodType, D = unknown> {
  readonly name: string;
  readonly payload: P;
  /** Retries after the first attempt (default 2). */
  readonly retryLimit: number;
  /** Seconds before a retry (default 5; with retryBackoff, the first of growing delays). */
  readonly retryDelaySeconds: number;
  readonly retryBackoff: boolean;
  /** How long one attempt may run before pg-boss fails it (default 15 minutes). */
  readonly expireInSeconds: number;
  /**
   * An attempt whose process died (found at the next start, recovery.ts): 'retry' (default) counts
   * it as a failed attempt, so pg-boss runs it again after retryDelaySeconds while retries remain
   * (a run that kills its process every time still ends in the dead-letter queue); 'fail' ends the
   * run there, failed, without a retry.
   */
  readonly interrupted: InterruptedAttempt;
  /**
   * Brings the job's own records in line with an interrupted attempt (recovery.ts calls it once,
   * after job_run and the pg-boss job say what happens next): `retried` when another attempt follows.
   */
  onInterrupted?(ctx: ServiceContext, payload: z.output<P>, outcome: InterruptedOutcome): Promise<void>;
  readonly schedule?: JobSchedule<D>;
  // Method syntax: a list of jobs of different payloads is a JobDefinition[] (parameters are bivariant).
  handler(ctx: ServiceContext, payload: z.output<P>, run: JobRunHandle, deps: D): Promise<JobResult>;
}

export interface JobDeclaration<P extends z.ZodType, D> {
  name: string;
  payload: P;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  interrupted?: InterruptedAttempt;
  onInterrupted?: (ctx: ServiceContext, payload: z.output<P>, outcome: InterruptedOutcome) => Promise<void>;
  schedule?: JobSchedule<D>;
  handler: (ctx: ServiceContext, payload: z.output<P>, run: JobRunHandle, deps: D) => Promise<JobResult>;
}

/** What becomes of an attempt whose process died: see JobDefinition.interrupted. */
export type InterruptedAttempt = 'retry' | 'fail';

/** What recovery decided for an interrupted attempt, and the message job_run got. */
export interface InterruptedOutcome {
  /** The attempt that was interrupted (1 = the first). */
  attempt: number;
  /** Another attempt follows (pg-boss retries the job); false: the run has ended, failed. */
  retried: boolean;
  message: string;
}

/** The suffix of every job's dead-letter queue (contracts DEAD_LETTER_QUEUE_SUFFIX, which screens read). */
const DEAD_LETTER_SUFFIX = DEAD_LETTER_QUEUE_SUFFIX;

// pg-boss accepts letters, digits, '-', '_', '.' and '/'; ours are kebab-case nouns like the files in jobs/.
const JOB_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Declares a job (one file per job in src/jobs/, named after it). */
export function defineJob<P extends z.ZodType, D = unknown>(declaration: JobDeclaration<P, D>): JobDefinition<P, D> {
  if (!JOB_NAME.test(declaration.name)) {
    throw new Error(`Job name "${declaration.name}" must be kebab-case (letters, digits, single dashes)`);
  }
  const retryLimit = declaration.retryLimit ?? 2;
  const retryDelaySeconds = declaration.retryDelaySeconds ?? 5;
  if (!Number.isInteger(retryLimit) || retryLimit < 0) throw new Error('retryLimit must be a whole number >= 0');
  if (!Number.isInteger(retryDelaySeconds) || retryDelaySeconds < 0) {
    throw new Error('retryDelaySeconds must be a whole number >= 0');
  }
  return {
    name: declaration.name,
    payload: declaration.payload,
    retryLimit,
    retryDelaySeconds,
    retryBackoff: declaration.retryBackoff ?? false,
    expireInSeconds: declaration.expireInSeconds ?? 15 * 60,
    interrupted: declaration.interrupted ?? 'retry',
    ...(declaration.onInterrupted ? { onInterrupted: declaration.onInterrupted } : {}),
    ...(declaration.schedule ? { schedule: declaration.schedule } : {}),
    handler: declaration.handler,
  };
}

/** The dead-letter queue of a job. */
export const deadLetterQueue = (job: Pick<JobDefinition, 'name'>): string => `${job.name}${DEAD_LETTER_SUFFIX}`;
