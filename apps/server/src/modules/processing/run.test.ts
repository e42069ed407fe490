import { procedureResultSchema, type ProcedureResult } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constraintErrorOf } from '../../db/constraints.js';
import { procedureRunJob } from '../../jobs/procedure-run.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';
import { withProcedures } from '../../test/procedures.js';
import type { ChunkScope, ProcedureDeclaration } from './define-procedure.js';
import { noImplementation } from './run.js';

/** While true, the freight-consumption-factor test procedure keeps failing (its run stays under way). */
let holdFreight = false;

const RUNNER = 'settlement-area-responsible';
// March 2024 in Oslo (the Norway area's zone): 31 area days, the last one 23 hours long.
const MARCH = { start: '2024-02-29T23:00:00Z', end: '2024-03-31T22:00:00Z' };

/** Days the test procedures were called for, per procedure. */
const calls = new Map<string, string[]>();
const called = (name: string, scope: ChunkScope) => calls.set(name, [...(calls.get(name) ?? []), scope.chunk.day]);

/**
 * A procedure as the real ones are written: set-based SQL over its chunk, replacing what the chunk
 * wrote before (delete the chunk's range, then insert), so a repeated chunk never duplicates.
 */
const writeDay = (name: string): Omit<ProcedureDeclaration, 'name'> => ({
  async run(ctx, scope) {
    called(name, scope);
    await ctx.db.execute(
      sql`DELETE FROM test_output WHERE procedure = ${name} AND day_start >= ${scope.start}::timestamptz
            AND day_start < ${scope.end}::timestamptz`,
    );
    await ctx.db.execute(
      sql`INSERT INTO test_output (procedure, day_start, day) VALUES (${name}, ${scope.start}::timestamptz, ${scope.chunk.day})`,
    );
  },
});

