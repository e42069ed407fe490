import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createStartupGate, STARTING_RETRY_AFTER_SECONDS, type StartupGate } from './startup-gate.js';

let gate: StartupGate | null = null;
afterEach(async () => {
  await gate?.close();
  gate = null;
});

const urlOf = (address: AddressInfo, path: string) => `http://127.0.0.1:${address.port}${path}`;

describe('the start-up gate (issue 18 item 6: requests during the start get an answer)', () => {
  it('answers the API 503 with Retry-After and the error envelope while the app is not ready', async () => {
    gate = createStartupGate();
    const address = await gate.listen(0, '127.0.0.1');
    const res = await fetch(urlOf(address, '/api/domain/fleet?page=0'), { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(STARTING_RETRY_AFTER_SECONDS));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 503, error: 'Service Unavailable', path: '/api/domain/fleet' });
    expect(String(body['message'])).toMatch(/starting/);
    // A health probe is told the same: not ready yet.
    const health = await fetch(urlOf(address, '/health'), { headers: { accept: 'text/html' } });
    expect(health.status).toBe(503);
    expect(health.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('gives a browser a page that says so and reloads itself', async () => {
    gate = createStartupGate();
    const address = await gate.listen(0, '127.0.0.1');
    const res = await fetch(urlOf(address, '/monitor/datalog'), {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(STARTING_RETRY_AFTER_SECONDS));
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('Railwatt is starting');
    expect(page).toContain(`<meta http-equiv="refresh" content="${STARTING_RETRY_AFTER_SECONDS}">`);
    expect(page).not.toMatch(/<script/i);
  });

  it("hands every request to the app's routing once it is open, hooks included, on the same socket", async () => {
    const app = Fastify();
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-through-app', 'yes');
    });
    app.get('/health', async () => ({ status: 'UP' }));
    gate = createStartupGate();
    const address = await gate.listen(0, '127.0.0.1');
    expect((await fetch(urlOf(address, '/health'))).status).toBe(503);
    await app.ready();
    gate.open(app.routing, app.server);
    const res = await fetch(urlOf(address, '/health'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-through-app')).toBe('yes');
    expect(await res.json()).toEqual({ status: 'UP' });
    // Fastify's timeouts: no request timeout (Node's default would cut a long upload at 5 minutes).
    expect(gate.server.requestTimeout).toBe(app.server.requestTimeout);
    await app.close();
  });
});
