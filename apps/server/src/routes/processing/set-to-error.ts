import { dataLogCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { setEntryToError } from '../../modules/datalog/service.js';
import { route } from '../register-call.js';

/** POST /processing/tasks/set-to-error/{id} (calls.md §7 "Data log, settlement"): a report entry to ERROR. */
export const setToErrorRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.setToError, async (request) => setEntryToError(request.ctx, request.params.id));
};
