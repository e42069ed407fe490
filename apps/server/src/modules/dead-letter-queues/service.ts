import {
  ESTIMATION_PROCEDURES,
  type DeadLetterMessage,
  type DeadLetterQueue,
  type DeadLetterQueueSummary,
  type DeadLetterRerunResult,
  type ProcedureName,
  type ProcessedObject,
} from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { JobRunner, StoredDeadLetter } from '../jobs/runner.js';
import { resumeFailedResult, type RunQueue } from '../processing/service.js';
import { findDeadRuns, type DeadRun } from './repository.js';

/**
 * Dead letter queues (issue 9 item 1, calls.md §7): the messages of the area that wait in the
 * job runner's `<job>__dead` queues, and their rerun.
 *
 * - **Area isolation.** pg-boss's tables have no row-level security, so a message is read in two
 *   steps that each hold the area: the runner filters the queue by the envelope's tenant, then the
 *   run is read through job_run on the area-bound executor (RLS). A message whose run the area
 *   cannot see is not shown and cannot be rerun.
 * - **Who.** The erex-administrator alone (policy `deadLetterQueues`, product.md §6 "dead letter
 *   queue admin"), on the administration screen and on combine's dead letter page; every queue.
 * - **Rerun** queues the job again with the same payload, as the operator who asks, and removes the
 *   message. A procedure-run message resumes its procedure result (from its unfinished days); one
 *   whose result has finished since is only removed ("settled").
 */

/** The job whose dead runs the process pages show. */
export const PROCEDURE_RUN_JOB = 'procedure-run';

export interface DeadLetterDeps {
  runner: JobRunner;
  /** Queues the procedure-run job for a result (the route's, as for POST /processing/{procedure}/run). */
  queueProcedureRun: RunQueue;
}

interface Message extends DeadLetterMessage {
  stored: StoredDeadLetter;
  run: DeadRun;
}

/** One queue by name: 400 when there is no such queue. */
function namedQueue(runner: JobRunner, name: string) {
  const entry = runner.deadLetterQueues().find((q) => q.queue === name);
  if (!entry) throw ApiError.badRequest('invalid_input', `Unknown dead letter queue ${name}`);
  return entry;
}

const day = (iso: string) => iso.slice(0, 10);

/** What the message was about, in one line a reader understands. */
function processedObject(run: DeadRun): ProcessedObject {
  if (run.procedureResultId !== null && run.procedureName !== null) {
    return {
      kind: 'procedure-result',
      description: `${run.procedureName} ${day(run.periodStart!)} – ${day(run.periodEnd!)} (procedure result ${run.procedureResultId}, ${run.status})`,
      procedureResultId: run.procedureResultId,
      procedureName: run.procedureName,
      dataLogId: null,
    };
  }
  if (run.dataLogId !== null) {
    const what = [run.messageType, run.fileName].filter(Boolean).join(', ');
    return {
      kind: 'data-log',
      description: `Data-log entry ${run.dataLogId}${what ? ` (${what})` : ''}`,
      procedureResultId: null,
      procedureName: null,
      dataLogId: run.dataLogId,
    };
  }
  const payload = JSON.stringify(run.payload ?? {});
  return {
    kind: 'payload',
    description: `${run.name}: ${payload.length > 500 ? `${payload.slice(0, 499)}…` : payload}`,
    procedureResultId: null,
    procedureName: null,
    dataLogId: null,
  };
}

/** The area's messages of one queue, oldest first, each with its run (messages without a visible run are left out). */
async function queueMessages(ctx: ServiceContext, runner: JobRunner, queue: string): Promise<Message[]> {
  const stored = await runner.findDeadLetters(queue, ctx.tenant.uuid);
  const runs = new Map(
    (await findDeadRuns(ctx.db, ctx.tenant.uuid, [...new Set(stored.map((s) => s.runId))])).map((r) => [r.id, r]),
  );
  return stored.flatMap((entry) => {
    const run = runs.get(entry.runId);
    if (!run) return [];
    const object = processedObject(run);
    return [
      {
        id: entry.id,
        queueName: queue,
        runId: run.id,
        failedAt: entry.failedAt,
        reason: entry.error ?? run.message,
        attempts: run.attempts,
        username: run.username,
        processedObject: object,
        estimated: object.procedureName !== null && ESTIMATION_PROCEDURES.includes(object.procedureName),
        stored: entry,
        run,
      },
    ];
  });
}

const counts = (queue: string, jobName: string, messages: readonly Message[]): DeadLetterQueue => ({
  name: queue,
  jobName,
  count: messages.length,
  estimatedCount: messages.filter((m) => m.estimated).length,
});

const publicMessage = ({ stored: _stored, run: _run, ...message }: Message): DeadLetterMessage => message;

/** GET /processing/dead-letter-queues: every queue, with the area's counts (0 included). */
export async function listQueues(ctx: ServiceContext, runner: JobRunner): Promise<DeadLetterQueue[]> {
  const answer: DeadLetterQueue[] = [];
  for (const { queue, job } of runner.deadLetterQueues()) {
    answer.push(counts(queue, job.name, await queueMessages(ctx, runner, queue)));
  }
  return answer;
}

