import {
  dayStartInZone,
  nextPeriodStart,
  UNDER_WAY_STATUSES,
  type ProcedureName,
  type ProcedureRunOptions,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { UserFacingError, userMessage } from '../../errors.js';
import { rows } from '../domain/sql.js';
import type { JobResult, JobRunHandle } from '../jobs/define-job.js';
import { areaDays, type Chunk } from './chunks.js';
import { queueFollowers, type ChainQueue } from './chain.js';
import type { ChunkScope, ProcedureDefinition, Procedures } from './define-procedure.js';
import { markDue, processedBefore, takeDueMark } from './due-days.js';
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
  const dueFollowers = followersKeepingDueDays(implementation, procedures);
  const chunks = areaDays(result.periodStart, result.periodEnd, ctx.tenant.timeZone);
  let done = await finishedChunks(ctx.db, result.id);
  let remaining = chunks.flatMap((chunk, index) => (done.has(chunk.start) ? [] : [{ ...chunk, index }]));
  let finished = chunks.length - remaining.length;
  // The run's days are counted once it starts (they depend on the area's zone); screens read
  // "12 of 31 days" from them and its finished chunks (repository PROGRESS_COUNTS).
  await updateResult(ctx.db, result.id, { chunksTotal: chunks.length });
  const progressMessage = () => `${finished} of ${chunks.length} days processed`;
  await run.progress(finished / chunks.length, progressMessage());
  const lanes = implementation.concurrency ?? 1;
  // Days that do not depend on each other are shared with the other nodes (ARCHITECTURE.md "Several
  // nodes"): another run of this job helps (helpRun below), taken by a node whose procedure-run
  // worker is free, which this node's is not while it runs this.
  if (!run.embedded && lanes > 1 && remaining.length > 1 && run.enqueue) {
    for (let helper = 0; helper < RUN_HELPERS; helper++) {
      await run.enqueue({ procedureResultId: result.id, helping: true });
    }
  }

  try {
    // Until every day is done: the days another node holds are waited for, and taken over when that
    // node lets them go undone (it stopped, or its day failed).
    for (;;) {
      const elsewhere = await forEachDay(ctx, implementation, { ...result, options }, remaining, chunks.length, {
        lanes,
        dueFollowers,
        claim: !run.embedded,
        signal: run.signal,
        onDone: async () => {
          finished++;
          await run.progress(finished / chunks.length, progressMessage());
        },
      });
      if (elsewhere.length === 0) break;
      await sleep(HELD_DAY_POLL_MS, run.signal);
      done = await finishedChunks(ctx.db, result.id);
      remaining = elsewhere.filter((chunk) => !done.has(chunk.start));
      if (finished !== done.size) {
        finished = done.size;
        await run.progress(finished / chunks.length, progressMessage());
      }
    }
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
  finished = (await finishedChunks(ctx.db, result.id)).size;
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

/**
 * Helpers a run of days that do not depend on each other asks for (one: a second node works on the
 * run's days beside the node that runs it; a third node takes the next run).
 */
export const RUN_HELPERS = 1;

/** How often a run looks again at days another node holds. */
const HELD_DAY_POLL_MS = 250;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

type RunRecord = { id: number; procedureName: string; periodStart: string; periodEnd: string } & {
  entityRefs: { uuid: string; type: string }[];
  refTime: string | null;
  options: ProcedureRunOptions;
};

/**
 * Does `days` `lanes` at a time; answers the days another node held (claimed and not finished when
 * this one came to them). A day that throws stops taking new ones and is thrown.
 */
async function forEachDay(
  ctx: ServiceContext,
  implementation: ProcedureDefinition,
  result: RunRecord,
  days: readonly (Chunk & { index: number })[],
  count: number,
  options: {
    lanes: number;
    /** The followers whose due days a chunk that did its work marks (due-days.ts). */
    dueFollowers: readonly ProcedureName[];
    claim: boolean;
    signal: AbortSignal;
    onDone(): Promise<void>;
  },
): Promise<(Chunk & { index: number })[]> {
  const elsewhere: (Chunk & { index: number })[] = [];
  await forEachLimited(days, options.lanes, async (chunk) => {
    if (options.signal.aborted) throw new UserFacingError('The run was stopped before it finished');
    const outcome = await runChunk(ctx, implementation, result, chunk, count, options);
    if (outcome === 'done') await options.onDone();
    else if (outcome === 'held') elsewhere.push(chunk);
  });
  return elsewhere;
}

/**
 * A helper's run (the `procedure-run` job with `helping`, queued by executeRun on PostgreSQL): it
 * does the result's unfinished days that no node holds, as many at once as the procedure allows,
 * and ends when none is left to take. It never decides the result: the run that queued it waits
 * for every day and finishes it, and does again a day this helper failed (the error is then the
 * run's). So a helper never fails: its message says what it did.
 */
export async function helpRun(
  ctx: ServiceContext,
  procedureResultId: number,
  run: JobRunHandle,
  procedures: Procedures,
): Promise<JobResult> {
  const result = await findResult(ctx.db, ctx.tenant.uuid, procedureResultId);
  if (!result || result.status !== 'running') return `Procedure result ${procedureResultId} needs no help`;
  const implementation = procedures.get(result.procedureName);
  if (!implementation || run.embedded) return `Procedure result ${procedureResultId} is not shared`;
  const options = await resultOptions(ctx.db, result.id);
  const chunks = areaDays(result.periodStart, result.periodEnd, ctx.tenant.timeZone);
  const done = await finishedChunks(ctx.db, result.id);
  const remaining = chunks.flatMap((chunk, index) => (done.has(chunk.start) ? [] : [{ ...chunk, index }]));
  let helped = 0;
  try {
    await forEachDay(ctx, implementation, { ...result, options }, remaining, chunks.length, {
      lanes: implementation.concurrency ?? 1,
      dueFollowers: followersKeepingDueDays(implementation, procedures),
      claim: true,
      signal: run.signal,
      onDone: async () => {
        helped++;
        await run.progress(helped / Math.max(1, remaining.length), `${helped} days of result ${result.id} done here`);
      },
    });
  } catch (error) {
    ctx.log.warn({ err: error, procedureResultId }, 'a day a helper took failed; the run does it again');
    return `${helped} days of procedure result ${result.id} done here; then a day failed: ${userMessage(error)}`;
  }
  return `${helped} days of procedure result ${result.id} done here`;
}

/**
 * The day's claim (PostgreSQL, where several nodes may take the same run's days): a transaction lock
 * on (result, day), held until the day's transaction ends. Taken as the transaction's first
 * statement; its finished-mark is looked for in the next statement, which sees what the previous
 * holder committed before it let go. So a day is done once: a second taker finds it held (and
 * comes back later) or done (and skips it).
 */
async function claimDay(tx: ServiceContext['db'], resultId: number, start: string): Promise<'free' | 'held' | 'done'> {
  const [lock] = await rows<{ held: boolean }>(
    tx,
    sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${`procedure_chunk:${resultId}:${start}`}, 0)) AS held`,
  );
  if (!lock?.held) return 'held';
  const [finished] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM procedure_chunk
         WHERE procedure_result_id = ${resultId} AND chunk_start = ${start}::timestamptz`,
  );
  return finished?.n ? 'done' : 'free';
}

