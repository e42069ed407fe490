import { idParamSchema } from '../datalog.js';
import { LIST_LIMITS, list } from '../limits.js';
import { reportDescriptionSchema, reportListQuerySchema, reportLocalesSchema, reportParamSchema } from '../reports.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "Reports" (issue 20). The order itself, POST /processing/tasks/{reportName}, shares its
 * path with a procedure's task and is declared once there (calls/procedure-tasks.ts `task`).
 */
export const reportCalls = {
  list: defineCall({
    method: 'GET',
    path: '/domain/reports',
    access: POLICIES.reportOrder,
    summary: 'The reports this user may order in the area, with their parameters, statuses and columns (query locale)',
    query: reportListQuerySchema,
    response: list(reportDescriptionSchema, LIST_LIMITS.small),
  }),
  locales: defineCall({
    method: 'GET',
    path: '/domain/reports/{report}',
    access: POLICIES.reportOrder,
    summary: "A report's texts (title, column headers) in every language",
    params: reportParamSchema,
    response: reportLocalesSchema,
  }),
  file: defineCall({
    method: 'GET',
    path: '/eventlog/datalog/reports/{id}/file',
    access: POLICIES.reportOrder,
    summary:
      "Ours: the file of an ordered report's data-log entry (calls.md §4 offers no data-log download for a report; the order page downloads here)",
    params: idParamSchema,
    download: true,
  }),
};
