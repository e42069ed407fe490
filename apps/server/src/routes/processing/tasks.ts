import { procedureTaskCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import {
  approveResults,
  findSettledConsumption,
  saveResult,
  setSettlementToFailure,
  startBatch,
  startTask,
} from '../../modules/processing/tasks.js';
import { route } from '../register-call.js';

/**
 * calls.md §7 tasks (/processing/tasks/...) and procedure-result writes (/eventlog/procedure-result/
 * approve-procedure-results, saveProcedureResult/save, settledConsumption/findByProcedureResultIds);
 * declared in contracts calls/procedure-tasks.ts.
 */
export const procedureTaskRoutes: FastifyPluginAsync = async (app) => {
  const queue = procedureRunQueue(app.jobs);
  route(app, calls.task, async (request) =>
    startTask(request.ctx, queue, request.params.procedure, request.query, request.body),
  );
  route(app, calls.taskWithoutBody, async (request) =>
    startTask(request.ctx, queue, request.params.procedure, request.query, {
      refs: [],
      destinations: [],
      params: {},
    }),
  );
  route(app, calls.batch, async (request) => startBatch(request.ctx, queue, request.params.procedure, request.body));
  route(app, calls.setSettlementToFailure, async (request) =>
    setSettlementToFailure(request.ctx, request.params.procedureResultId, request.body.message),
  );
  route(app, calls.approve, async (request) => approveResults(request.ctx, request.body, request.query));
  route(app, calls.save, async (request) => saveResult(request.ctx, request.body));
  route(app, calls.settledConsumption, async (request) => findSettledConsumption(request.ctx, request.body));
};
