import { timeSeriesCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { getJobRun } from '../../modules/jobs/service.js';
import { route } from '../register-call.js';

/**
 * GET /jobs/{id} (ours, contracts calls/timeseries.ts `job`): screens follow a background run's
 * status and progress. The run is read on the request's area-bound executor, so another area's run
 * is a 404 like an unknown one. Routes that start work queue it with `app.jobs.enqueue(request.ctx,
 * job, payload)` and answer the run id.
 */
export const jobRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.job, async (request) => getJobRun(app.jobs, request.ctx, request.params.id));
};
