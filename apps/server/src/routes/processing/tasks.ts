import {
  PROCEDURE_NAMES,
  isReportName,
  PROCESS_RUNNERS,
  procedureTaskCalls as calls,
  type ProcedureName,
  type TaskOrReportBody,
  type TaskOrReportQuery,
} from '@railwatt/contracts';
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
import { reportQueue } from '../../jobs/report-order.js';
import { ApiError } from '../../errors.js';
import { REPORTS } from '../../modules/reports/index.js';
import { orderReport } from '../../modules/reports/service.js';
import { route } from '../register-call.js';

/** The fields only a report order has: a procedure's task refuses them rather than ignore them. */
const REPORT_ONLY = ['format', 'language', 'reportSpecificParameters'] as const;
const QUERY_REPORT_ONLY = ['processingId', 'refTime'] as const;

/**
 * Which reading of POST /processing/tasks/{name} a request is (contracts reports.ts
 * taskOrReportBodySchema): a report when the name is only a report's, or when it is both (settlement)
 * and the body names a format; else a procedure's task.
 */
const isReportOrder = (name: string, body: TaskOrReportBody, procedures: readonly string[]) =>
  isReportName(name) && (!procedures.includes(name) || body.format !== undefined);

/**
 * calls.md §7 tasks (/processing/tasks/...) and procedure-result writes (/eventlog/procedure-result/
 * approve-procedure-results, saveProcedureResult/save, settledConsumption/findByProcedureResultIds);
 * declared in contracts calls/procedure-tasks.ts.
 */
export const procedureTaskRoutes: FastifyPluginAsync = async (app) => {
  const queue = procedureRunQueue(app.jobs);
  const reportOrders = reportQueue(app.jobs);
  route(app, calls.task, async (request) => {
    const name = request.params.procedure;
    const body = request.body;
    const query: TaskOrReportQuery = request.query;
    if (isReportOrder(name, body, PROCEDURE_NAMES))
      return orderReport(request.ctx, reportOrders, REPORTS, name as never, query, body);
    // A procedure's task: its runners only, none of the report's fields.
    if (!request.ctx.actor.roles.some((r) => PROCESS_RUNNERS.includes(r))) throw ApiError.forbidden('Not authorized');
    const extra = [
      ...REPORT_ONLY.filter((k) => body[k] !== undefined),
      ...QUERY_REPORT_ONLY.filter((k) => query[k] !== undefined),
    ];
    if (extra.length > 0 || !(PROCEDURE_NAMES as readonly string[]).includes(name))
      throw ApiError.badRequestMany(
        (extra.length > 0 ? extra : ['procedure']).map((field) => ({
          code: 'invalid_input',
          field,
          message: extra.length > 0 ? `${field} belongs to a report order` : `${name} is not a procedure`,
        })),
      );
    const procedure = name as ProcedureName;
    if (query.procedureName !== undefined && query.procedureName !== procedure)
      throw ApiError.badRequest(
        'invalid_input',
        `procedureName ${query.procedureName} does not match the path's ${procedure}`,
      );
    return startTask(request.ctx, queue, procedure, { ...query, procedureName: procedure }, body);
  });
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
