import type { DelayedTaskPage, DelayedTaskQuery, ProcedureName, ProcedureResult } from '@railwatt/contracts';
import { systemContexts, type ReadContext, type ServiceContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { mapDatabaseError } from '../../db/constraints.js';
import { allAreasExecutor } from '../../db/tenant.js';
import { ApiError } from '../../errors.js';
import { startRun, type RunQueue } from '../processing/service.js';
import { areasWithDueTasks, countWaiting, dueTasks, findTask, findTaskPage, setTaskStatus } from './repository.js';

/**
 * Delayed tasks (issue 9 item 4): reading them, and starting the procedure run a task stands for.
 * A task is started by "run now" on its page, by "run all due", or by the schedule (jobs/
 * delayed-tasks.ts) once it is due. Starting claims the task (waiting -> started) before the run is
 * queued, so the run's chunk, which marks the started tasks of its day done, never races the claim;
 * a run refused (another run of the same day under way) puts the claim back.
 */

/** Tasks one "run all due" or one scheduled round starts at most per area; the rest wait for the next. */
export const DUE_TASKS_PER_ROUND = 100;

export const countWaitingTasks = (ctx: ReadContext, destination: ProcedureName) =>
  countWaiting(ctx.db, ctx.tenant.uuid, destination);

export async function listDelayedTasks(ctx: ReadContext, query: DelayedTaskQuery): Promise<DelayedTaskPage> {
  const { total, content } = await findTaskPage(ctx.db, ctx.tenant.uuid, query);
  return { content, totalPages: Math.ceil(total / query.size), totalElements: total };
}

const refusedAsBusy = (error: unknown): boolean => {
  const mapped = error instanceof ApiError ? error : mapDatabaseError(error);
  return mapped?.code === 'process_already_running';
};

/**
 * Starts the run of `destination` for each task (one result per task, its area day); answers the
 * results. `skipBusy`: a task whose day is being run already stays waiting for the next round
 * instead of failing the whole request ("run all due" and the schedule); one named task refuses.
 */
async function startTasks(
  ctx: ServiceContext,
  queue: RunQueue,
  destination: ProcedureName,
  tasks: readonly { id: number; status: string; periodStart: string; periodEnd: string }[],
  skipBusy: boolean,
): Promise<ProcedureResult[]> {
  const results: ProcedureResult[] = [];
  for (const task of tasks) {
    const claimed = await setTaskStatus(ctx.db, ctx.tenant.uuid, task.id, 'started', { from: ['waiting', 'started'] });
    if (!claimed) continue;
    try {
      const result = await startRun(ctx, queue, destination, {
        timeRange: { start: task.periodStart, end: task.periodEnd },
        refs: [],
      });
      await setTaskStatus(ctx.db, ctx.tenant.uuid, task.id, 'started', { startedResultId: result.id });
      results.push(result);
    } catch (error) {
      await setTaskStatus(ctx.db, ctx.tenant.uuid, task.id, task.status === 'started' ? 'started' : 'waiting');
      if (skipBusy && refusedAsBusy(error)) continue;
      throw error;
    }
  }
  return results;
}

/**
 * POST /processing/{destination}/run-delayed-task: the task `id` now (waiting, or started again
 * after its run failed; a done or cancelled task is a 400), or without an id every waiting task
 * that is due at `now`.
 */
export async function runDelayedTasks(
  ctx: ServiceContext,
  queue: RunQueue,
  destination: ProcedureName,
  id: number | undefined,
  now: Date = new Date(),
): Promise<ProcedureResult[]> {
  if (id === undefined) {
    const due = await dueTasks(ctx.db, ctx.tenant.uuid, destination, now.toISOString(), DUE_TASKS_PER_ROUND);
    return startTasks(ctx, queue, destination, due, true);
  }
  const task = await findTask(ctx.db, ctx.tenant.uuid, id);
  // Another area's task is unknown here, like one that does not exist.
  if (!task || task.destinationUri !== destination) {
    throw ApiError.badRequest('invalid_input', `Unknown ${destination} delayed task ${id}`);
  }
  if (task.status !== 'waiting' && task.status !== 'started') {
    throw ApiError.badRequest('invalid_input', `The delayed task ${id} is ${task.status}`);
  }
  return startTasks(ctx, queue, destination, [task], false);
}

/** Who the scheduled rounds act as (job_run and procedure_result name them). */
export const DELAYED_TASKS_ACTOR = 'system';

/**
 * One scheduled round (jobs/delayed-tasks.ts): in every area with due waiting tasks, starts them as
 * "run all due" would, acting as the system in that area. Answers the results started per area.
 */
export async function runDueDelayedTasks(
  deps: { database: Database; queue: RunQueue; log: ServiceContext['log'] },
  destination: ProcedureName,
  now: Date = new Date(),
): Promise<{ tenant: string; results: ProcedureResult[] }[]> {
  const tenants = await areasWithDueTasks(
    allAreasExecutor(deps.database, 'the scheduled round of due delayed tasks'),
    now.toISOString(),
  );
  if (tenants.length === 0) return [];
  const contexts = await systemContexts(
    deps.database,
    { username: DELAYED_TASKS_ACTOR, log: deps.log, why: 'the areas of due delayed tasks' },
    tenants,
  );
  const answers: { tenant: string; results: ProcedureResult[] }[] = [];
  for (const ctx of contexts) {
    answers.push({
      tenant: ctx.tenant.uuid,
      results: await runDelayedTasks(ctx, deps.queue, destination, undefined, now),
    });
  }
  return answers;
}