async function runChunk(
  ctx: ServiceContext,
  implementation: ProcedureDefinition,
  result: RunRecord,
  chunk: Chunk & { index: number },
  count: number,
  { claim, dueFollowers }: { claim: boolean; dueFollowers: readonly ProcedureName[] },
): Promise<'done' | 'held' | 'done-elsewhere'> {
  const tenant = ctx.tenant.uuid;
  const afterCommit: ((ctx: ServiceContext) => Promise<void>)[] = [];
  const outcome = await ctx.db.transaction(async (tx) => {
    if (claim) {
      const state = await claimDay(tx, result.id, chunk.start);
      if (state === 'held') return 'held' as const;
      if (state === 'done') return 'done-elsewhere' as const;
    }
    const chunkCtx = { ...ctx, db: tx };
    const scope: ChunkScope = {
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
    };
    if (!(await chunkIsDue(chunkCtx, implementation, scope))) {
      // Nothing changed for this day since the procedure processed it: done, with no records
      // (repository SUPERSEDED_EVENT keeps the day's earlier events standing).
      await markChunkDone(tx, tenant, result.id, chunk, count, 0);
      return 'done' as const;
    }
    const events: NewEvent[] = [];
    let records: number | null = null;
    // What this chunk recorded in an earlier attempt is replaced, like the procedure's own writes.
    await deleteChunkEvents(tx, result.id, chunk.start);
    await implementation.run(chunkCtx, scope, {
      event: (event) => {
        // A code the definition does not declare is a programming error, found by the procedure's tests.
        if (!implementation.events.includes(event.errorCode))
          throw new Error(`${implementation.name} records an undeclared event code ${event.errorCode}`);
        events.push(event);
      },
      afterCommit: (work) => void afterCommit.push(work),
      records: (count) => void (records = (records ?? 0) + count),
    });
    await insertEvents(
      tx,
      tenant,
      { procedureResultId: result.id, processName: result.procedureName, chunkStart: chunk.start },
      events,
    );
    await markDue(tx, tenant, dueFollowers, wholeDay(chunk.day, ctx.tenant.timeZone));
    await markChunkDone(tx, tenant, result.id, chunk, count, records);
    return 'done' as const;
  });
  if (outcome !== 'done') return outcome;
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
  return 'done';
}

/** The followers of `implementation` that keep due days (due-days.ts): what its chunks mark. */
function followersKeepingDueDays(implementation: ProcedureDefinition, procedures: Procedures): ProcedureName[] {
  return implementation.followers.filter((name) => procedures.get(name)?.keepsDueDays === true);
}

/**
 * Whether the chunk does its work. A procedure keeping due days takes the day's mark first when the
 * run covers the whole area (a run limited to some entities leaves the rest of the day due); with
 * option onlyDue, a day is done only when it was marked, or never processed, or the procedure's own
 * isDue says so. Without onlyDue every day is done.
 */
async function chunkIsDue(
  ctx: ServiceContext,
  implementation: ProcedureDefinition,
  scope: ChunkScope,
): Promise<boolean> {
  const tenant = ctx.tenant.uuid;
  const wholeArea = scope.run.refs.length === 0;
  const marked =
    implementation.keepsDueDays && wholeArea ? await takeDueMark(ctx.db, tenant, implementation.name, scope) : false;
  if (!scope.run.options.onlyDue) return true;
  if (implementation.isDue) return implementation.isDue(ctx, scope);
  if (!implementation.keepsDueDays) return true;
  return marked || !(await processedBefore(ctx.db, tenant, implementation.name, scope.run.procedureResultId, scope));
}

/** The area day `day` whole, [start, end) (a chunk a run's period clips marks the whole day). */
function wholeDay(day: string, timeZone: string): { start: string; end: string } {
  const start = dayStartInZone(day, timeZone);
  return { start, end: nextPeriodStart(start, 'P1D', timeZone).toISOString() };
}
