import { reportCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { reportFile } from '../../modules/datalog/service.js';
import { REPORTS } from '../../modules/reports/index.js';
import { describeLocales, listReports } from '../../modules/reports/service.js';
import { sendStoredFile } from '../eventlog/send-file.js';
import { route } from '../register-call.js';

/**
 * calls.md §7 "Reports" (declared in contracts calls/reports.ts): what a user may order, a report's
 * texts, and an ordered report's file. The order is POST /processing/tasks/{reportName}
 * (routes/processing/tasks.ts).
 */
export const reportRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.list, async (request) => listReports(request.ctx, REPORTS, request.query.locale));
  route(app, calls.locales, async (request) => describeLocales(request.ctx, REPORTS, request.params.report));
  route(app, calls.file, async (request, reply) =>
    sendStoredFile(reply, await reportFile(request.ctx, request.params.id)),
  );
};
