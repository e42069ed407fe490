import { LIST_LIMITS, list } from '../limits.js';
import {
  reportScheduleBodySchema,
  reportScheduleIdParamSchema,
  reportScheduleListQuerySchema,
  reportScheduleSchema,
} from '../report-schedules.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "Reports": GET/POST /processing/scheduledreports, POST .../with-credentials, DELETE
 * .../{id} (issue 20 item 4). Both POSTs save a schedule (new, or with `id` a change); a password
 * travels only on with-credentials, and is never answered.
 */
export const reportScheduleCalls = {
  list: defineCall({
    method: 'GET',
    path: '/processing/scheduledreports',
    access: POLICIES.reportSchedule,
    summary:
      "The area's report schedules this user may see (its own; every one for the area-wide roles), of one report with reportName",
    query: reportScheduleListQuerySchema,
    response: list(reportScheduleSchema, LIST_LIMITS.rows),
  }),
  save: defineCall({
    method: 'POST',
    path: '/processing/scheduledreports',
    access: POLICIES.reportSchedule,
    summary: 'Saves a report schedule without a new password (a new one, or a change with id keeping the stored one)',
    body: reportScheduleBodySchema,
    response: reportScheduleSchema,
  }),
  saveWithCredentials: defineCall({
    method: 'POST',
    path: '/processing/scheduledreports/with-credentials',
    access: POLICIES.reportSchedule,
    summary: "Saves a report schedule with its destination's password (encrypted at once, never answered)",
    body: reportScheduleBodySchema,
    response: reportScheduleSchema,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: '/processing/scheduledreports/{id}',
    access: POLICIES.reportSchedule,
    summary: 'Deletes a report schedule (its past runs stay in the data log)',
    params: reportScheduleIdParamSchema,
    response: reportScheduleIdParamSchema,
  }),
};
