import { deadLetterQueueCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import {
  listMessages,
  listQueues,
  queueSummary,
  rerunAll,
  rerunEstimated,
  rerunQueue,
  type DeadLetterDeps,
} from '../../modules/dead-letter-queues/service.js';
import { route } from '../register-call.js';

/** calls.md §7 "Dead letter queues and interfaces" (declared in contracts calls/dead-letter-queues.ts). */
export const deadLetterQueueRoutes: FastifyPluginAsync = async (app) => {
  const deps: DeadLetterDeps = {
    runner: app.jobs,
    queueProcedureRun: procedureRunQueue(app.jobs),
  };
  route(app, calls.queues, async (request) => listQueues(request.ctx, app.jobs));
  route(app, calls.messages, async (request) => listMessages(request.ctx, app.jobs, request.query));
  route(app, calls.queue, async (request) => queueSummary(request.ctx, app.jobs, request.query.name));
  route(app, calls.rerun, async (request) => rerunQueue(request.ctx, deps, request.params.name, request.body));
  route(app, calls.rerunEstimated, async (request) => rerunEstimated(request.ctx, deps, request.params.name));
  route(app, calls.rerunAll, async (request) => rerunAll(request.ctx, deps));
};
