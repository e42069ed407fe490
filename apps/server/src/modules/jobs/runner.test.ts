import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServiceContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { waitForRun } from '../../test/jobs.js';
import { recordFile } from '../datalog/datalog-service.js';
import { rows } from '../domain/sql.js';
import { UserFacingError } from '../../errors.js';
import { defineJob } from './define-job.js';
import { createJobRunner, type JobRunner } from './runner.js';

const NORWAY = areaUuid('norway');
const SWEDEN = areaUuid('sweden');
const OPERATOR = { username: 'erex-settlement-operator', roles: ['erex-settlement-operator'] as const };

/** A gate a handler waits on, so the test can look at a run while it is under way. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const halfway = gate();
const countJob = defineJob({
  name: 'test-count',
  payload: z.object({ rows: z.number().int().positive() }),
  async handler(_ctx, payload, run) {
    await run.progress(0.5, `Counted ${payload.rows / 2} of ${payload.rows}`);
    await halfway.opened;
    return `Counted ${payload.rows} rows`;
  },
});

/** What the handler saw of its context: the area its transactions set, and the runs it can see. */
const seen: { setting?: string; area?: string; visibleAreas?: string[]; ctx?: Omit<ServiceContext, 'db' | 'log'> } = {};
const contextJob = defineJob({
  name: 'test-context',
  payload: z.object({}),
  async handler(ctx) {
    const [row] = await rows<{ setting: string; area: string }>(
      ctx.db,
      sql`SELECT current_setting('railwatt.tenant', true) AS setting, rw_area()::text AS area`,
    );
    const visible = await rows<{ tenant: string }>(ctx.db, sql`SELECT DISTINCT tenant::text FROM job_run`);
    Object.assign(seen, {
      setting: row?.setting,
      area: row?.area,
      visibleAreas: visible.map((r) => r.tenant),
      ctx: { tenant: ctx.tenant, actor: ctx.actor },
    });
  },
});

const failingJob = defineJob({
  name: 'test-failing',
  payload: z.object({ reason: z.string() }),
  retryLimit: 1,
  retryDelaySeconds: 1,
  async handler(_ctx, payload, run) {
    // A refusal written for users: the run's message shows it as it is.
    throw new UserFacingError(`${payload.reason} (attempt ${run.attempt})`);
  },
});

/**
 * An error of ours, as a database driver throws it: the SQL and its parameters in the message and
 * the error's own fields, a file's NUL and a lone surrogate among them (jsonb refuses both).
 */
const brokenJob = defineJob({
  name: 'test-broken',
  payload: z.object({}),
  retryLimit: 0,
  async handler() {
    throw Object.assign(new Error('Failed query: INSERT INTO secret_table VALUES ($1)\nparams: a\u0000b'), {
      query: 'INSERT INTO secret_table VALUES ($1)',
      params: ['a\u0000b\ud800'],
    });
  },
});

const slowJob = defineJob({
  name: 'test-slow',
  payload: z.object({}),
  retryLimit: 0,
  expireInSeconds: 1,
  async handler(_ctx, _payload, run) {
    await run.progress(0.1, 'Started');
    // Works on until pg-boss gives up on the attempt (or 10 s pass).
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      run.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    await run.progress(0.9, 'Too late');
  },
});

