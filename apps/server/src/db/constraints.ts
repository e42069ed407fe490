import { ERROR_CODES, INTERFACE_ROUTE_MESSAGES, MESSAGES, PROCESS_EVENT_CODES } from '@railwatt/contracts';
import { ApiError } from '../errors.js';

/**
 * The one table from database constraint names to the error a client gets (issue 6 §5). Services
 * check first to answer with a precise message per record; these constraints keep concurrent
 * writers honest, and this table turns their violations into the same 400s. The errors plugin, the
 * domain service and the Excel import all read it; a new constraint gets its row here.
 */
export interface ConstraintError {
  code: string;
  message: string;
  /** The field the client should mark, when the constraint is about one. */
  field?: string;
}

export const CONSTRAINT_ERRORS: Readonly<Record<string, ConstraintError>> = {
  // migration 0010: current segments of master data
  entity_segment_unique_name: { code: 'uniquename', message: MESSAGES.nameNotUnique, field: 'name' },
  entity_segment_unique_orgid: { code: 'uniqueorgid', message: ERROR_CODES.uniqueorgid, field: 'orgId' },
  entity_segment_unique_evn: {
    code: 'uniqueproperties',
    message: `evn: ${ERROR_CODES.uniqueproperties}`,
    field: 'evn',
  },
  entity_segment_unique_cpid: {
    code: 'uniqueproperties',
    message: `cpid: ${ERROR_CODES.uniqueproperties}`,
    field: 'cpid',
  },
  entity_segment_no_overlap: { code: 'invalid_input', message: 'Segments of one entity must not overlap' },
  entity_segment_valid_not_empty: { code: 'invalid_input', message: 'The validity range must not be empty' },
  entity_pkey: { code: 'uniqueproperties', message: `uuid: ${ERROR_CODES.uniqueproperties}`, field: 'uuid' },
  // migrations 0002 and 0060: areas and users
  settlement_area_uniquename: { code: 'uniquename', message: ERROR_CODES.uniquename, field: 'name' },
  app_user_username_uniqueproperties: {
    code: 'uniqueproperties',
    message: `username: ${ERROR_CODES.uniqueproperties}`,
    field: 'username',
  },
  user_market_function_uniqueproperties: { code: 'uniqueproperties', message: ERROR_CODES.uniqueproperties },
  // migration 0060: export credentials
  organisation_credential_kind_check: { code: 'invalid_input', message: ERROR_CODES.invalid_input, field: 'kind' },
  // migration 0080: interface routes
  interface_route_route_id_uniquename: {
    code: 'uniquename',
    message: INTERFACE_ROUTE_MESSAGES.routeIdExists,
    field: 'routeId',
  },
  interface_route_pkey: {
    code: 'uniquename',
    message: INTERFACE_ROUTE_MESSAGES.routeIdExists,
    field: 'routeId',
  },
  interface_route_backup_path_check: {
    code: 'invalid_input',
    message: INTERFACE_ROUTE_MESSAGES.backupPathNotAllowed,
    field: 'backupPath',
  },
  // migration 0320: the pinned host key (the contract checks the format first)
  interface_route_host_key_check: {
    code: 'invalid_input',
    message: INTERFACE_ROUTE_MESSAGES.hostKeyFormat,
    field: 'hostKeyFingerprint',
  },
  // migration 0120: train runs (modules/trainrun checks first; two files stored at once meet here)
  train_run_current_key: { code: 'uniqueproperties', message: 'Duplicate train run' },
  // migration 0130: one run under way per (area, procedure, period) (modules/processing checks first)
  procedure_result_already_running: {
    code: 'process_already_running',
    message: ERROR_CODES.process_already_running,
  },
  // migration 0420: report schedules' names per area (modules/report-schedules checks first)
  report_schedule_name_unique: { code: 'uniquename', message: MESSAGES.scheduleNameExists, field: 'name' },
  // migration 0350: one approved result per scope (modules/processing/tasks.ts checks first)
  procedure_result_one_approved: {
    code: 'approved-settlement-exists',
    message: PROCESS_EVENT_CODES['approved-settlement-exists'],
  },
};

/** Constraints without a row of their own: the suffix of the name chooses (naming convention). */
const BY_SUFFIX: readonly [string, ConstraintError][] = [
  ['_uniquename', { code: 'uniquename', message: ERROR_CODES.uniquename }],
  ['_uniqueorgid', { code: 'uniqueorgid', message: ERROR_CODES.uniqueorgid }],
  ['_uniqueproperties', { code: 'uniqueproperties', message: ERROR_CODES.uniqueproperties }],
  ['_nooverlap', { code: 'nooverlap', message: ERROR_CODES.nooverlap }],
];

interface PgErrorLike {
  code: string;
  constraint?: string;
}

/** The PostgreSQL error behind a driver error (Drizzle wraps the driver's error as `cause`). */
export function findPgError(error: unknown): PgErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const candidate = current as Error & Partial<PgErrorLike>;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: candidate.constraint };
    }
    current = candidate.cause;
  }
  return undefined;
}

/** SQLSTATEs of constraint violations: unique, exclusion, check, foreign key, not null. */
const CONSTRAINT_STATES = new Set(['23505', '23P01', '23514', '23503', '23502']);

/** What a violated constraint means for the client; undefined when the error is no violation. */
export function constraintErrorOf(error: unknown): ConstraintError | undefined {
  const pgError = findPgError(error);
  if (!pgError || !CONSTRAINT_STATES.has(pgError.code)) return undefined;
  const name = pgError.constraint ?? '';
  const known = CONSTRAINT_ERRORS[name] ?? BY_SUFFIX.find(([suffix]) => name.endsWith(suffix))?.[1];
  if (known) return known;
  // Unnamed or unlisted: a unique violation is still "must be unique", anything else bad input.
  return pgError.code === '23505'
    ? { code: 'uniqueproperties', message: ERROR_CODES.uniqueproperties }
    : { code: 'invalid_input', message: ERROR_CODES.invalid_input };
}

/**
 * Database errors that are the client's doing, as ApiErrors: constraint violations (above), values
 * the database cannot read or that exceed its limits (classes 22 and 54) and rows
 * row-level security refuses (42501: a write into another area is forbidden).
 */
export function mapDatabaseError(error: unknown): ApiError | undefined {
  const violation = constraintErrorOf(error);
  if (violation) {
    return new ApiError(400, violation.message, {
      code: violation.code,
      ...(violation.field
        ? { errors: [{ code: violation.code, field: violation.field, message: violation.message }] }
        : {}),
    });
  }
  const pgError = findPgError(error);
  if (!pgError) return undefined;
  // Class 22 (data exception: a bad uuid or date, too long, out of range, a NUL, reversed range
  // bounds) and class 54 (program limit: stack depth, too many arguments) come from what was sent.
  if (pgError.code.startsWith('22') || pgError.code.startsWith('54')) return ApiError.badRequest('invalid_input');
  if (pgError.code === '42501') return ApiError.forbidden();
  return undefined;
}
