import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from './limits.js';

/**
 * The error catalogue (calls.md §8). Codes are the wire vocabulary; the web looks messages up
 * under i18n keys `api_error_code.<code>`. English texts are verbatim from the spec.
 */
export const ERROR_CODES = {
  process_already_running: 'Process is already running',
  query_timeout: 'The request has timed out, please decrease your query scope',
  nooverlap: 'Areas must not overlap',
  within: 'Area must be within parent area',
  notblank: 'Field should not be empty',
  uniquename: 'Name must be unique',
  uniqueproperties: 'Property must be unique',
  immutableproperty: 'Property can not be changed',
  uniqueorgid: 'Organisation id must be unique',
  unknown: 'Unknown error',
  invalid_input: 'Invalid input',
  // calls.md §8's process code, refused by approve-procedure-results (issue 10).
  'approved-settlement-exists': 'Approved settlement already exists for the area or organisation',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const errorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** Messages that the spec gives verbatim and that the server returns as `message`. */
export const MESSAGES = {
  nameNotUnique: 'The chosen name already exists for another entity. Please choose a new name',
  notAllowedOtherExchangeAdmin: 'Not allowed to update traction unit connected to other Exchange admin',
  noEntitiesSelected: 'No entities selected',
  invalidJson: 'The file content is not valid JSON',
  scheduleNameExists: 'The schedule report name already exists.',
  searchRunning: 'This search is already happening. Please wait.',
} as const;

/** One entry of a many-error 400. */
export const fieldErrorSchema = z.object({
  code: text(TEXT_LIMITS.identifier).optional(),
  field: serverText(TEXT_LIMITS.message).optional(),
  message: serverText(TEXT_LIMITS.message),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The one error envelope (calls.md §8): a 400 carries `code` (one message "translated code: message")
 * or an `errors` list (one message per error) or just `message`; 401/403 carry the status text;
 * 500 carries a code at most, never internals.
 */
export const errorEnvelopeSchema = z.object({
  timestamp: text(TEXT_LIMITS.code),
  status: z.number().int(),
  error: text(TEXT_LIMITS.name),
  code: text(TEXT_LIMITS.identifier).optional(),
  message: serverText(TEXT_LIMITS.message).optional(),
  errors: list(fieldErrorSchema, LIST_LIMITS.rows).optional(),
  /**
   * Ours (issue 18 item 5): what a catalogue message leaves out (the record it is about, what to do),
   * shown after it; the message keeps the catalogue's words.
   */
  detail: serverText(TEXT_LIMITS.message).optional(),
  path: serverText(TEXT_LIMITS.message).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
