import { z } from 'zod';
import { PAGE_SIZES } from './constants.js';
import { TEXT_LIMITS, serverText } from './limits.js';
import { MAX_PAGE } from './paging.js';
import { pageSchemaOf, procedureNameSchema } from './processing.js';

/**
 * Delayed tasks (issue 9 item 4, migration 0160 `delayed_task`): work a procedure put off until it
 * can be judged. shunting-and-stabling records one per area day whose energy has no train run
 * within its limit while late train runs may still be reported; when due (the late window closed)
 * the day runs again. The Monitor page /monitor/processes/shunting-and-stabling/delayedtasks lists
 * them; the schedule (server jobs/delayed-tasks.ts) and "run now" start them.
 */

/** waiting -> started (a run took it up) -> done (the run's chunk judged the day); cancelled by hand. */
export const DELAYED_TASK_STATUSES = ['waiting', 'started', 'done', 'cancelled'] as const;
export const delayedTaskStatusSchema = z.enum(DELAYED_TASK_STATUSES);
export type DelayedTaskStatus = z.infer<typeof delayedTaskStatusSchema>;

export const delayedTaskSchema = z.object({
  id: z.number().int(),
  /** The procedure the task runs when due. */
  destinationUri: procedureNameSchema,
  /** The period the procedure runs for, [start, end) (an area day). */
  periodStart: z.string().max(40),
  periodEnd: z.string().max(40),
  dueAt: z.string().max(40),
  /** Why the work was put off (the server's words). */
  reason: serverText(TEXT_LIMITS.comment),
  status: delayedTaskStatusSchema,
  /** The run that put it off, and the run that took it up (null when none, or gone). */
  procedureResultId: z.number().int().nullable(),
  startedResultId: z.number().int().nullable(),
  createdAt: z.string().max(40),
  updatedAt: z.string().max(40),
});
export type DelayedTask = z.infer<typeof delayedTaskSchema>;

/** GET /eventlog/delayed-tasks/count query: the destination whose waiting tasks are counted. */
export const delayedTaskCountQuerySchema = z.object({ destinationUri: procedureNameSchema });

export const DELAYED_TASK_SORT_COLUMNS = ['dueAt', 'createdAt', 'periodStart', 'status', 'id'] as const;
const descending = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** GET /eventlog/delayed-tasks query: the destination, optionally one status, paging (zero-based). */
export const delayedTaskQuerySchema = z.object({
  destinationUri: procedureNameSchema,
  status: delayedTaskStatusSchema.optional(),
  page: z.coerce.number().int().min(0).max(MAX_PAGE).default(0),
  size: z.coerce.number().int().min(1).max(PAGE_SIZES.lookup).default(PAGE_SIZES.default),
  sortBy: z.enum(DELAYED_TASK_SORT_COLUMNS).default('dueAt'),
  descendingOrder: descending.default(true),
});
export type DelayedTaskQuery = z.output<typeof delayedTaskQuerySchema>;
export const delayedTaskPageSchema = pageSchemaOf(delayedTaskSchema);
export type DelayedTaskPage = z.infer<typeof delayedTaskPageSchema>;

/**
 * POST /processing/shunting-and-stabling/run-delayed-task body: the task to run now (waiting, or
 * started again after its run failed), or no id (or no body) for every waiting task that is due.
 */
export const runDelayedTaskRequestSchema = z
  .object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() })
  .nullish();
