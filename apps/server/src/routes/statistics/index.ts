import { statisticsCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ALL_JOBS } from '../../jobs/index.js';
import {
  cebdDeliveryInfo,
  cebdStatistics,
  completenessVerification,
  dashboardEvents,
  dashboardStatistics,
  queueSize,
  waitingWork,
  type WaitingJobs,
} from '../../modules/statistics/service.js';
import { route } from '../register-call.js';

/**
 * calls.md §7 "Dashboard and statistics" (modules/statistics). The queue counts ask pg-boss for the
 * jobs waiting in the declared jobs' queues (created or retrying: `queued`); pg-boss holds every
 * area's jobs, so the service keeps the area's own through job_run. Without a started job runner
 * (a process that queues nothing) no job waits.
 */
export const statisticsRoutes: FastifyPluginAsync = async (app) => {
  const waiting: WaitingJobs = async () => {
    const boss = app.jobs.boss;
    if (!boss) return [];
    const queued = await Promise.all(ALL_JOBS.map((job) => boss.findJobs(job.name, { queued: true })));
    return queued.flat().map((job) => job.id);
  };
  route(app, calls.dashboardStatistics, async (request) => dashboardStatistics(request.ctx, request.query, waiting));
  route(app, calls.dashboardEvents, async (request) => dashboardEvents(request.ctx, request.query));
  route(app, calls.queueSize, async (request) => queueSize(request.ctx, waiting));
  route(app, calls.cebd, async (request) => cebdStatistics(request.ctx, request.query.zoneId));
  route(app, calls.offsetLag, async (request) => waitingWork(request.ctx));
  route(app, calls.completenessTractionUnits, async (request) =>
    completenessVerification(request.ctx, request.query.threshold),
  );
  route(app, calls.cebdDeliveryInfo, async (request) => cebdDeliveryInfo(request.ctx, request.query.orgType));
};
