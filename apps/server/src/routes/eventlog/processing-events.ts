import { processingCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  countProcessingEvents,
  findProcessingEvents,
  processingEventErrorCodes,
  processingEventResultIds,
  processingEventSeverities,
  summariseProcessingEvents,
} from '../../modules/processing/service.js';
import { exportProcessingEvents } from '../../modules/processing/events-export.js';
import { route } from '../register-call.js';
import { sendStoredFile } from './send-file.js';

/** calls.md §7 "Events and audit log": processing events (declared in contracts calls/processing.ts). */
export const processingEventRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.events, async (request) => findProcessingEvents(request.ctx, request.query, request.body));
  route(app, calls.eventCount, async (request) => countProcessingEvents(request.ctx, request.body));
  route(app, calls.eventSummary, async (request) => summariseProcessingEvents(request.ctx, request.body));
  route(app, calls.eventProcedureResultIds, async (request) => processingEventResultIds(request.ctx, request.body));
  route(app, calls.eventExport, async (request, reply) =>
    sendStoredFile(reply, await exportProcessingEvents(request.ctx, request.query, request.body)),
  );
  route(app, calls.errorCodes, async (request) => processingEventErrorCodes(request.ctx));
  route(app, calls.severities, async () => processingEventSeverities());
  route(app, calls.errorCodesByProcess, async (request) =>
    processingEventErrorCodes(request.ctx, request.params.process),
  );
};