/** GET /processing/dead-letter-queues/queue: one queue's counts and oldest and newest failure. */
export async function queueSummary(
  ctx: ServiceContext,
  runner: JobRunner,
  name: string,
): Promise<DeadLetterQueueSummary> {
  const { queue, job } = namedQueue(runner, name);
  const messages = await queueMessages(ctx, runner, queue);
  return {
    ...counts(queue, job.name, messages),
    oldestFailedAt: messages[0]?.failedAt ?? null,
    newestFailedAt: messages.at(-1)?.failedAt ?? null,
  };
}

export interface MessageFilter {
  queue?: string;
  size: number;
  procedureName?: ProcedureName;
  estimated?: boolean;
}

const matches = (filter: Omit<MessageFilter, 'size'>) => (m: Message) =>
  (filter.procedureName === undefined || m.processedObject.procedureName === filter.procedureName) &&
  (filter.estimated === undefined || m.estimated === filter.estimated);

/** GET /processing/dead-letter-queues/messages: the first `size` messages (oldest first) of one queue or all. */
export async function listMessages(
  ctx: ServiceContext,
  runner: JobRunner,
  filter: MessageFilter,
): Promise<DeadLetterMessage[]> {
  const queues = filter.queue ? [namedQueue(runner, filter.queue)] : runner.deadLetterQueues();
  const all: Message[] = [];
  for (const { queue } of queues) all.push(...(await queueMessages(ctx, runner, queue)));
  return all
    .filter(matches(filter))
    .sort((a, b) => a.failedAt.localeCompare(b.failedAt) || a.id.localeCompare(b.id))
    .slice(0, filter.size)
    .map(publicMessage);
}

/** Queues each message again (resuming a procedure result), then removes it from its queue. */
async function rerunMessages(
  ctx: ServiceContext,
  deps: DeadLetterDeps,
  messages: readonly Message[],
): Promise<DeadLetterRerunResult> {
  const answer: DeadLetterRerunResult = { rerun: 0, settled: 0, runIds: [] };
  for (const message of messages) {
    let runId: string | null;
    if (message.run.name === PROCEDURE_RUN_JOB && message.processedObject.procedureResultId !== null) {
      const resumed = await resumeFailedResult(ctx, deps.queueProcedureRun, message.processedObject.procedureResultId);
      runId = resumed?.jobId ?? null;
    } else {
      const job = deps.runner.job(message.run.name);
      runId = await deps.runner.enqueue(ctx, job, message.stored.envelope.payload, {
        dataLogId: message.run.dataLogId,
      });
    }
    await deps.runner.removeDeadLetters(message.queueName, [message.id]);
    if (runId === null) answer.settled++;
    else {
      answer.rerun++;
      answer.runIds.push(runId);
    }
  }
  return answer;
}

/**
 * POST /processing/dead-letter-queues/{name}/rerun: the named messages (every one must be the
 * area's and in the queue, else 400 and nothing runs) or all of the queue (of one procedure, when
 * named).
 */
export async function rerunQueue(
  ctx: ServiceContext,
  deps: DeadLetterDeps,
  name: string,
  selection: { ids?: readonly string[]; all?: boolean; procedureName?: ProcedureName },
): Promise<DeadLetterRerunResult> {
  const { queue } = namedQueue(deps.runner, name);
  const messages = (await queueMessages(ctx, deps.runner, queue)).filter(
    matches({ procedureName: selection.procedureName }),
  );
  if (selection.all) return rerunMessages(ctx, deps, messages);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const chosen = [...new Set(selection.ids ?? [])].map((id) => {
    const message = byId.get(id);
    if (!message) throw ApiError.badRequest('invalid_input', `Unknown dead letter message ${id} in ${queue}`);
    return message;
  });
  return rerunMessages(ctx, deps, chosen);
}

/** POST /processing/dead-letter-queues/{name}/rerun-estimated: the queue's estimated messages. */
export async function rerunEstimated(
  ctx: ServiceContext,
  deps: DeadLetterDeps,
  name: string,
): Promise<DeadLetterRerunResult> {
  const { queue } = namedQueue(deps.runner, name);
  const messages = (await queueMessages(ctx, deps.runner, queue)).filter((m) => m.estimated);
  return rerunMessages(ctx, deps, messages);
}

/** POST /processing/dead-letter-queues/rerun: every message of every queue the user sees. */
export async function rerunAll(ctx: ServiceContext, deps: DeadLetterDeps): Promise<DeadLetterRerunResult> {
  const answer: DeadLetterRerunResult = { rerun: 0, settled: 0, runIds: [] };
  for (const { queue } of deps.runner.deadLetterQueues()) {
    const one = await rerunMessages(ctx, deps, await queueMessages(ctx, deps.runner, queue));
    answer.rerun += one.rerun;
    answer.settled += one.settled;
    answer.runIds.push(...one.runIds);
  }
  return answer;
}
