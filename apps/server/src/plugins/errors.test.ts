import { errorEnvelopeSchema } from '@railwatt/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { openTestDatabase } from '../test/database.js';
import { mapPgError } from './errors.js';

const open = { access: { public: true as const } };

function registerFixtures(root: FastifyInstance, database: () => TestApp['database']) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/api/test/coded', { config: open }, async () => {
    throw ApiError.badRequest('uniquename');
  });
  app.get('/api/test/coded-message', { config: open }, async () => {
    throw ApiError.badRequest('process_already_running', 'Settlement is already running');
  });
  app.get('/api/test/many', { config: open }, async () => {
    throw ApiError.badRequestMany([{ code: 'notblank', field: 'name', message: 'Field should not be empty' }]);
  });
  app.post(
    '/api/test/validated',
    {
      config: open,
      schema: { body: z.object({ name: z.string().min(1), items: z.array(z.object({ n: z.number() })) }) },
    },
    async () => ({ ok: true }),
  );
  app.get('/api/test/forbidden', { config: open }, async () => {
    throw ApiError.forbidden();
  });
  app.get('/api/test/missing', { config: open }, async () => {
    throw ApiError.notFound();
  });
  app.get('/api/test/crash', { config: open }, async () => {
    throw new Error('secret connection string postgres://user:pw@db');
  });
  app.get('/api/test/unique', { config: open }, async () => {
    await database().query(
      `INSERT INTO settlement_area (uuid, name, kind, time_zone) VALUES (gen_random_uuid(), 'Norway', 'norway', 'UTC')`,
    );
    return {};
  });
  app.get('/api/test/unique-other', { config: open }, async () => {
    await database().query(`INSERT INTO app_user (username) VALUES ('consumer')`);
    return {};
  });
  app.get('/api/test/overlap', { config: open }, async () => {
    await database().exec(`
      CREATE TABLE IF NOT EXISTS test_range (id int, during tstzrange,
        CONSTRAINT test_range_nooverlap EXCLUDE USING gist (id WITH =, during WITH &&));
      DELETE FROM test_range;
      INSERT INTO test_range VALUES (1, tstzrange('2024-01-01', '2024-02-01'));`);
    await database().query(`INSERT INTO test_range VALUES (1, tstzrange('2024-01-15', '2024-03-01'))`);
    return {};
  });
}

describe('error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The overlap fixture creates a table: DDL is the owner's, not railwatt_app's.
    t = await createTestApp({ asOwner: true, beforeReady: (app) => registerFixtures(app, () => t.database) });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('writes a 400 with a catalogue code and its spec text', async () => {
    const response = await get('/api/test/coded');
    expect(response.statusCode).toBe(400);
    const body = errorEnvelopeSchema.parse(response.json());
    expect(body).toMatchObject({
      status: 400,
      error: 'Bad Request',
      code: 'uniquename',
      message: 'Name must be unique',
      path: '/api/test/coded',
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect((await get('/api/test/coded-message')).json()).toMatchObject({
      code: 'process_already_running',
      message: 'Settlement is already running',
    });
  });

  it('writes a 400 with an errors list', async () => {
    const body = (await get('/api/test/many')).json();
    expect(body).toMatchObject({
      status: 400,
      errors: [{ code: 'notblank', field: 'name', message: 'Field should not be empty' }],
    });
  });

  it('turns zod validation failures into 400 invalid_input with field paths', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      payload: { name: '', items: [{ n: 'x' }] },
    });
    expect(response.statusCode).toBe(400);
    const body = errorEnvelopeSchema.parse(response.json());
    expect(body.code).toBe('invalid_input');
    expect(body.errors?.map((e) => e.field).sort()).toEqual(['items.0.n', 'name']);
  });

  it('turns malformed JSON into 400 invalid_input', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, code: 'invalid_input' });
  });

  it('writes 403 and 404 with the status text', async () => {
    expect((await get('/api/test/forbidden')).json()).toMatchObject({ status: 403, error: 'Forbidden' });
    expect((await get('/api/test/missing')).json()).toMatchObject({ status: 404, error: 'Not Found' });
  });

  it('answers unknown /api paths with a 404 envelope, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/nothing/here?x=1' });
      expect(response.statusCode).toBe(404);
      expect(errorEnvelopeSchema.parse(response.json())).toMatchObject({ status: 404, path: '/api/nothing/here' });
    }
  });

  it('hides internals of a 500, naming the id the log keeps the error under', async () => {
    const response = await get('/api/test/crash');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual({
      timestamp: expect.any(String),
      status: 500,
      error: 'Internal Server Error',
      message: expect.stringMatching(/^Internal error [0-9a-f]{12}; the log has the details$/),
      path: '/api/test/crash',
    });
    // Every failure its own id.
    expect((await get('/api/test/crash')).json().message).not.toBe(response.json().message);
  });

  it('maps unique violations to uniquename / uniqueproperties by constraint name', async () => {
    expect((await get('/api/test/unique')).json()).toMatchObject({ status: 400, code: 'uniquename' });
    expect((await get('/api/test/unique-other')).json()).toMatchObject({ status: 400, code: 'uniqueproperties' });
  });

  it('maps an exclusion violation of a *_nooverlap constraint to nooverlap', async () => {
    expect((await get('/api/test/overlap')).json()).toMatchObject({
      status: 400,
      code: 'nooverlap',
      message: 'Areas must not overlap',
    });
  });
});

