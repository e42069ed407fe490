import { z } from 'zod';
import {
  delayedTaskCountQuerySchema,
  delayedTaskPageSchema,
  delayedTaskQuerySchema,
  runDelayedTaskRequestSchema,
} from '../delayed-tasks.js';
import { LIST_LIMITS, list } from '../limits.js';
import { procedureResultSchema } from '../processing.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * Delayed tasks (issue 9 item 4; the shunting-and-stabling "delayedtasks" page). calls.md names the
 * count and the run; the list is ours (the page needs the tasks, paged like every list).
 */
export const delayedTaskCalls = {
  count: defineCall({
    method: 'GET',
    path: '/eventlog/delayed-tasks/count',
    access: POLICIES.processingRead,
    summary: 'How many delayed tasks of the destination are waiting',
    query: delayedTaskCountQuerySchema,
    response: z.number().int(),
  }),
  list: defineCall({
    method: 'GET',
    path: '/eventlog/delayed-tasks',
    access: POLICIES.processingRead,
    summary: 'The delayed tasks of a destination (optionally of one status), sorted and paged (zero-based)',
    query: delayedTaskQuerySchema,
    response: delayedTaskPageSchema,
  }),
  runShuntingAndStabling: defineCall({
    method: 'POST',
    path: '/processing/shunting-and-stabling/run-delayed-task',
    access: POLICIES.processingRun,
    summary:
      "Run a delayed task of shunting-and-stabling now (body { id }), or every due one (no id); answer: the runs' procedure results (progress via GET /jobs/{id})",
    body: runDelayedTaskRequestSchema,
    response: list(procedureResultSchema, LIST_LIMITS.small),
  }),
};
