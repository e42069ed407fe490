import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import {
  checkStatusQuerySchema,
  checkStatusSchema,
  findLatestQuerySchema,
  procedureNameQuerySchema,
  procedureParamSchema,
  procedureRerunRequestSchema,
  procedureResultExistsQuerySchema,
  procedureResultPageSchema,
  procedureResultQuerySchema,
  procedureResultSchema,
  procedureResultStatusSchema,
  procedureRunQuerySchema,
  procedureRunRequestSchema,
  processInfoSchema,
  processingEventFilterSchema,
  processingEventExportQuerySchema,
  processingEventPageSchema,
  processingEventQuerySchema,
  processingEventSummarySchema,
  processLogFilterSchema,
  refsBodySchema,
  severitySchema,
  zoneQuerySchema,
} from '../processing.js';
import { defineCall, pathSegmentSchema } from './define.js';
import { POLICIES } from './policies.js';

const codes = list(text(TEXT_LIMITS.code), LIST_LIMITS.rows);
const processes = list(processInfoSchema, LIST_LIMITS.small);

/**
 * calls.md §7 "Processes and configuration" (run, rerun), "Procedure results", "Events and audit
 * log" (processing events) and "Domain data" (/domain/processes). The named run calls
 * (/processing/train-preprocessing/run ...) are the {procedure} path with that name. Where calls.md
 * does not show an answer, the summary says what we chose.
 */
export const processingCalls = {
  run: defineCall({
    method: 'POST',
    path: '/processing/{procedure}/run',
    access: POLICIES.processingRun,
    summary: 'Run a procedure for a period (answer: the procedure result with its job id; progress via GET /jobs/{id})',
    params: procedureParamSchema,
    query: procedureRunQuerySchema,
    body: procedureRunRequestSchema,
    response: procedureResultSchema,
  }),
  rerun: defineCall({
    method: 'POST',
    path: '/processing/{procedure}/rerun',
    access: POLICIES.processingRun,
    summary:
      'Run procedure results again (a failed one resumes from its unfinished days, a finished one runs anew); answer: the results',
    params: procedureParamSchema,
    query: zoneQuerySchema,
    body: procedureRerunRequestSchema,
    response: list(procedureResultSchema, LIST_LIMITS.small),
  }),
  findBy: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/findBy',
    access: POLICIES.processingRead,
    summary: 'Procedure results filtered (process log filter), sorted and paged (zero-based)',
    query: procedureResultQuerySchema,
    body: processLogFilterSchema,
    response: procedureResultPageSchema,
  }),
  statuses: defineCall({
    method: 'GET',
    path: '/eventlog/procedure-result/statuses',
    access: POLICIES.processingRead,
    summary: "The statuses a procedure's results take (settlement: all of calls.md §4; others: the run statuses)",
    query: procedureNameQuerySchema,
    response: list(procedureResultStatusSchema, LIST_LIMITS.small),
  }),
  checkStatus: defineCall({
    method: 'GET',
    path: '/eventlog/procedure-result/checkStatus',
    access: POLICIES.processingRead,
    summary: 'Whether a run of the procedure (overlapping the period, when given) is under way, and its latest run',
    query: checkStatusQuerySchema,
    response: checkStatusSchema,
  }),
  exists: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/exists',
    access: POLICIES.processingRead,
    summary: 'Whether a result of the procedure (in the statuses) overlaps the month for one of the refs',
    query: procedureResultExistsQuerySchema,
    body: refsBodySchema,
    response: z.boolean(),
  }),
  findLatest: defineCall({
    method: 'POST',
    path: '/eventlog/procedure-result/findLatest',
    access: POLICIES.processingRead,
    summary: 'The latest result of the procedure for the refs in the interval (null when none)',
    query: findLatestQuerySchema,
    body: refsBodySchema,
    response: procedureResultSchema.nullable(),
  }),
  events: defineCall({
    method: 'POST',
    path: '/eventlog/processingevent',
    access: POLICIES.processingRead,
    summary: 'Processing events filtered and paged (50 per page by default)',
    query: processingEventQuerySchema,
    body: processingEventFilterSchema,
    response: processingEventPageSchema,
  }),
  eventCount: defineCall({
    method: 'POST',
    path: '/eventlog/processingevent/count',
    access: POLICIES.processingRead,
    summary: 'How many processing events match the filter',
    body: processingEventFilterSchema,
    response: z.number().int(),
  }),
  // Ours (issue 18 item 4): the table of codes and severities above a run's events.
  eventSummary: defineCall({
    method: 'POST',
    path: '/eventlog/processingevent/summary',
    access: POLICIES.processingRead,
    summary: 'The matching processing events summed by error code and severity (events and incidents)',
    body: processingEventFilterSchema,
    response: processingEventSummarySchema,
  }),
  eventProcedureResultIds: defineCall({
    method: 'POST',
    path: '/eventlog/processingevent/procedure-result-ids',
    access: POLICIES.processingRead,
    summary: 'The procedure results the matching events belong to (ids, ascending)',
    body: processingEventFilterSchema,
    response: list(z.number().int(), LIST_LIMITS.rows),
  }),
  eventExport: defineCall({
    method: 'POST',
    path: '/eventlog/processingevent/export',
    access: POLICIES.processingRead,
    summary: 'The filtered processing events as events.xlsx (at most 10000; more is refused as query_timeout)',
    query: processingEventExportQuerySchema,
    body: processingEventFilterSchema,
    download: true,
  }),
  excelEventExport: defineCall({
    method: 'POST',
    path: '/excel/eventlog/export',
    access: POLICIES.processingRead,
    summary: 'The same events.xlsx as /eventlog/processingevent/export (calls.md §7 Files names both paths)',
    query: processingEventExportQuerySchema,
    body: processingEventFilterSchema,
    download: true,
  }),
  errorCodes: defineCall({
    method: 'GET',
    path: '/eventlog/processingevent/errorcodes',
    access: POLICIES.processingRead,
    summary: 'The error codes of the area’s processing events',
    response: codes,
  }),
  severities: defineCall({
    method: 'GET',
    path: '/eventlog/processingevent/severities',
    access: POLICIES.processingRead,
    summary: 'The severities of processing events',
    response: list(severitySchema, LIST_LIMITS.small),
  }),
  errorCodesByProcess: defineCall({
    method: 'GET',
    path: '/eventlog/processingevent/{process}/errorcodesByProcess',
    access: POLICIES.processingRead,
    summary: 'The error codes of one process’s events',
    params: z.object({ process: pathSegmentSchema }),
    response: codes,
  }),
  processes: defineCall({
    method: 'GET',
    path: '/domain/processes',
    access: POLICIES.processingRead,
    summary: 'The processes of the Monitor with their dashboard category and whether they run',
    response: processes,
  }),
  processesWithEvents: defineCall({
    method: 'GET',
    path: '/domain/processes/with-events',
    access: POLICIES.processingRead,
    summary: 'The processes that have recorded events in the area',
    response: processes,
  }),
};