describe('mapPgError', () => {
  const pgError = (code: string, constraint?: string) => Object.assign(new Error('db'), { code, constraint });

  it('chooses the code from the constraint name, also through a wrapping cause', () => {
    expect(mapPgError(pgError('23505', 'organisation_uniqueorgid'))?.code).toBe('uniqueorgid');
    expect(mapPgError(pgError('23505', 'x_uniquename'))?.code).toBe('uniquename');
    expect(mapPgError(pgError('23505', 'x_key'))?.code).toBe('uniqueproperties');
    expect(mapPgError(pgError('23P01', 'segment_nooverlap'))?.code).toBe('nooverlap');
    expect(mapPgError(pgError('23P01', 'segment_excl'))?.code).toBe('invalid_input');
    expect(mapPgError(new Error('wrapped', { cause: pgError('23505', 'a_uniquename') }))?.code).toBe('uniquename');
  });

  it('leaves other errors alone', () => {
    expect(mapPgError(pgError('42P01'))).toBeUndefined();
    expect(mapPgError(new Error('plain'))).toBeUndefined();
  });
});

describe('the constraint table (db/constraints.ts)', () => {
  const pgError = (code: string, constraint?: string) => Object.assign(new Error('db'), { code, constraint });

  it('answers each named constraint of the schema with its code and field', () => {
    expect(mapPgError(pgError('23P01', 'entity_segment_unique_evn'))).toMatchObject({
      status: 400,
      code: 'uniqueproperties',
      errors: [{ field: 'evn', code: 'uniqueproperties' }],
    });
    expect(mapPgError(pgError('23P01', 'entity_segment_unique_name'))).toMatchObject({
      code: 'uniquename',
      errors: [{ field: 'name' }],
    });
    expect(mapPgError(pgError('23P01', 'entity_segment_unique_orgid'))?.code).toBe('uniqueorgid');
    expect(mapPgError(pgError('23505', 'app_user_username_uniqueproperties'))?.code).toBe('uniqueproperties');
    expect(mapPgError(pgError('23514', 'organisation_credential_kind_check'))?.code).toBe('invalid_input');
  });

  it('refuses a row that row-level security rejects with 403, never 500', () => {
    expect(mapPgError(pgError('42501'))?.status).toBe(403);
  });

  it('names only constraints and unique indexes that exist in the migrated schema', async () => {
    // Read from the catalog, not from the SQL text: implicit names (primary keys, column checks) count too.
    const database = await openTestDatabase();
    try {
      const existing = new Set(
        (
          await database.query<{ name: string }>(
            `SELECT conname AS name FROM pg_constraint UNION SELECT relname FROM pg_class WHERE relkind = 'i'`,
          )
        ).map((r) => r.name),
      );
      const { CONSTRAINT_ERRORS } = await import('../db/constraints.js');
      const missing = Object.keys(CONSTRAINT_ERRORS).filter((name) => !existing.has(name));
      expect(missing).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