describe('job runner (pg-boss)', () => {
  const logLines: string[] = [];
  let database: Database;
  let runner: JobRunner;
  const ctxIn = (area: string): ServiceContext => serviceContext(tenantExecutor(database, area), area, OPERATOR);

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas', 'users'] });
    // As the server serves: the app's statements are railwatt_app's, pg-boss's the owner's.
    await database.useAppRole();
    runner = createJobRunner(database, {
      log: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
      jobs: [countJob, contextJob, failingJob, slowJob, brokenJob],
      pollingIntervalSeconds: 0.5,
    });
    await runner.start();
  });

  afterAll(async () => {
    await runner?.stop();
    await database?.close();
  });

  it('runs a job with progress that screens can follow, then records its success', async () => {
    const id = await runner.enqueue(ctxIn(NORWAY), countJob, { rows: 10 });
    const running = await waitForRun(database, id, { until: ['running'] });
    await expect.poll(async () => (await runner.getRun(ctxIn(NORWAY), id))?.progress).toBe(0.5);
    expect(running).toMatchObject({ name: 'test-count', tenant: NORWAY, attempts: 1, finishedAt: null });
    expect((await runner.getRun(ctxIn(NORWAY), id))?.message).toBe('Counted 5 of 10');
    halfway.open();

    const done = await waitForRun(database, id);
    expect(done).toMatchObject({ status: 'success', progress: 1, message: 'Counted 10 rows', attempts: 1 });
    expect(done.startedAt).toMatch(/Z$/);
    expect(Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt!));
  });

  it("binds the handler's ctx.db to the run's area and acts as the user who queued it", async () => {
    await runner.enqueue(ctxIn(SWEDEN), contextJob, {});
    const id = await runner.enqueue(ctxIn(NORWAY), contextJob, {});
    await waitForRun(database, id);
    expect(seen.setting).toBe(NORWAY);
    expect(seen.area).toBe(NORWAY);
    // Norway's runs only, though Sweden has one too.
    expect(seen.visibleAreas).toEqual([NORWAY]);
    expect(seen.ctx?.tenant).toMatchObject({ uuid: NORWAY, kind: 'norway', timeZone: 'Europe/Oslo' });
    expect(seen.ctx?.actor).toEqual({ ...OPERATOR, roles: [...OPERATOR.roles], areaKind: 'norway' });
  });

  it('retries a failing job, then records it dead and leaves it in the dead-letter queue', async () => {
    const id = await runner.enqueue(ctxIn(NORWAY), failingJob, { reason: 'No such file' });
    const failed = await waitForRun(database, id, { until: ['failure'] });
    expect(failed).toMatchObject({
      status: 'failure',
      attempts: 1,
      message: 'No such file (attempt 1)',
      finishedAt: null,
    });

    const dead = await waitForRun(database, id);
    expect(dead).toMatchObject({ status: 'dead', attempts: 2, message: 'No such file (attempt 2)' });
    expect(dead.finishedAt).not.toBeNull();
    await expect
      .poll(() => runner.deadLetters(failingJob))
      .toContainEqual({ runId: id, error: 'No such file (attempt 2)' });
  });

  it('records an unexpected error as an id the log keeps, not its SQL, and ends the run (NUL and all)', async () => {
    const id = await runner.enqueue(ctxIn(NORWAY), brokenJob, {});
    const dead = await waitForRun(database, id);
    expect(dead.status).toBe('dead');
    const [, errorId] = /^Internal error ([0-9a-f]{12}); the log has the details$/.exec(dead.message ?? '') ?? [];
    expect(errorId, dead.message ?? '').toBeDefined();
    const logged = logLines.map((line) => JSON.parse(line) as { errorId?: string; err?: { message: string } });
    expect(logged.find((l) => l.errorId === errorId)?.err?.message).toContain('secret_table');
    // pg-boss kept the job (its dead-letter queue) with the same words.
    await expect.poll(() => runner.deadLetters(brokenJob)).toContainEqual({ runId: id, error: dead.message });
  });

  it('records an attempt that runs over its time as failed at once, and ignores its later progress', async () => {
    const started = Date.now();
    const id = await runner.enqueue(ctxIn(NORWAY), slowJob, {});
    const dead = await waitForRun(database, id);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(dead).toMatchObject({ status: 'dead', progress: 0.1, attempts: 1 });
    expect(dead.message).toMatch(/stopped/);
  });

  it('keeps a run in its area: another area and statements outside an area do not see it', async () => {
    const id = await runner.enqueue(ctxIn(NORWAY), contextJob, {});
    expect(await runner.getRun(ctxIn(NORWAY), id)).toMatchObject({ id, name: 'test-context' });
    expect(await runner.getRun(ctxIn(SWEDEN), id)).toBeNull();
    expect(await rows(tenantExecutor(database, SWEDEN), sql`SELECT id FROM job_run WHERE id = ${id}::uuid`)).toEqual(
      [],
    );
    expect(await database.query('SELECT id FROM job_run WHERE id = $1', [id])).toEqual([]);
    await waitForRun(database, id);
  });

  it('links a run to the data-log entry of its file', async () => {
    const ctx = ctxIn(NORWAY);
    const dataLogId = await recordFile(ctx.db, {
      tenant: NORWAY,
      username: OPERATOR.username,
      messageType: 'TEST',
      status: 'RUNNING',
      text: null,
      fileName: 'readings.csv',
    });
    const id = await runner.enqueue(ctx, contextJob, {}, { dataLogId });
    expect(await runner.getRun(ctx, id)).toMatchObject({ id, dataLogId });
    await waitForRun(database, id);
  });

  it('stores a schedule with the area and actor its runs act as, and removes it', async () => {
    await runner.schedule(countJob, '0 3 * * *', { rows: 1 }, { tenant: NORWAY, ...OPERATOR, key: 'norway' });
    expect(await runner.schedules(countJob)).toEqual([
      {
        key: 'norway',
        cron: '0 3 * * *',
        timeZone: 'UTC',
        envelope: { tenant: NORWAY, ...OPERATOR, roles: [...OPERATOR.roles], payload: { rows: 1 }, scheduled: true },
      },
    ]);
    await runner.unschedule(countJob, 'norway');
    expect(await runner.schedules(countJob)).toEqual([]);
  });

  it('stores the run of a scheduled job when it starts (no request stored it)', async () => {
    const envelope = { tenant: NORWAY, ...OPERATOR, roles: [...OPERATOR.roles], payload: {}, scheduled: true };
    // What pg-boss's cron sends for a schedule made with runner.schedule.
    const id = await runner.boss!.send(contextJob.name, envelope);
    const done = await waitForRun(database, id!);
    expect(done).toMatchObject({ name: 'test-context', tenant: NORWAY, status: 'success', attempts: 1 });
    expect(seen.ctx?.actor.username).toBe(OPERATOR.username);
  });

  it("refuses a payload outside the job's contract and stores nothing", async () => {
    const before = await database.query('SELECT id FROM job_run');
    await expect(runner.enqueue(ctxIn(NORWAY), countJob, { rows: -1 })).rejects.toThrow(/too_small|>0|positive/i);
    expect(await database.query('SELECT id FROM job_run')).toEqual(before);
  });

  it("keeps the app's role out of pg-boss's schema", async () => {
    await expect(database.query('SELECT id FROM pgboss.job')).rejects.toThrow(/permission denied/);
    // ... and the app's role is still railwatt_app after pg-boss's statements ran as the owner.
    expect(await database.query('SELECT current_user AS role')).toEqual([{ role: 'railwatt_app' }]);
  });
});
