import { jobRunSchema, POLICIES } from '@railwatt/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../modules/jobs/define-job.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

const greetJob = defineJob({
  name: 'test-greet',
  payload: z.object({ name: z.string().min(1) }),
  async handler(ctx, payload, run) {
    await run.progress(0.5, 'Halfway');
    return `Hello ${payload.name} from ${ctx.tenant.name}, as ${ctx.actor.username}`;
  },
});

const READER = 'erex-settlement-operator';

describe('GET /api/jobs/{id}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      jobs: { define: [greetJob] },
      // How a route queues work: the request's context (area, actor, area-bound executor) and the
      // declared job; the answer is the run id screens follow with GET /jobs/{id}.
      beforeReady: (app) => {
        app
          .withTypeProvider<ZodTypeProvider>()
          .post(
            '/api/test/greet',
            { config: { access: POLICIES.dataLogRead }, schema: { body: z.object({ name: z.string() }) } },
            async (request) => ({ id: await app.jobs.enqueue(request.ctx, greetJob, request.body) }),
          );
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function greet(name: string): Promise<string> {
    const response = await t.callAs(READER, { method: 'POST', url: '/api/test/greet', payload: { name } });
    expect(response.statusCode).toBe(200);
    return response.json<{ id: string }>().id;
  }

  it('answers the run to a user of its area, queued at first and successful at the end', async () => {
    const id = await greet('Kari');
    const queued = await t.callAs(READER, { method: 'GET', url: `/api/jobs/${id}` });
    expect(queued.statusCode).toBe(200);
    const first = jobRunSchema.parse(queued.json());
    expect(first).toMatchObject({ id, name: 'test-greet', dataLogId: null });
    expect(['queued', 'running', 'success']).toContain(first.status);

    await waitForRun(t.database, id);
    const done = await t.callAs(READER, { method: 'GET', url: `/api/jobs/${id}` });
    expect(jobRunSchema.parse(done.json())).toMatchObject({
      id,
      status: 'success',
      progress: 1,
      message: `Hello Kari from Norway, as ${READER}`,
      attempts: 1,
    });
    // Only the contract's fields: no tenant, payload, username or roles.
    expect(Object.keys(done.json()).sort()).toEqual(Object.keys(jobRunSchema.shape).sort());
  });

  it('answers 404 to a user of another area, as for an unknown run', async () => {
    const id = await greet('Ola');
    const elsewhere = await t.callAs(READER, { method: 'GET', url: `/api/jobs/${id}` }, 'sweden');
    expect(elsewhere.statusCode).toBe(404);
    const unknown = await t.callAs(READER, { method: 'GET', url: '/api/jobs/7d0e4b8e-3c4f-4a57-9d5e-2f1b8f0c0a11' });
    expect(unknown.statusCode).toBe(404);
    const { status, error, message } = unknown.json<Record<string, unknown>>();
    expect(elsewhere.json()).toMatchObject({ status, error, message });
    await waitForRun(t.database, id);
  });

  it('refuses a user without a data-log role (403) and a request without a token (401)', async () => {
    const id = await greet('Per');
    expect((await t.callAs('vehicle-keeper', { method: 'GET', url: `/api/jobs/${id}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/jobs/${id}` })).statusCode).toBe(401);
    await waitForRun(t.database, id);
  });
});
