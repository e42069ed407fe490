import { reportScheduleCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { REPORTS } from '../../modules/reports/index.js';
import { deleteSchedule, listSchedules, saveSchedule } from '../../modules/report-schedules/service.js';
import { route } from '../register-call.js';

export interface ReportScheduleRouteOptions {
  /** config.interfaceCredentialsKey (INTERFACE_CREDENTIALS_KEY), undefined for the stored key. */
  credentialsKey: Buffer | undefined;
}

/**
 * calls.md §7 "Reports": GET/POST /processing/scheduledreports, POST .../with-credentials and
 * DELETE .../{id} (contracts calls/report-schedules.ts; modules/report-schedules).
 */
export const reportScheduleRoutes: FastifyPluginAsync<ReportScheduleRouteOptions> = async (app, options) => {
  route(app, calls.list, async (request) => listSchedules(request.ctx, REPORTS, request.query));
  route(app, calls.save, async (request) =>
    saveSchedule(request.ctx, REPORTS, options.credentialsKey, request.body, false),
  );
  route(app, calls.saveWithCredentials, async (request) =>
    saveSchedule(request.ctx, REPORTS, options.credentialsKey, request.body, true),
  );
  route(app, calls.remove, async (request) => deleteSchedule(request.ctx, REPORTS, request.params.id));
};
