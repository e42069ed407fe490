import { processingCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { allProcesses, processesHavingEvents } from '../../modules/processing/service.js';
import { route } from '../register-call.js';

/** GET /domain/processes and /domain/processes/with-events (calls.md §7 "Domain data"). */
export const processRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.processes, async () => allProcesses());
  route(app, calls.processesWithEvents, async (request) => processesHavingEvents(request.ctx));
};
