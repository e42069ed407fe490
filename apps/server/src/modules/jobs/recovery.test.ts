import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { allAreasDatabase, tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { waitForRun } from '../../test/jobs.js';
import { defineJob, type InterruptedOutcome } from './define-job.js';
import { interruptedMessage } from './recovery.js';
import { insertRun } from './repository.js';
import { createJobRunner, type JobRunner } from './runner.js';

const NORWAY = areaUuid('norway');
const OPERATOR = { username: 'erex-settlement-operator', roles: ['erex-settlement-operator'] as const };

/** Attempts each job's handler ran, and what onInterrupted was told, by run id. */
const attempts = new Map<string, number[]>();
const told = new Map<string, InterruptedOutcome>();
const declare = (name: string, extra: { retryLimit?: number; interrupted?: 'retry' | 'fail' }) =>
  defineJob({
    name,
    payload: z.object({}),
    retryDelaySeconds: 0,
    ...extra,
    async onInterrupted(_ctx, _payload, outcome) {
      told.set(`${name}:${outcome.attempt}`, outcome);
    },
    async handler(_ctx, _payload, run) {
      attempts.set(run.id, [...(attempts.get(run.id) ?? []), run.attempt]);
      return `Done in attempt ${run.attempt}`;
    },
  });

const retried = declare('test-recover-retry', { retryLimit: 1 });
const notRepeated = declare('test-recover-fail', { interrupted: 'fail' });
const last = declare('test-recover-last', { retryLimit: 0 });
const JOBS = [retried, notRepeated, last];

/**
 * A process that dies during its attempts (issue 17 item 5), played in one process: a runner that
 * works on nothing queues the jobs and claims them as a worker would (pg-boss: active; job_run:
 * running), then stops without settling them, as kill -9 would leave them. The next runner's start
 * must settle each before its workers run, on PGlite and PostgreSQL alike.
 */
describe('job runner start-up: runs of a process that died', () => {
  let database: Database;
  let next: JobRunner;
  const ids: Record<'retried' | 'notRepeated' | 'last' | 'finished' | 'lost', string> = {
    retried: '',
    notRepeated: '',
    last: '',
    finished: '',
    lost: '',
  };

  const bossState = async (name: string, id: string) => (await next.boss!.getJobById(name, id))?.state;

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas', 'users'] });
    await database.useAppRole();
    const silent = pino({ level: 'silent' });
    const dying = createJobRunner(database, { log: silent, jobs: JOBS, work: false });
    await dying.start();
    const db = tenantExecutor(database, NORWAY);
    const ctx = serviceContext(db, NORWAY, OPERATOR);
    const claim = async (job: (typeof JOBS)[number], id: string, jobRunStatus = 'running') => {
      const [claimed] = await dying.boss!.fetch(job.name);
      expect(claimed?.id).toBe(id);
      await allAreasDatabase(database).query(
        `UPDATE job_run SET status = $2, attempts = 1, started_at = now(),
                finished_at = CASE WHEN $2 = 'success' THEN now() END WHERE id = $1`,
        [id, jobRunStatus],
      );
    };
    for (const [key, job] of [
      ['retried', retried],
      ['notRepeated', notRepeated],
      ['last', last],
    ] as const) {
      ids[key] = await dying.enqueue(ctx, job, {});
      await claim(job, ids[key]);
    }
    // A handler that finished and recorded it; the process died before pg-boss heard.
    ids.finished = await dying.enqueue(ctx, retried, {});
    await claim(retried, ids.finished, 'success');
    // A run stored whose job was never sent.
    ids.lost = '00000000-0000-4000-8000-00000000fade';
    await insertRun(db, { id: ids.lost, tenant: NORWAY, name: retried.name, payload: {}, ...OPERATOR });
    // Stopping a runner that works on nothing leaves claimed jobs as they are: active.
    await dying.stop();

    next = createJobRunner(database, { log: silent, jobs: JOBS, pollingIntervalSeconds: 0.5 });
    await next.start();
  });

  afterAll(async () => {
    await next?.stop();
    await database?.close();
  });

  it('retries an interrupted attempt as a failed one: the run goes on from attempt 2', async () => {
    expect(told.get(`${retried.name}:1`)).toEqual({
      attempt: 1,
      retried: true,
      message: interruptedMessage(1, 'retried'),
    });
    const done = await waitForRun(database, ids.retried);
    expect(done).toMatchObject({ status: 'success', attempts: 2, message: 'Done in attempt 2' });
    // The dead process's attempt is not run again beside the retry.
    expect(attempts.get(ids.retried)).toEqual([2]);
    expect(await bossState(retried.name, ids.retried)).toBe('completed');
  });

  it('ends a job declared interrupted: fail, and pg-boss never runs it again', async () => {
    const run = await waitForRun(database, ids.notRepeated, { until: ['failure'] });
    expect(run).toMatchObject({ message: interruptedMessage(1, 'not-repeated') });
    expect(run.finishedAt).not.toBeNull();
    expect(told.get(`${notRepeated.name}:1`)).toMatchObject({ retried: false });
    expect(await bossState(notRepeated.name, ids.notRepeated)).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(attempts.has(ids.notRepeated)).toBe(false);
  });

  it('sends an interrupted last attempt to the dead-letter queue, dead', async () => {
    const run = await waitForRun(database, ids.last, { until: ['dead'] });
    expect(run.message).toBe(interruptedMessage(1, 'last'));
    expect(told.get(`${last.name}:1`)).toMatchObject({ retried: false });
    expect((await next.deadLetters(last)).map((d) => d.runId)).toContain(ids.last);
    expect(attempts.has(ids.last)).toBe(false);
  });

  it('completes the job of a run whose end was recorded, without running it again', async () => {
    expect(await bossState(retried.name, ids.finished)).toBe('completed');
    expect((await waitForRun(database, ids.finished)).status).toBe('success');
    expect(attempts.has(ids.finished)).toBe(false);
  });

  it('ends a run whose job was never sent, so nothing waits for it', async () => {
    const run = await waitForRun(database, ids.lost, { until: ['dead'] });
    expect(run.message).toBe('The server stopped before the run was queued; it is not run');
  });
});
