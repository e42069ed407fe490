import {
  deadLetterMessageSchema,
  deadLetterQueueSchema,
  deadLetterQueueSummarySchema,
  deadLetterRerunResultSchema,
  procedureResultSchema,
  type DeadLetterMessage,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tenantExecutor } from '../../db/tenant.js';
import { UserFacingError } from '../../errors.js';
import { recordFile } from '../../modules/datalog/datalog-service.js';
import { defineJob } from '../../modules/jobs/define-job.js';
import { findResult } from '../../modules/processing/repository.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { withProcedures } from '../../test/procedures.js';
import { serviceContext } from '../../test/context.js';
import { waitForRun } from '../../test/jobs.js';

const ADMIN = 'erex-administrator';
const OPERATOR = 'erex-settlement-operator';
const RESPONSIBLE = 'settlement-area-responsible';
const AUDIT = 'audit-erex-settlement-operator';
const BASE = '/api/processing/dead-letter-queues';

/** Each key fails its first attempt and succeeds on the next: a rerun from the dead letter queue works. */
const attempts = new Map<string, number>();
const flakyJob = defineJob({
  name: 'test-flaky',
  payload: z.object({ key: z.string() }),
  retryLimit: 0,
  async handler(_ctx, { key }) {
    const seen = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, seen);
    // A failure in words meant for users (UserFacingError) is the reason the queue shows; any other
    // error shows as 'Internal error <id>' (errors.ts userMessage, jobs/runner.test.ts).
    if (seen === 1) throw new UserFacingError(`flaky failure ${key}`);
    return `done ${key}`;
  },
});

