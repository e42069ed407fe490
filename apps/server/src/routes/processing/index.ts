import { processingCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import { rerun, startRun } from '../../modules/processing/service.js';
import { route } from '../register-call.js';

/**
 * POST /processing/{procedure}/run and /rerun (calls.md §7 "Processes and configuration"; the named
 * run calls are this path with their name). The run is a `procedure-run` job: the answer is the
 * procedure result with its job id, which the process page follows (GET /jobs/{id}). zoneId is the
 * zone the operator's screen shows; the period arrives as instants, and the server cuts it into
 * days in the area's own time zone, so zoneId changes nothing in the run.
 */
export const processingRoutes: FastifyPluginAsync = async (app) => {
  const queue = procedureRunQueue(app.jobs);
  // The run's extra params (calls.md §7): metered-energy-aggregation's FIRST or SECOND aggregation,
  // settlement's tpa (a version of the TPA settlement).
  route(app, calls.run, async (request) => {
    const { aggregation, tpa } = request.query;
    const runOptions = { ...(aggregation ? { aggregation } : {}), ...(tpa ? { tpa } : {}) };
    return startRun(request.ctx, queue, request.params.procedure, request.body, {
      ...(Object.keys(runOptions).length > 0 ? { runOptions } : {}),
    });
  });
  route(app, calls.rerun, async (request) => rerun(request.ctx, queue, request.params.procedure, request.body.rows));
};
