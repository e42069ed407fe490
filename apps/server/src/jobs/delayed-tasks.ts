import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { allAreasExecutor } from '../db/tenant.js';
import { rows } from '../modules/domain/sql.js';
import { DELAYED_TASKS_ACTOR, runDueDelayedTasks } from '../modules/delayed-tasks/service.js';
import { defineJob, type JobDefinition } from '../modules/jobs/define-job.js';
import type { JobRunner } from '../modules/jobs/runner.js';
import type { RunQueue } from '../modules/processing/service.js';

export const DELAYED_TASKS_JOB = 'delayed-tasks';

/** Every quarter of an hour: a task waits at most that long after its late window closed. */
export const DELAYED_TASKS_CRON = '*/15 * * * *';

/**
 * The schedule of delayed tasks (issue 9 item 4): each round starts, in every area, the waiting
 * shunting-and-stabling tasks that are due (modules/delayed-tasks runDueDelayedTasks), each as a
 * procedure run of its day. Made by the app (it needs the database and the run queue); one attempt,
 * no retry: the next round takes whatever this one left.
 */
export const createDelayedTasksJob = (deps: { database: Database; queue: RunQueue }): JobDefinition =>
  defineJob({
    name: DELAYED_TASKS_JOB,
    payload: z.object({}),
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    handler: async (ctx) => {
      const rounds = await runDueDelayedTasks({ ...deps, log: ctx.log }, 'shunting-and-stabling');
      const started = rounds.reduce((n, r) => n + r.results.length, 0);
      return `Started ${started} delayed shunting-and-stabling tasks in ${rounds.length} areas`;
    },
  });

/**
 * Puts the delayed tasks on their schedule (server.ts, after app.jobs.start()), like the SFTP intake:
 * runs as the system in the Administration area, where their job_run rows show; the round itself
 * acts in each area with due tasks. Answers the area the runs act in, or null when there is none.
 */
export async function scheduleDelayedTasks(
  jobs: JobRunner,
  database: Database,
  cron: string = DELAYED_TASKS_CRON,
): Promise<{ tenant: string } | null> {
  const [area] = await rows<{ uuid: string }>(
    allAreasExecutor(database, 'the Administration area of the scheduled delayed tasks'),
    sql`SELECT uuid FROM settlement_area WHERE kind = 'administration' ORDER BY uuid LIMIT 1`,
  );
  if (!area) return null;
  await jobs.schedule(
    jobs.job(DELAYED_TASKS_JOB),
    cron,
    {},
    { tenant: area.uuid, username: DELAYED_TASKS_ACTOR, roles: [], timeZone: 'UTC' },
  );
  return { tenant: area.uuid };
}
