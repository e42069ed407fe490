import { LIST_LIMITS, list } from '../limits.js';
import {
  deadLetterMessageSchema,
  deadLetterMessagesQuerySchema,
  deadLetterQueueParamSchema,
  deadLetterQueueQuerySchema,
  deadLetterQueueSchema,
  deadLetterQueueSummarySchema,
  deadLetterRerunRequestSchema,
  deadLetterRerunResultSchema,
  DEAD_LETTER_MAX_MESSAGES,
} from '../dead-letter-queues.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "Dead letter queues and interfaces": "GET /processing/dead-letter-queues, /messages,
 * /queue; POST /{name}/rerun, /{name}/rerun-estimated, /rerun", read as paths under
 * /processing/dead-letter-queues. The erex-administrator sees every queue (the administration
 * screen); the other process runners see the procedure-run queue only (the combine dead letter
 * page), see apps/server/src/modules/dead-letter-queues/service.ts.
 */
export const deadLetterQueueCalls = {
  queues: defineCall({
    method: 'GET',
    path: '/processing/dead-letter-queues',
    access: POLICIES.deadLetterQueues,
    summary: 'The dead letter queues with how many messages of the area wait in each',
    response: list(deadLetterQueueSchema, LIST_LIMITS.small),
  }),
  messages: defineCall({
    method: 'GET',
    path: '/processing/dead-letter-queues/messages',
    access: POLICIES.deadLetterQueues,
    summary: 'The first messages (oldest first; 100 unless size says otherwise) of one queue or of all',
    query: deadLetterMessagesQuerySchema,
    response: list(deadLetterMessageSchema, DEAD_LETTER_MAX_MESSAGES),
  }),
  queue: defineCall({
    method: 'GET',
    path: '/processing/dead-letter-queues/queue',
    access: POLICIES.deadLetterQueues,
    summary: "One queue's summary: counts and the failure times of its oldest and newest message",
    query: deadLetterQueueQuerySchema,
    response: deadLetterQueueSummarySchema,
  }),
  rerun: defineCall({
    method: 'POST',
    path: '/processing/dead-letter-queues/{name}/rerun',
    access: POLICIES.deadLetterQueues,
    summary: 'Queue the named messages (or all of the queue) again and remove them from the queue',
    params: deadLetterQueueParamSchema,
    body: deadLetterRerunRequestSchema,
    response: deadLetterRerunResultSchema,
  }),
  rerunEstimated: defineCall({
    method: 'POST',
    path: '/processing/dead-letter-queues/{name}/rerun-estimated',
    access: POLICIES.deadLetterQueues,
    summary: "Queue the queue's estimated messages again (runs of the estimation procedures)",
    params: deadLetterQueueParamSchema,
    response: deadLetterRerunResultSchema,
  }),
  rerunAll: defineCall({
    method: 'POST',
    path: '/processing/dead-letter-queues/rerun',
    access: POLICIES.deadLetterQueues,
    summary: 'Queue every message of every queue the user may see again',
    response: deadLetterRerunResultSchema,
  }),
};
