import { ERROR_CODES, errorEnvelopeSchema, type ErrorEnvelope } from '@railwatt/contracts';

/**
 * A request that was cancelled on purpose: superseded by a newer keyed request, aborted by an area
 * switch, or by its caller. It is never shown to the user (calls.md §8: "cancelled requests are ignored
 * silently"); apiErrorMessages() turns it into no message at all.
 */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('request cancelled');
  }
}

export const isCancelled = (error: unknown): error is CancelledError => error instanceof CancelledError;

/** A failed call: `status` 0 means no response arrived (network error). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly envelope: Partial<ErrorEnvelope> | null,
    options?: ErrorOptions,
  ) {
    super(status === 0 ? 'no response' : `${status} ${statusText}`, options);
  }
}

/** Reads an error body leniently: a body that is not quite the envelope still yields its fields. */
export function parseEnvelope(body: unknown): Partial<ErrorEnvelope> | null {
  const parsed = errorEnvelopeSchema.partial().safeParse(body);
  return parsed.success ? parsed.data : null;
}

export type Translate = (key: string, options?: { defaultValue?: string }) => string;

const translateCode = (t: Translate, code: string): string =>
  t(`api_error_code.${code.toLowerCase()}`, { defaultValue: code });

const coded = (t: Translate, code: string, message: string | undefined): string =>
  message ? `${translateCode(t, code)}: ${message}` : translateCode(t, code);

/**
 * The user messages for a failed call, exactly calls.md §8:
 * - 400 with a code: one message 'translated code: message';
 * - 400 with an errors list: one message per error;
 * - 400 otherwise: the message;
 * - 401 and 403: the status text;
 * - 500 with a code: the coded message, else nothing;
 * - any other status: nothing;
 * - no response: the translated 'unknown' API error.
 * Cancelled requests yield nothing. The caller decides whether to show them (toast, modal, form).
 */
export function apiErrorMessages(error: unknown, t: Translate): string[] {
  if (isCancelled(error)) return [];
  if (!(error instanceof ApiError)) return [translateCode(t, 'unknown')];
  const { status, statusText, envelope } = error;
  if (status === 0) return [translateCode(t, 'unknown')];
  if (status === 400) {
    if (envelope?.code) {
      // A message that is the code's own catalogue text is said once; a detail follows it.
      const own = envelope.message === (ERROR_CODES as Record<string, string>)[envelope.code];
      const text = coded(t, envelope.code, own ? undefined : envelope.message);
      return [envelope.detail ? `${text} ${envelope.detail}` : text];
    }
    if (envelope?.errors && envelope.errors.length > 0) {
      return envelope.errors.map((e) => (e.code ? coded(t, e.code, e.message) : e.message));
    }
    return envelope?.message ? [envelope.message] : [];
  }
  if (status === 401 || status === 403) {
    // HTTP/2 responses carry no reason phrase; fall back to the envelope's `error` ("Unauthorized").
    return [statusText || envelope?.error || (status === 401 ? 'Unauthorized' : 'Forbidden')];
  }
  if (status === 500 && envelope?.code) return [coded(t, envelope.code, envelope.message)];
  return [];
}