describe('procedure runs (the procedure-run job)', () => {
  let t: TestApp;

  beforeAll(async () => {
    let attempts = 0;
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        profile: writeDay('profile'),
        'annual-distribution': writeDay('annual-distribution'),
        'price-and-supply': {
          async run(_ctx, scope) {
            called('price-and-supply', scope);
            // An unexpected error, worded like a database error: its SQL is not for the result's message.
            if (scope.chunk.index === 1)
              throw new Error(`Failed query: SELECT supply FROM s WHERE day = '${scope.chunk.day}'`);
          },
        },
        // Fails while the test holds it (at least its first attempt): the run stays under way while the
        // job waits to retry it, however slowly the machine answers the test's requests meanwhile.
        'freight-consumption-factor': {
          async run() {
            if (attempts++ === 0 || holdFreight) throw new Error('Not yet');
          },
        },
        // Left out: a run of it finds no definition.
        'on-account': null,
        // Records a code its definition does not declare (its events: the consumption-factor codes).
        'calculate-consumption-factor': {
          async run(_ctx, scope, report) {
            report.event({ errorCode: 'unknown-evn', time: scope.start });
          },
        },
      }),
    });
    // A table of the test's own, made by the owning user (the app works as railwatt_app).
    await t.database.exec(`BEGIN; SET LOCAL ROLE NONE;
      CREATE TABLE test_output (procedure text NOT NULL, day_start timestamptz NOT NULL, day text NOT NULL);
      GRANT ALL ON test_output TO railwatt_app; COMMIT;`);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function run(procedure: string, timeRange: { start: string; end: string }) {
    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: `/api/processing/${procedure}/run?zoneId=Europe/Oslo`,
      payload: { timeRange },
    });
    return response;
  }

  async function started(procedure: string, timeRange: { start: string; end: string }): Promise<ProcedureResult> {
    const response = await run(procedure, timeRange);
    expect(response.statusCode, response.body).toBe(200);
    return procedureResultSchema.parse(response.json());
  }

  async function stored(id: number): Promise<ProcedureResult> {
    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/findBy?size=1000',
      payload: {},
    });
    const found = response.json<{ content: ProcedureResult[] }>().content.find((r) => r.id === id);
    if (!found) throw new Error(`No result ${id}`);
    return found;
  }

  const outputDays = async (procedure: string) =>
    (
      await t.allAreas.query<{ day: string }>('SELECT day FROM test_output WHERE procedure = $1 ORDER BY day', [
        procedure,
      ])
    ).map((r) => r.day);

  it('runs a month as 31 area days, each once, with progress, to success', async () => {
    const result = await started('profile', MARCH);
    expect(result).toMatchObject({ procedureName: 'profile', status: 'initial', username: RUNNER });
    expect(result.jobId).not.toBeNull();
    const job = await waitForRun(t.database, result.jobId!);
    expect(job).toMatchObject({ status: 'success', progress: 1, message: '31 of 31 days processed' });

    expect(await stored(result.id)).toMatchObject({
      status: 'success',
      progress: 1,
      message: '31 of 31 days processed',
      periodStart: '2024-02-29T23:00:00.000Z',
      periodEnd: '2024-03-31T22:00:00.000Z',
    });
    const days = await outputDays('profile');
    expect(days).toHaveLength(31);
    expect(days[0]).toBe('2024-03-01');
    expect(days[30]).toBe('2024-03-31');
    const [chunks] = await t.allAreas.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM procedure_chunk WHERE procedure_result_id = $1',
      [result.id],
    );
    expect(chunks?.n).toBe(31);
  });

  it('runs the same period again without duplicating: each chunk replaces what it wrote', async () => {
    const again = await started('profile', MARCH);
    await waitForRun(t.database, again.jobId!);
    expect(await outputDays('profile')).toHaveLength(31);
    expect(calls.get('profile')).toHaveLength(62);
  });

  it('fails a run of a procedure without a definition, saying so', async () => {
    // ALL_PROCEDURES defines every one (procedures.test.ts); this app's list leaves on-account out.
    const result = await started('on-account', { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' });
    await waitForRun(t.database, result.jobId!);
    expect(await stored(result.id)).toMatchObject({ status: 'failure', message: noImplementation('on-account') });
  });

  it('fails a chunk that records an event code its definition does not declare, storing none of it', async () => {
    const result = await started('calculate-consumption-factor', {
      start: '2024-05-01T22:00:00Z',
      end: '2024-05-02T22:00:00Z',
    });
    await waitForRun(t.database, result.jobId!, { until: ['failure', 'dead'] });
    expect(await stored(result.id)).toMatchObject({
      status: 'running',
      message: expect.stringMatching(/^Attempt 1 failed/),
    });
    const [events] = await t.allAreas.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM processing_event WHERE procedure_result_id = $1`,
      [result.id],
    );
    expect(events!.n).toBe(0);
  });

  it('refuses a second run of the same or an overlapping period while the first is under way', async () => {
    const january = { start: '2024-01-01T00:00:00Z', end: '2024-01-03T00:00:00Z' };
    holdFreight = true;
    const first = await started('freight-consumption-factor', january);
    // Its first attempt fails: the run is under way (running) while the job waits 3 s to retry.
    await waitForRun(t.database, first.jobId!, { until: ['failure'] });
    expect((await stored(first.id)).status).toBe('running');

    for (const period of [january, { start: '2024-01-02T00:00:00Z', end: '2024-01-05T00:00:00Z' }]) {
      const second = await run('freight-consumption-factor', period);
      expect(second.statusCode).toBe(400);
      expect(second.json()).toMatchObject({ code: 'process_already_running', message: 'Process is already running' });
    }
    holdFreight = false;
    // Another procedure, or another period, runs.
    const other = await started('settlement', january);
    await waitForRun(t.database, other.jobId!);

    await waitForRun(t.database, first.jobId!);
    expect((await stored(first.id)).status).toBe('success');
    const later = await started('freight-consumption-factor', january);
    await waitForRun(t.database, later.jobId!);
  });

  it('makes one run under way per scope a database rule, answered process_already_running', async () => {
    const tenant = t.areaUuid('norway');
    const insert = (start: string, end: string) =>
      t.allAreas.query(
        `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
         VALUES ($1, 'on-account', 'running', $2, $3, 'test')`,
        [tenant, start, end],
      );
    await insert('2023-01-01T00:00:00Z', '2023-02-01T00:00:00Z');
    const refused = await insert('2023-01-15T00:00:00Z', '2023-01-16T00:00:00Z').catch((error: unknown) => error);
    expect(constraintErrorOf(refused)).toMatchObject({ code: 'process_already_running' });
    await t.allAreas.query(`UPDATE procedure_result SET status = 'failure' WHERE procedure_name = 'on-account'`);
  });

  it('fails the run when a chunk throws: retried, then dead-lettered, the result failure with an error id, not the SQL', async () => {
    const result = await started('price-and-supply', { start: '2024-04-01T22:00:00Z', end: '2024-04-04T22:00:00Z' });
    const job = await waitForRun(t.database, result.jobId!, { timeoutMs: 30_000 });
    expect(job).toMatchObject({ status: 'dead', attempts: 3 });
    expect(await stored(result.id)).toMatchObject({
      status: 'failure',
      message: expect.stringMatching(/^Failed after 3 attempts: Internal error [0-9a-f]{12}; the log has the details$/),
    });
    // The first day committed once and was skipped by the retries; the second was tried three times.
    expect(calls.get('price-and-supply')).toEqual(['2024-04-02', '2024-04-03', '2024-04-03', '2024-04-03']);
    expect(await t.app.jobs.deadLetters(procedureRunJob)).toEqual(
      expect.arrayContaining([expect.objectContaining({ runId: result.jobId })]),
    );
  }, 40_000);

  it('completes a killed run when started again, without running its finished days twice', async () => {
    const tenant = t.areaUuid('norway');
    // A run killed after 10 of March's days: its job is dead, the result still says running, and
    // the 10 days are committed (done-marks and output).
    const [job] = await t.allAreas.query<{ id: string }>(
      `INSERT INTO job_run (id, tenant, name, status, username) VALUES (gen_random_uuid(), $1, 'procedure-run', 'dead', $2)
       RETURNING id`,
      [tenant, RUNNER],
    );
    const [killed] = await t.allAreas.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, job_id, progress)
       VALUES ($1, 'annual-distribution', 'running', $2, $3, $4, $5, 0.3) RETURNING id::int AS id`,
      [tenant, MARCH.start, MARCH.end, RUNNER, job!.id],
    );
    await t.allAreas.query(
      `INSERT INTO procedure_chunk (procedure_result_id, tenant, chunk_start, chunk_end)
       SELECT $1, $2, d, d + interval '1 day' FROM generate_series($3::timestamptz, $3::timestamptz + interval '9 days', interval '1 day') d`,
      [killed!.id, tenant, MARCH.start],
    );
    await t.allAreas.query(
      `INSERT INTO test_output (procedure, day_start, day)
       SELECT 'annual-distribution', d, to_char(d AT TIME ZONE 'Europe/Oslo', 'YYYY-MM-DD')
         FROM generate_series($1::timestamptz, $1::timestamptz + interval '9 days', interval '1 day') d`,
      [MARCH.start],
    );

    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/processing/annual-distribution/rerun?zoneId=Europe/Oslo',
      payload: { rows: [killed!.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [resumed] = response.json<ProcedureResult[]>();
    expect(resumed).toMatchObject({ id: killed!.id, status: 'initial' });
    await waitForRun(t.database, resumed!.jobId!);

    expect(await stored(killed!.id)).toMatchObject({
      status: 'success',
      progress: 1,
      message: '31 of 31 days processed',
    });
    expect(calls.get('annual-distribution')).toHaveLength(21);
    expect(calls.get('annual-distribution')![0]).toBe('2024-03-11');
    const days = await outputDays('annual-distribution');
    expect(days).toHaveLength(31);
    expect(new Set(days).size).toBe(31);
  });
});
