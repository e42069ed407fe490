import { delayedTaskCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import { countWaitingTasks, listDelayedTasks, runDelayedTasks } from '../../modules/delayed-tasks/service.js';
import { route } from '../register-call.js';

/**
 * Delayed tasks (issue 9 item 4): GET /eventlog/delayed-tasks/count and the list for the
 * "delayedtasks" page, and POST /processing/shunting-and-stabling/run-delayed-task, which starts a
 * task's run now (a `procedure-run` job, like POST /processing/{procedure}/run; that route stays
 * the parameterised one, this path is its own static route).
 */
export const delayedTaskRoutes: FastifyPluginAsync = async (app) => {
  const queue = procedureRunQueue(app.jobs);
  route(app, calls.count, async (request) => countWaitingTasks(request.ctx, request.query.destinationUri));
  route(app, calls.list, async (request) => listDelayedTasks(request.ctx, request.query));
  route(app, calls.runShuntingAndStabling, async (request) =>
    runDelayedTasks(request.ctx, queue, 'shunting-and-stabling', request.body?.id),
  );
};
