// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorMessages, CancelledError, type Translate } from './errors';

const DICT: Record<string, string> = {
  'api_error_code.uniquename': 'Name must be unique',
  'api_error_code.process_already_running': 'Process is already running',
  'api_error_code.unknown': 'Unknown error',
};
const t: Translate = (key, options) => DICT[key] ?? options?.defaultValue ?? key;
const env = (fields: object) => ({ timestamp: '2025-01-01T00:00:00Z', status: 400, error: 'Bad Request', ...fields });

describe('API error parsing (calls.md §8)', () => {
  it('400 with a code: one message "translated code: message", code looked up lowercased', () => {
    expect(
      apiErrorMessages(new ApiError(400, 'Bad Request', env({ code: 'UNIQUENAME', message: 'Fleet A' })), t),
    ).toEqual(['Name must be unique: Fleet A']);
  });

  it('400 with a code whose message is its catalogue text says it once, and a detail follows', () => {
    const message = 'Approved settlement already exists for the area or organisation';
    const e = new ApiError(
      400,
      'Bad Request',
      env({ code: 'approved-settlement-exists', message, detail: 'Result 6 of settlement is approved.' }),
    );
    expect(
      apiErrorMessages(e, (key, options) => (key.endsWith('approved-settlement-exists') ? message : t(key, options))),
    ).toEqual([`${message} Result 6 of settlement is approved.`]);
  });

  it('400 with an errors list: one message per error', () => {
    const e = new ApiError(
      400,
      'Bad Request',
      env({ errors: [{ message: 'first' }, { field: 'evn', message: 'second' }] }),
    );
    expect(apiErrorMessages(e, t)).toEqual(['first', 'second']);
  });

  it('400 otherwise: the message', () => {
    expect(apiErrorMessages(new ApiError(400, 'Bad Request', env({ message: 'plain' })), t)).toEqual(['plain']);
  });

  it('401 and 403: the status text', () => {
    expect(apiErrorMessages(new ApiError(401, 'Unauthorized', null), t)).toEqual(['Unauthorized']);
    expect(apiErrorMessages(new ApiError(403, 'Forbidden', env({ status: 403, error: 'Forbidden' })), t)).toEqual([
      'Forbidden',
    ]);
    // HTTP/2 has no reason phrase: the envelope's error stands in.
    expect(apiErrorMessages(new ApiError(403, '', env({ status: 403, error: 'Forbidden' })), t)).toEqual(['Forbidden']);
  });

  it('500 with a code: the coded message; without: nothing', () => {
    expect(
      apiErrorMessages(
        new ApiError(500, 'Internal Server Error', env({ status: 500, code: 'process_already_running' })),
        t,
      ),
    ).toEqual(['Process is already running']);
    expect(apiErrorMessages(new ApiError(500, 'Internal Server Error', env({ status: 500 })), t)).toEqual([]);
  });

  it('any other status: nothing', () => {
    expect(apiErrorMessages(new ApiError(404, 'Not Found', env({ status: 404, message: 'gone' })), t)).toEqual([]);
    expect(apiErrorMessages(new ApiError(502, 'Bad Gateway', null), t)).toEqual([]);
  });

  it("no response: the translated 'unknown' API error", () => {
    expect(apiErrorMessages(new ApiError(0, '', null), t)).toEqual(['Unknown error']);
  });

  it('a cancelled request: nothing at all', () => {
    expect(apiErrorMessages(new CancelledError(), t)).toEqual([]);
  });
});