describe('dead letter queue calls', () => {
  let t: TestApp;
  let failProfile = true;
  let profileResultId: number;
  const runIds: Record<string, string> = {};
  let dataLogId = 0;

  const get = (url: string, username = ADMIN, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'GET', url }, kind);
  const post = (url: string, payload?: object, username = ADMIN, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'POST', url, ...(payload ? { payload } : {}) }, kind);

  async function messages(query: string, username = ADMIN, kind: 'norway' | 'sweden' = 'norway') {
    const response = await get(`${BASE}/messages?${query}`, username, kind);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(deadLetterMessageSchema).parse(response.json());
  }

  /** pg-boss copies a job into its dead letter queue just after the run is recorded dead. */
  async function waitForMessages(query: string, count: number, kind: 'norway' | 'sweden' = 'norway') {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = await messages(query, ADMIN, kind);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function enqueueFlaky(key: string, kind: 'norway' | 'sweden', withFile = false) {
    const area = t.areaUuid(kind);
    const ctx = serviceContext(tenantExecutor(t.database, area), area, { username: ADMIN, roles: [ADMIN] });
    if (withFile) {
      dataLogId = await recordFile(ctx.db, {
        tenant: area,
        username: ADMIN,
        messageType: 'TEST',
        status: 'RUNNING',
        text: null,
        fileName: 'readings.csv',
      });
    }
    runIds[key] = await t.app.jobs.enqueue(ctx, flakyJob, { key }, withFile ? { dataLogId } : {});
    expect((await waitForRun(t.database, runIds[key])).status).toBe('dead');
  }

  beforeAll(async () => {
    // profile is an estimation procedure: its dead runs are the "estimated" messages.
    t = await createTestApp({
      jobs: { define: [flakyJob] },
      procedures: withProcedures({
        profile: {
          async run() {
            if (failProfile) throw new UserFacingError('profile volumes missing');
          },
        },
      }),
    });
    await enqueueFlaky('a', 'norway');
    await enqueueFlaky('b', 'norway', true);
    await enqueueFlaky('c', 'sweden');
    const response = await post('/api/processing/profile/run', {
      timeRange: { start: '2024-03-01T00:00:00Z', end: '2024-03-02T00:00:00Z' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = procedureResultSchema.parse(response.json());
    profileResultId = result.id;
    // Three attempts, 3 s apart.
    expect((await waitForRun(t.database, result.jobId!, { timeoutMs: 30_000 })).status).toBe('dead');
    await waitForMessages('queue=test-flaky__dead', 2);
    await waitForMessages('queue=procedure-run__dead', 1);
    await waitForMessages('queue=test-flaky__dead', 1, 'sweden');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses a caller without a token (401), an audit role (403) and bad input (400)', async () => {
    expect((await t.app.inject({ method: 'GET', url: BASE })).statusCode).toBe(401);
    expect((await get(BASE, AUDIT)).statusCode).toBe(403);
    expect((await post(`${BASE}/rerun`, undefined, AUDIT)).statusCode).toBe(403);
    expect((await get(`${BASE}/messages?queue=not-a-queue`)).statusCode).toBe(400);
    expect((await get(`${BASE}/messages?size=0`)).statusCode).toBe(400);
    expect((await get(`${BASE}/messages?queue=nothing-here__dead`)).statusCode).toBe(400);
    expect((await get(`${BASE}/queue`)).statusCode).toBe(400);
    // Neither ids nor all.
    expect((await post(`${BASE}/test-flaky__dead/rerun`, {})).statusCode).toBe(400);
    expect((await post(`${BASE}/test-flaky__dead/rerun`, { ids: ['x'] })).statusCode).toBe(400);
  });

  it('lists every queue with the area’s counts for the administrator', async () => {
    const response = await get(BASE);
    expect(response.statusCode, response.body).toBe(200);
    const queues = z.array(deadLetterQueueSchema).parse(response.json());
    const byName = Object.fromEntries(queues.map((q) => [q.name, q]));
    expect(byName['test-flaky__dead']).toMatchObject({ jobName: 'test-flaky', count: 2, estimatedCount: 0 });
    expect(byName['procedure-run__dead']).toMatchObject({ jobName: 'procedure-run', count: 1, estimatedCount: 1 });
    expect(byName['timeseries-import__dead']).toMatchObject({ count: 0 });
  });

  it('shows each message with its queue, failure time, reason and processed object', async () => {
    const flaky = await messages('queue=test-flaky__dead');
    expect(flaky.map((m) => m.runId)).toEqual([runIds.a, runIds.b]);
    expect(flaky[0]).toMatchObject({
      queueName: 'test-flaky__dead',
      reason: 'flaky failure a',
      estimated: false,
      username: ADMIN,
      processedObject: { kind: 'payload', description: 'test-flaky: {"key":"a"}' },
    });
    // A job about a file names its data-log entry.
    expect(flaky[1]!.processedObject).toEqual({
      kind: 'data-log',
      description: `Data-log entry ${dataLogId} (TEST, readings.csv)`,
      procedureResultId: null,
      procedureName: null,
      dataLogId,
    });
    expect(Date.parse(flaky[0]!.failedAt)).toBeGreaterThan(Date.now() - 120_000);
    const [profile] = await messages('queue=procedure-run__dead');
    expect(profile).toMatchObject({
      reason: 'profile volumes missing',
      estimated: true,
      processedObject: {
        kind: 'procedure-result',
        procedureName: 'profile',
        procedureResultId: profileResultId,
        description: `profile 2024-03-01 – 2024-03-02 (procedure result ${profileResultId}, failure)`,
      },
    });
    // Filters: the first N, one procedure, estimated or not, across queues.
    expect(await messages('size=1')).toHaveLength(1);
    expect((await messages('procedureName=profile')).map((m) => m.id)).toEqual([profile!.id]);
    expect((await messages('procedureName=combine')).length).toBe(0);
    expect((await messages('estimated=false')).map((m) => m.runId)).toEqual([runIds.a, runIds.b]);
  });

  it('summarises one queue', async () => {
    const response = await get(`${BASE}/queue?name=test-flaky__dead`);
    expect(response.statusCode, response.body).toBe(200);
    const summary = deadLetterQueueSummarySchema.parse(response.json());
    expect(summary).toMatchObject({ name: 'test-flaky__dead', count: 2, estimatedCount: 0 });
    expect(summary.oldestFailedAt! <= summary.newestFailedAt!).toBe(true);
  });

  it("is the administrator's alone (product.md §6): the other process runners are refused every call", async () => {
    for (const role of [OPERATOR, RESPONSIBLE]) {
      expect((await get(BASE, role)).statusCode, role).toBe(403);
      expect((await get(`${BASE}/messages?queue=procedure-run__dead`, role)).statusCode, role).toBe(403);
      expect((await get(`${BASE}/queue?name=procedure-run__dead`, role)).statusCode, role).toBe(403);
      expect((await post(`${BASE}/procedure-run__dead/rerun`, { all: true }, role)).statusCode, role).toBe(403);
      expect((await post(`${BASE}/procedure-run__dead/rerun-estimated`, undefined, role)).statusCode, role).toBe(403);
      expect((await post(`${BASE}/rerun`, undefined, role)).statusCode, role).toBe(403);
    }
    // Nothing was rerun by the refused calls.
    expect((await messages('queue=procedure-run__dead')).map((m) => m.processedObject.procedureName)).toEqual([
      'profile',
    ]);
  });

  it('keeps areas apart: another area neither sees nor reruns a message', async () => {
    const sweden = await messages('queue=test-flaky__dead', ADMIN, 'sweden');
    expect(sweden.map((m) => m.runId)).toEqual([runIds.c]);
    const norway = await messages('', ADMIN, 'norway');
    expect(norway.map((m) => m.runId)).not.toContain(runIds.c);
    const response = await post(`${BASE}/test-flaky__dead/rerun`, { ids: [sweden[0]!.id] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.stringContaining('Unknown dead letter message') });
    expect(await messages('queue=test-flaky__dead', ADMIN, 'sweden')).toHaveLength(1);
  });

  it('reruns one message: the job runs again with the same payload and the message leaves the queue', async () => {
    const [first] = await messages('queue=test-flaky__dead');
    const response = await post(`${BASE}/test-flaky__dead/rerun`, { ids: [first!.id] });
    expect(response.statusCode, response.body).toBe(200);
    const answer = deadLetterRerunResultSchema.parse(response.json());
    expect(answer).toMatchObject({ rerun: 1, settled: 0 });
    const run = await waitForRun(t.database, answer.runIds[0]!);
    expect(run).toMatchObject({ status: 'success', message: 'done a' });
    expect((await messages('queue=test-flaky__dead')).map((m) => m.runId)).toEqual([runIds.b]);
  });

  it('reruns the estimated messages: a dead procedure run resumes its result', async () => {
    failProfile = false;
    const response = await post(`${BASE}/procedure-run__dead/rerun-estimated`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = deadLetterRerunResultSchema.parse(response.json());
    expect(answer).toMatchObject({ rerun: 1, settled: 0 });
    expect((await waitForRun(t.database, answer.runIds[0]!)).status).toBe('success');
    const area = t.areaUuid('norway');
    const result = await findResult(tenantExecutor(t.database, area), area, profileResultId);
    expect(result).toMatchObject({ id: profileResultId, status: 'success', jobId: answer.runIds[0] });
    expect(await messages('queue=procedure-run__dead')).toEqual([]);
  });

  it('reruns every queue of the area at once, and leaves other areas alone', async () => {
    const response = await post(`${BASE}/rerun`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = deadLetterRerunResultSchema.parse(response.json());
    expect(answer.rerun).toBe(1);
    // The rerun keeps the run's data-log entry.
    expect(await waitForRun(t.database, answer.runIds[0]!)).toMatchObject({ message: 'done b', dataLogId });
    const left: DeadLetterMessage[] = await messages('');
    expect(left).toEqual([]);
    expect(await messages('', ADMIN, 'sweden')).toHaveLength(1);
  });
});
