import { UNDER_WAY_STATUSES, type ProcedureRunOptions } from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { UserFacingError, userMessage } from '../../errors.js';
import type { JobResult, JobRunHandle } from '../jobs/define-job.js';
import { areaDays, type Chunk } from './chunks.js';
import { queueFollowers, type ChainQueue } from './chain.js';
import type { ProcedureDefinition, Procedures } from './define-procedure.js';
import {
  deleteChunkEvents,
  findResult,
  finishedChunks,
  insertEvents,
  markChunkDone,
  resultCause,
  resultOptions,
  updateResult,
  type NewEvent,
} from './repository.js';

/**
 * The message of a run of a procedure without a definition: src/procedures.ts ALL_PROCEDURES defines
 * every procedure of contracts PROCEDURES (procedures.test.ts holds it), so this is a process given
 * another list (a test's), and the run fails rather than pretend.
 */
export const noImplementation = (procedureName: string): string =>
  `${procedureName} has no definition in this process's procedures`;

/** What a run is given besides its context: the procedures, the chain's queue, the job's retries. */
export interface RunDependencies {
  procedures: Procedures;
  /** Queues the followers of a successful run; without it none is queued (the settlement bench). */
  chain?: Pick<ChainQueue, 'followUp'>;
  /** The job's retries: the last attempt's failure ends the result as failure. */
  retryLimit: number;
}

/**
 * Runs `work` over `items`, at most `limit` at once; the first failure stops taking new items and is
 * thrown. Exported for bench/combine.ts, which runs combine's days as a run does.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed) throw failed.error;
}

/**
 * Executes one procedure result (the `procedure-run` job's handler). The period is split into area
 * days (chunks.ts); each chunk runs in its own transaction with its events and its done-mark, so a
 * crash loses at most the chunks in flight, and a retry or a resumed run skips the chunks already
 * done. A chunk that throws fails the attempt: the result stays running while the job retries it,
 * and becomes failure on the last attempt (the job then lands in the dead-letter queue).
 */
export async function executeRun(
  ctx: ServiceContext,
  procedureResultId: number,
  run: JobRunHandle,
  { procedures, chain, retryLimit }: RunDependencies,
): Promise<JobResult> {
  const tenant = ctx.tenant.uuid;
  const result = await findResult(ctx.db, tenant, procedureResultId);
  if (!result) return { status: 'failure', message: `No procedure result ${procedureResultId}` };
  if (!UNDER_WAY_STATUSES.includes(result.status)) {
    // A job delivered again after its run finished (or was set to failure by an operator).
    return { status: 'success', message: `Procedure result ${procedureResultId} is already ${result.status}` };
  }
  await updateResult(ctx.db, result.id, { status: 'running', jobId: run.id, finished: false });

  // A run the chain started says so in its final message (the progress messages replace it meanwhile).
  const cause = await resultCause(ctx.db, result.id);
  const withCause = (message: string) => (cause ? `${message}; ${cause}` : message);
  const implementation = procedures.get(result.procedureName);
  if (!implementation) {
    const message = withCause(noImplementation(result.procedureName));
    await updateResult(ctx.db, result.id, { status: 'failure', message, finished: true });
    return message;
  }

  const options = await resultOptions(ctx.db, result.id);
  const chunks = areaDays(result.periodStart, result.periodEnd, ctx.tenant.timeZone);
  const done = await finishedChunks(ctx.db, result.id);
  const remaining = chunks.flatMap((chunk, index) => (done.has(chunk.start) ? [] : [{ ...chunk, index }]));
  let finished = chunks.length - remaining.length;
  // The run's days are counted once it starts (they depend on the area's zone); screens read
  // "12 of 31 days" from them and its finished chunks (repository PROGRESS_COUNTS).
  await updateResult(ctx.db, result.id, { chunksTotal: chunks.length });
  const progressMessage = () => `${finished} of ${chunks.length} days processed`;
  await run.progress(finished / chunks.length, progressMessage());

  try {
    await forEachLimited(remaining, implementation.concurrency, async (chunk) => {
      if (run.signal.aborted) throw new UserFacingError('The run was stopped before it finished');
      await runChunk(ctx, implementation, { ...result, options }, chunk, chunks.length);
      finished++;
      await run.progress(finished / chunks.length, progressMessage());
    });
  } catch (error) {
    const last = run.attempt > retryLimit;
    // The result's words: a refusal written for users as it is, anything else as an id the log keeps
    // the error under (a database error quotes its SQL and parameters).
    const message = last
      ? `Failed after ${run.attempt} attempts: ${userMessage(error)}`
      : `Attempt ${run.attempt} failed, to be retried: ${userMessage(error)}`;
    await updateResult(ctx.db, result.id, last ? { status: 'failure', message, finished: true } : { message });
    throw error;
  }
  // An operator may have set the result to failure while its days ran
  // (set-settlement-procedure-to-failure): the verdict stands, the run does not overwrite it.
  const now = await findResult(ctx.db, tenant, result.id);
  if (now && now.status !== 'running') {
    return { status: 'failure', message: now.message ?? `Procedure result ${result.id} is ${now.status}` };
  }
  const message = withCause(progressMessage());
  await updateResult(ctx.db, result.id, { status: 'success', progress: 1, message, finished: true });
  await queueFollowers(ctx, result, procedures, chain);
  return message;
}

async function runChunk(
  ctx: ServiceContext,
  implementation: ProcedureDefinition,
  result: { id: number; procedureName: string; periodStart: string; periodEnd: string } & {
    entityRefs: { uuid: string; type: string }[];
    refTime: string | null;
    options: ProcedureRunOptions;
  },
  chunk: Chunk & { index: number },
  count: number,
): Promise<void> {
  const tenant = ctx.tenant.uuid;
  const afterCommit: ((ctx: ServiceContext) => Promise<void>)[] = [];
  await ctx.db.transaction(async (tx) => {
    const events: NewEvent[] = [];
    let records: number | null = null;
    // What this chunk recorded in an earlier attempt is replaced, like the procedure's own writes.
    await deleteChunkEvents(tx, result.id, chunk.start);
    await implementation.run(
      { ...ctx, db: tx },
      {
        start: chunk.start,
        end: chunk.end,
        chunk: { index: chunk.index, count, day: chunk.day },
        run: {
          procedureResultId: result.id,
          period: { start: result.periodStart, end: result.periodEnd },
          refs: result.entityRefs,
          refTime: result.refTime,
          options: result.options,
        },
      },
      {
        event: (event) => {
          // A code the definition does not declare is a programming error, found by the procedure's tests.
          if (!implementation.events.includes(event.errorCode))
            throw new Error(`${implementation.name} records an undeclared event code ${event.errorCode}`);
          events.push(event);
        },
        afterCommit: (work) => void afterCommit.push(work),
        records: (count) => void (records = (records ?? 0) + count),
      },
    );
    await insertEvents(
      tx,
      tenant,
      { procedureResultId: result.id, processName: result.procedureName, chunkStart: chunk.start },
      events,
    );
    await markChunkDone(tx, tenant, result.id, chunk, count, records);
  });
  // The chunk is committed: what it handed over for later (metered-energy-aggregation queues the
  // delivery of its files) runs now, outside the transaction. Its failure is logged, not the run's:
  // the chunk's work stands, and a rerun of the chunk would write it again.
  for (const work of afterCommit) {
    try {
      await work(ctx);
    } catch (error) {
      ctx.log.error({ err: error, procedureResultId: result.id, day: chunk.day }, 'work after a chunk failed');
    }
  }
}
