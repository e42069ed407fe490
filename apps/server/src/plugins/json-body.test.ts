import {
  DATE_OUT_OF_RANGE_MESSAGE,
  MAX_JSON_BODY_BYTES,
  MAX_JSON_DEPTH,
  NUL_MESSAGE,
  RANGE_ORDER_MESSAGE,
} from '@railwatt/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedUuid } from '../seed/fleet.js';
import { createTestApp, type TestApp } from '../test/app.js';

const ADMIN = 'erex-administrator';
const open = { access: { public: true as const } };

/** An object/array chain `depth` levels deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('request bodies and input the database would refuse', () => {
  let t: TestApp;
  let reached = 0;

  function registerFixtures(app: FastifyInstance) {
    // Accepts any JSON: what gets here passed the body parser and nothing else.
    app.post('/api/test/echo', { config: open }, async () => {
      reached++;
      return { ok: true };
    });
    // Real SQL with the request's values, so the database's own data exceptions are met.
    app.post(
      '/api/test/sql',
      { config: open, schema: { body: z.object({ sql: z.enum(['text', 'range', 'int']), value: z.string() }) } },
      async (request) => {
        const { sql, value } = request.body as { sql: 'text' | 'range' | 'int'; value: string };
        const statements = {
          text: 'SELECT $1::text AS v',
          range: "SELECT tstzrange($1::timestamptz, '2024-01-01'::timestamptz) AS v",
          int: 'SELECT $1::int AS v',
        };
        return { rows: await t.database.query(statements[sql], [value]) };
      },
    );
  }

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'], beforeReady: registerFixtures });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    });

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} before any handler sees it`, async () => {
    reached = 0;
    const deep = await post('/api/test/echo', nested(1100));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({
      status: 400,
      code: 'invalid_input',
      errors: [{ field: 'body', message: `The body may nest objects and lists at most ${MAX_JSON_DEPTH} levels deep` }],
    });
    expect((await post('/api/test/echo', nested(MAX_JSON_DEPTH + 1))).statusCode).toBe(400);
    expect(reached).toBe(0);
    // Exactly the limit passes; brackets inside strings do not count.
    expect((await post('/api/test/echo', nested(MAX_JSON_DEPTH))).statusCode).toBe(200);
    expect((await post('/api/test/echo', { text: '['.repeat(5000) })).statusCode).toBe(200);
    expect(reached).toBe(2);
  });

  it('a save nested 1,100 deep gets 400 invalid_input and the embedded database stays healthy', async () => {
    // Organisation settings were an open record stored as jsonb: 1,100 levels of it crashed PGlite.
    const body = {
      type: 'Organisation',
      name: 'Deep Org',
      orgId: 'DEEP-1',
      organisationTypes: ['VEHICLE_KEEPER'],
      emails: 'ops@deep.example',
      reportSettings: { language: 'English', deep: nested(1100) },
    };
    const before = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM entity');
    const response = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_input');
    expect(await t.database.query('SELECT count(*)::int AS n FROM entity')).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('refuses __proto__ keys, malformed JSON and bodies over 1 MB with the envelope', async () => {
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"__proto__": {"admin": true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.statusCode).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"a": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.json()).toMatchObject({ status: 400, code: 'invalid_input' });
    const big = await post('/api/test/echo', { text: 'x'.repeat(MAX_JSON_BODY_BYTES) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ status: 413, error: 'Payload Too Large' });
    expect((await post('/api/test/echo', { text: 'x'.repeat(MAX_JSON_BODY_BYTES - 100) })).statusCode).toBe(200);
  });

  it('keeps the larger multipart limit of the Excel import (a 3 MB upload is read, not refused as too large)', async () => {
    const boundary = 'limit-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.xlsx"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      Buffer.alloc(3_000_000, 0x41),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/excel/domain/import',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    // Read whole and judged by the workbook checks: not a zip, so a 400 or a failed upload, never 413.
    expect(response.statusCode).not.toBe(413);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain('larger than');
  });

  it('maps the database data exceptions (class 22) to 400 invalid_input, never 500', async () => {
    for (const body of [
      { sql: 'text', value: 'a\u0000b' }, // 22021 invalid byte sequence
      { sql: 'range', value: '2025-01-01T00:00:00Z' }, // 22000 reversed range bounds
      { sql: 'int', value: '99999999999' }, // 22003 out of range
    ]) {
      const response = await post('/api/test/sql', body);
      expect({ body: body.sql, status: response.statusCode, code: response.json().code }).toEqual({
        body: body.sql,
        status: 400,
        code: 'invalid_input',
      });
    }
  });

  it('a NUL or an over-long name is a 400 naming the field', async () => {
    const owner = seedUuid('norway:org:vy');
    for (const name of ['Unit\u0000', 'x'.repeat(201)]) {
      const response = await t.callAs(ADMIN, {
        method: 'POST',
        url: '/api/domain/save',
        payload: { type: 'TractionUnit', name, evn: '917600100098', owner },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        expect.objectContaining({
          field: 'name',
          message: name.includes('\u0000') ? NUL_MESSAGE : 'At most 200 characters',
        }),
      ]);
    }
    const description = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'TractionUnit', name: 'Fine', evn: '917600100098', owner, description: 'bad\u0000' },
    });
    expect(description.statusCode).toBe(400);
    expect(JSON.stringify(description.json())).toContain('description');
  });

  it('a time range whose start is after its end, or outside 1970..2070, is a 400 naming the field', async () => {
    const uuid = seedUuid('norway:org:vy');
    const status = (timeRange: { start: string; end: string }) =>
      t.callAs(ADMIN, {
        method: 'POST',
        url: '/api/domain/status',
        payload: { action: 'setinactive', uuids: [uuid], type: 'Organisation', timeRange },
      });
    const reversed = await status({ start: '2025-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors).toEqual([
      expect.objectContaining({ field: 'timeRange.end', message: RANGE_ORDER_MESSAGE }),
    ]);
    const far = await status({ start: '2024-01-01T00:00:00Z', end: '9999-01-01T00:00:00Z' });
    expect(far.json().errors).toEqual([
      expect.objectContaining({ field: 'timeRange.end', message: DATE_OUT_OF_RANGE_MESSAGE }),
    ]);
    const list = await t.callAs(ADMIN, {
      method: 'GET',
      url: '/api/domain/organisation/all?start=2025-01-01T00:00:00Z&end=2024-01-01T00:00:00Z',
    });
    expect(list.statusCode).toBe(400);
    expect(list.json().errors).toEqual([expect.objectContaining({ field: 'end', message: RANGE_ORDER_MESSAGE })]);
  });
});
