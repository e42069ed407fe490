import { z } from 'zod';
import { entityRefSchema, instantSchema } from './domain/entity.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';
import {
  PROCEDURE_RESULT_STATUSES,
  procedureNameSchema,
  zoneQuerySchema,
  type ProcedureResultStatus,
} from './processing.js';

/**
 * The task calls of calls.md §7 "Processes and configuration" (POST/GET /processing/tasks/{procedure},
 * /tasks/batch/{procedure}, /tasks/set-settlement-procedure-to-failure/{procedureResultId}) and the
 * procedure-result writes of "Procedure results" (approve, saveProcedureResult/save,
 * settledConsumption/findByProcedureResultIds). Issue 9 item 3.
 */

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const year = z.coerce.number().int().min(1970).max(2069);
const month = z.coerce.number().int().min(1).max(12);

/**
 * Query of a task (calls.md §7 "Reports": year, month, zoneId, procedureName): the month the run
 * covers, in zoneId (default: the area's zone). procedureName, when sent, must name the path's
 * procedure (a screen sends both).
 */
export const procedureTaskQuerySchema = z.object({
  year,
  month,
  zoneId: zoneQuerySchema.shape.zoneId,
  procedureName: procedureNameSchema.optional(),
});
export type ProcedureTaskQuery = z.infer<typeof procedureTaskQuerySchema>;

/** calls.md §3: a destination is a webservice endpoint, an ftp endpoint or an e-mail address. */
export const taskDestinationSchema = z.union([
  z.object({ webserviceUri: text(TEXT_LIMITS.address) }),
  z.object({ host: text(TEXT_LIMITS.address) }),
  z.object({ type: z.literal('EmailAddress'), address: z.email().max(TEXT_LIMITS.email) }),
]);

/**
 * POST /processing/tasks/{procedure} body ("body plus destinations and params"): the entities the
 * run is limited to (empty: the whole area), destinations, and the run's parameters. A procedure
 * run writes its tables and delivers no file, so destinations must be empty here: they belong to
 * the report tasks of the same path shape (issue 10), and a run that silently ignored them would
 * let a user wait for a file that never comes.
 */
export const procedureTaskBodySchema = z.object({
  refs: list(entityRefSchema, LIST_LIMITS.refs).default([]),
  destinations: list(taskDestinationSchema, LIST_LIMITS.small).default([]),
  params: z
    .object({
      entityName: text(TEXT_LIMITS.name).optional(),
      refTime: instantSchema.optional(),
    })
    .default({}),
});
export type ProcedureTaskBody = z.infer<typeof procedureTaskBodySchema>;

/** Most tasks one batch starts (two years of months; each is a run of its own). */
export const MAX_BATCH_TASKS = 24;

/** POST /processing/tasks/batch/{procedure} body: several months (and refs), each a run. */
export const procedureTaskBatchSchema = list(
  procedureTaskBodySchema.extend({ year, month, zoneId: zoneQuerySchema.shape.zoneId }),
  MAX_BATCH_TASKS,
).min(1);
export type ProcedureTaskBatch = z.infer<typeof procedureTaskBatchSchema>;

export const procedureResultIdParamSchema = z.object({ procedureResultId: id });

/** POST /processing/tasks/set-settlement-procedure-to-failure/{procedureResultId} body: why. */
export const setToFailureBodySchema = z.object({ message: text(TEXT_LIMITS.comment).optional() }).default({});

/** The statuses a settlement result may be set to failure from: under way or finished, not approved. */
export const FAILABLE_STATUSES: readonly ProcedureResultStatus[] = ['initial', 'running', 'success'];

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** POST /eventlog/procedure-result/approve-procedure-results query. */
export const approveQuerySchema = z.object({
  /** true: an earlier approved result of the same procedure, period and refs becomes corrected. */
  updatePreviouslyApprovedToCorrected: flag.default(false),
  /**
   * The split (the settlement's way of dividing the month, e.g. by organisation or price area) the
   * approval is about; calls.md names it without its values, so it is kept as text in the result's
   * message ("Approved (split X)") for the process log to show.
   */
  splitTypeName: text(TEXT_LIMITS.identifier).optional(),
});
/** The body: the ids of the results to approve. */
export const procedureResultIdsSchema = list(id, LIST_LIMITS.refs).min(1);

/**
 * The statuses a user may save by hand (saveProcedureResult/save): the verdicts on a finished
 * result of calls.md §4 that no run and no other call sets. approved has its own call (with the
 * correction rule); success only takes an approved result back (unapprove).
 */
export const SAVABLE_STATUSES = [
  'success',
  'invalid',
  'dismissed',
  'rejected',
  'cancelled',
] as const satisfies readonly (typeof PROCEDURE_RESULT_STATUSES)[number][];

/**
 * POST /eventlog/procedure-result/saveProcedureResult/save body, our reading: the user saves what
 * may change on a stored result (its status and comment), not a whole new result (runs make those).
 */
export const saveProcedureResultSchema = z
  .object({
    id,
    status: z.enum(SAVABLE_STATUSES).optional(),
    message: text(TEXT_LIMITS.comment).nullable().optional(),
  })
  .refine((body) => body.status !== undefined || body.message !== undefined, {
    message: 'Send a status or a message to save',
    path: ['status'],
  });
export type SaveProcedureResult = z.infer<typeof saveProcedureResultSchema>;

/** calls.md §3 "Settled consumption answer: procedureResultId, organisation, totalSettledConsumption". */
export const settledConsumptionSchema = z.object({
  procedureResultId: z.number().int(),
  organisation: entityRefSchema,
  /** kWh: active consumed minus regenerated, allocated to the organisation over the result's period. */
  totalSettledConsumption: z.number(),
});
export type SettledConsumption = z.infer<typeof settledConsumptionSchema>;
