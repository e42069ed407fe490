import { z } from 'zod';
import { LIST_LIMITS, list } from '../limits.js';
import {
  approveQuerySchema,
  procedureResultIdParamSchema,
  procedureResultIdsSchema,
  procedureTaskBatchSchema,
  procedureTaskQuerySchema,
  saveProcedureResultSchema,
  setToFailureBodySchema,
  settledConsumptionSchema,
  MAX_BATCH_TASKS,
} from '../procedure-tasks.js';
import { procedureParamSchema, procedureResultSchema } from '../processing.js';
import {
  reportOrderAnswerSchema,
  taskOrReportBodySchema,
  taskOrReportQuerySchema,
  taskOrReportParamSchema,
} from '../reports.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "Processes and configuration" (tasks) and "Procedure results" (approve, save,
 * settled consumption); issue 9 item 3. Runs and writes: the process runners; the audit roles and
 * the consumer read (settled consumption) and are refused the rest.
 */
export const procedureTaskCalls = {
  /**
   * calls.md §7 writes this path twice: POST /processing/tasks/{procedureName} (a procedure's run for
   * the month) and POST /processing/tasks/{reportName} (a report order, with a format; answer: its
   * job and data-log entry). One route serves both (reports.ts taskOrReportBodySchema says how it
   * tells them apart); the procedure reading keeps processingRun's roles.
   */
  task: defineCall({
    method: 'POST',
    path: '/processing/tasks/{procedure}',
    access: POLICIES.processingTaskOrReport,
    summary:
      'Start a run of the procedure for the month (query year, month, zoneId; answer: the procedure result), or order a report (path: the report name; body with format; answer: its job and data-log entry)',
    params: taskOrReportParamSchema,
    query: taskOrReportQuerySchema,
    body: taskOrReportBodySchema,
    response: z.union([procedureResultSchema, reportOrderAnswerSchema]),
  }),
  taskWithoutBody: defineCall({
    method: 'GET',
    path: '/processing/tasks/{procedure}',
    access: POLICIES.processingRun,
    summary: 'The same task without a body: the whole area for the month',
    params: procedureParamSchema,
    query: procedureTaskQuerySchema,
    response: procedureResultSchema,
  }),
  batch: defineCall({
    method: 'POST',
    path: '/processing/tasks/batch/{procedure}',
    access: POLICIES.processingRun,
    summary: `Start several runs of the procedure (at most ${MAX_BATCH_TASKS}: months, refs); all or none start`,
    params: procedureParamSchema,
    body: procedureTaskBatchSchema,
    response: list(procedureResultSchema, MAX_BATCH_TASKS),
  }),
  setSettlementToFailure: defineCall({
    method: 'POST',
    path: '/processing/tasks/set-settlement-procedure-to-failure/{procedureResultId}',
    access: POLICIES.processingRun,
    summary: 'Set a settlement result that is under way or finished (not approved) to failure, with a message',
    params: procedureResultIdParamSchema,
    body: setToFailureBodySchema,
    response: procedureResultSchema,
  }),
  approve: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/approve-procedure-results',
    access: POLICIES.processingRun,
    summary:
      'Approve success results; the earlier approved result of the same scope becomes corrected when asked, else 400',
    query: approveQuerySchema,
    body: procedureResultIdsSchema,
    response: list(procedureResultSchema, LIST_LIMITS.refs),
  }),
  save: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/saveProcedureResult/save',
    access: POLICIES.processingRun,
    summary: "Save a stored result's status (a verdict, or success to unapprove) and comment",
    body: saveProcedureResultSchema,
    response: procedureResultSchema,
  }),
  settledConsumption: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/settledConsumption/findByProcedureResultIds',
    access: POLICIES.processingRead,
    summary: 'Per result and organisation: the energy allocated over the result’s period (consumed minus regenerated)',
    body: procedureResultIdsSchema,
    response: list(settledConsumptionSchema, LIST_LIMITS.rows),
  }),
};
