import { reportCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { reportFile } from '../../modules/datalog/service.js';
import { ALL_REPORTS } from '../../modules/reports/index.js';
import { describeLocales, listReports, reportTable } from '../../modules/reports/service.js';
import { sendStoredFile } from '../eventlog/send-file.js';
import { route } from '../register-call.js';

/**
 * calls.md §7 "Reports" (declared in contracts calls/reports.ts): what a user may order, a report's
 * texts, and an ordered report's file. The order is POST /processing/tasks/{reportName}
 * (routes/processing/tasks.ts).
 */
export const reportRoutes: FastifyPluginAsync = async (app) => {
  const reports = reportTable(ALL_REPORTS);
  route(app, calls.list, async (request) => listReports(request.ctx, reports, request.query.locale));
  route(app, calls.locales, async (request) => describeLocales(request.ctx, reports, request.params.report));
  route(app, calls.file, async (request, reply) =>
    sendStoredFile(reply, await reportFile(request.ctx, request.params.id)),
  );
};
