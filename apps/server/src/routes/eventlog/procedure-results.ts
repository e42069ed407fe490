import { processingCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  checkStatus,
  findProcedureResults,
  latestResult,
  procedureResultStatuses,
  resultExists,
} from '../../modules/processing/service.js';
import { route } from '../register-call.js';

/** calls.md §7 "Procedure results" (declared in contracts calls/processing.ts). */
export const procedureResultRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.findBy, async (request) => findProcedureResults(request.ctx, request.query, request.body));
  route(app, calls.statuses, async (request) => procedureResultStatuses(request.query.procedureName));
  route(app, calls.checkStatus, async (request) =>
    checkStatus(request.ctx, request.query.procedureName, request.query),
  );
  route(app, calls.exists, async (request) => resultExists(request.ctx, request.query, request.body));
  route(app, calls.findLatest, async (request) => latestResult(request.ctx, request.query, request.body));
};
