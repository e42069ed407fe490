import { randomBytes } from 'node:crypto';
import { ERROR_CODES, type ErrorCode, type FieldError } from '@railwatt/contracts';

/**
 * An error whose message is written for the user: a job's or a procedure run's outcome shows it as
 * it is. Anything else that is thrown (a database error quoting its SQL and parameters, a bug) is
 * not for users; they see `userMessage(error)`, an id they can quote, and the log keeps the error.
 */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}

/**
 * The one way handlers and services signal a 4xx (calls.md §8). The error plugin turns it into the
 * envelope: 400 with `code` (+ message) or with an `errors` list, 401, 403, 404.
 */
export class ApiError extends UserFacingError {
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: FieldError[] | undefined;
  /** What the catalogue's words leave out (which record, what to do), shown after the message. */
  readonly detail: string | undefined;

  constructor(
    status: number,
    message: string,
    options: { code?: string; errors?: FieldError[]; detail?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code;
    this.errors = options.errors;
    this.detail = options.detail;
  }

  /** 400 with a catalogue code; the message defaults to the spec's text for the code. */
  static badRequest(code: ErrorCode | string, message?: string, options: { detail?: string } = {}): ApiError {
    const text = message ?? (ERROR_CODES as Record<string, string>)[code] ?? ERROR_CODES.unknown;
    return new ApiError(400, text, { code, detail: options.detail });
  }

  /** 400 with one entry per failed field or record. */
  static badRequestMany(errors: FieldError[]): ApiError {
    return new ApiError(400, ERROR_CODES.invalid_input, { code: 'invalid_input', errors });
  }

  static unauthorized(): ApiError {
    return new ApiError(401, 'Unauthorized');
  }

  static forbidden(message?: string): ApiError {
    return new ApiError(403, message ?? 'Forbidden');
  }

  static notFound(message?: string): ApiError {
    return new ApiError(404, message ?? 'Not Found');
  }
}

const errorIds = new WeakMap<object, string>();

/**
 * The id an unexpected error is logged with and a user can quote (12 hex digits). The same error
 * object keeps its id, so the job's log line, the runner's and the message a user reads agree.
 */
export function errorIdOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return randomBytes(6).toString('hex');
  let id = errorIds.get(error);
  if (!id) errorIds.set(error, (id = randomBytes(6).toString('hex')));
  return id;
}

/** What a user reads of an error we did not expect; the log has the error under the same id. */
export const internalErrorText = (id: string): string => `Internal error ${id}; the log has the details`;

/**
 * The text a user may read of `error`: a UserFacingError's (ApiError's) own message, otherwise
 * internalErrorText with the error's id. The caller logs the error with `errorId: errorIdOf(error)`.
 */
export function userMessage(error: unknown): string {
  return error instanceof UserFacingError ? error.message : internalErrorText(errorIdOf(error));
}
