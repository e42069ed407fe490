import { z } from 'zod';
import { DELAYED_TASKS_ACTOR, runDueDelayedTasks } from '../modules/delayed-tasks/service.js';
import { defineJob } from '../modules/jobs/define-job.js';
import type { JobDependencies } from './dependencies.js';

/** Every quarter of an hour: a task waits at most that long after its late window closed. */
export const DELAYED_TASKS_CRON = '*/15 * * * *';

/**
 * The schedule of delayed tasks (issue 9 item 4): each round starts, in every area, the waiting
 * shunting-and-stabling tasks that are due (modules/delayed-tasks runDueDelayedTasks), each as a
 * procedure run of its day. Runs as the system in the Administration area, where its job_run rows
 * show; the round itself acts in each area with due tasks. One attempt, no retry: the next round
 * takes whatever this one left.
 */
export const delayedTasksJob = defineJob({
  name: 'delayed-tasks',
  payload: z.object({}),
  retryLimit: 0,
  expireInSeconds: 15 * 60,
  schedule: { cron: DELAYED_TASKS_CRON, actor: DELAYED_TASKS_ACTOR },
  handler: async (ctx, _payload, _run, { database, chain }: JobDependencies) => {
    const rounds = await runDueDelayedTasks({ database, queue: chain.run, log: ctx.log }, 'shunting-and-stabling');
    const started = rounds.reduce((n, r) => n + r.results.length, 0);
    return `Started ${started} delayed shunting-and-stabling tasks in ${rounds.length} areas`;
  },
});
