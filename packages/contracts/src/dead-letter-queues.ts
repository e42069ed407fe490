import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from './limits.js';
import { procedureNameSchema, type ProcedureName } from './processing.js';

/**
 * Dead letter queues (issue 9 item 1; calls.md §3 "Dead letter message", §7 "Dead letter queues and
 * interfaces", product.md §4 "dead letter queue admin"). A background job that fails its last retry
 * waits in `<job>__dead` (ARCHITECTURE.md "Background jobs") until an operator reruns it.
 */

/** The suffix of every job's dead-letter queue (the server's define-job.ts deadLetterQueue). */
export const DEAD_LETTER_QUEUE_SUFFIX = '__dead';

/** A dead-letter queue's name: a job's kebab-case name and the suffix ("procedure-run__dead"). */
export const deadLetterQueueNameSchema = z
  .string()
  .max(TEXT_LIMITS.identifier)
  .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*__dead$/, 'Not a dead letter queue name');

/**
 * calls.md §9 "first N messages, N not shown": our N. A screen shows the oldest 100 messages of a
 * queue (the ones waiting longest); the queue's count says how many more there are, and a rerun of
 * the queue (all, or the estimated ones) reaches every message, shown or not.
 */
export const DEAD_LETTER_FIRST_MESSAGES = 100;
/** Most messages one call may ask for (`size`). */
export const DEAD_LETTER_MAX_MESSAGES = 1000;

/**
 * Our reading of "estimated" (product.md §4): a message is estimated when the work it was about
 * produces estimated, not metered, energy: a run of one of the estimation procedures of DOMAIN.md
 * "Processing" steps 5 and 6 (the non-metered runs, their consumption factors, profiles and annual
 * distributions). An operator reruns those apart ("rerun estimated"): once the factors or profiles
 * are fixed, the estimates follow without touching the metered chain.
 */
export const ESTIMATION_PROCEDURES: readonly ProcedureName[] = [
  'profile',
  'annual-distribution',
  'payload-with-trainprofile',
  'reported-train-consumption-with-track',
  'reported-train-consumption',
  'calculate-consumption-factor',
  'freight-consumption-factor',
];

/** GET /processing/dead-letter-queues: one queue with how many messages wait in it (in the area). */
export const deadLetterQueueSchema = z.object({
  name: deadLetterQueueNameSchema,
  /** The job whose failures land here. */
  jobName: text(TEXT_LIMITS.identifier),
  count: z.number().int(),
  /** How many of them are estimated (see ESTIMATION_PROCEDURES). */
  estimatedCount: z.number().int(),
});
export type DeadLetterQueue = z.infer<typeof deadLetterQueueSchema>;

/**
 * GET /processing/dead-letter-queues/queue: one queue's summary, our reading of the call: its
 * counts and the failure times of its oldest and newest message (null when empty), so the screen
 * can say how long messages have waited without loading them.
 */
export const deadLetterQueueSummarySchema = deadLetterQueueSchema.extend({
  oldestFailedAt: z.string().max(40).nullable(),
  newestFailedAt: z.string().max(40).nullable(),
});
export type DeadLetterQueueSummary = z.infer<typeof deadLetterQueueSummarySchema>;

/** What a dead message was about, described for a reader (calls.md §3 "processed object"). */
export const processedObjectSchema = z.object({
  kind: z.enum(['procedure-result', 'data-log', 'payload']),
  /** One readable line: "combine 2024-01-01 – 2024-02-01 (procedure result 12)", "data-log entry 7 (file.csv)". */
  description: serverText(TEXT_LIMITS.comment),
  procedureResultId: z.number().int().nullable(),
  procedureName: procedureNameSchema.nullable(),
  dataLogId: z.number().int().nullable(),
});
export type ProcessedObject = z.infer<typeof processedObjectSchema>;

/** calls.md §3 "Dead letter message: queue name, failed at, reason, processed object", plus estimated. */
export const deadLetterMessageSchema = z.object({
  /** The message's id in its queue (what a rerun names). */
  id: z.uuid(),
  queueName: deadLetterQueueNameSchema,
  /** The job run that failed (GET /jobs/{id}). */
  runId: z.uuid(),
  failedAt: z.string().max(40),
  /** The last attempt's error. */
  reason: serverText(TEXT_LIMITS.comment).nullable(),
  attempts: z.number().int(),
  /** Who queued the failed run. */
  username: text(TEXT_LIMITS.identifier),
  processedObject: processedObjectSchema,
  estimated: z.boolean(),
});
export type DeadLetterMessage = z.infer<typeof deadLetterMessageSchema>;

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** GET /processing/dead-letter-queues/messages query: one queue (or every queue), the first `size`. */
export const deadLetterMessagesQuerySchema = z.object({
  queue: deadLetterQueueNameSchema.optional(),
  size: z.coerce.number().int().min(1).max(DEAD_LETTER_MAX_MESSAGES).default(DEAD_LETTER_FIRST_MESSAGES),
  /** Only the messages about runs of this procedure (the combine dead letter page). */
  procedureName: procedureNameSchema.optional(),
  /** Only the estimated messages (true) or only the others (false). */
  estimated: flag.optional(),
});

/** GET /processing/dead-letter-queues/queue query. */
export const deadLetterQueueQuerySchema = z.object({ name: deadLetterQueueNameSchema });

export const deadLetterQueueParamSchema = z.object({ name: deadLetterQueueNameSchema });

/**
 * POST /processing/dead-letter-queues/{name}/rerun body: the messages to rerun, or all of the queue
 * (with `procedureName`, all of that procedure's messages: the combine page's "rerun all").
 */
export const deadLetterRerunRequestSchema = z
  .object({
    ids: list(z.uuid(), DEAD_LETTER_MAX_MESSAGES).optional(),
    all: z.boolean().optional(),
    procedureName: procedureNameSchema.optional(),
  })
  .refine((body) => (body.all === true) !== (body.ids !== undefined && body.ids.length > 0), {
    message: 'Name the messages (ids) or ask for all of them (all: true)',
    path: ['ids'],
  });
export type DeadLetterRerunRequest = z.infer<typeof deadLetterRerunRequestSchema>;

/** The answer of every rerun call: what was queued again, and what needed no rerun any more. */
export const deadLetterRerunResultSchema = z.object({
  /** Messages queued again (each left its dead-letter queue). */
  rerun: z.number().int(),
  /** Messages removed without a new run: the work they were about has finished since. */
  settled: z.number().int(),
  /** The new job runs (GET /jobs/{id}). */
  runIds: list(z.uuid(), LIST_LIMITS.selection),
});
export type DeadLetterRerunResult = z.infer<typeof deadLetterRerunResultSchema>;
