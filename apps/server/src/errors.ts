import { ERROR_CODES, type ErrorCode, type FieldError } from '@railwatt/contracts';

/**
 * The one way handlers and services signal a 4xx (calls.md §8). The error plugin turns it into the
 * envelope: 400 with `code` (+ message) or with an `errors` list, 401, 403, 404.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: FieldError[] | undefined;

  constructor(status: number, message: string, options: { code?: string; errors?: FieldError[] } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code;
    this.errors = options.errors;
  }

  /** 400 with a catalogue code; the message defaults to the spec's text for the code. */
  static badRequest(code: ErrorCode | string, message?: string): ApiError {
    const text = message ?? (ERROR_CODES as Record<string, string>)[code] ?? ERROR_CODES.unknown;
    return new ApiError(400, text, { code });
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
