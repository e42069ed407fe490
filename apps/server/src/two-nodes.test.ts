import { createHash, randomBytes } from 'node:crypto';
import type { JobRun } from '@railwatt/contracts';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { areaDays } from './modules/processing/chunks.js';
import { areaUuid } from './seed/areas.js';
import { seedDemo } from './seed/index.js';
import { seedTimeSeriesData } from './seed/timeseries.js';
import { DEMO_MONTH } from './seed/timeseries-demo.js';
import { freePort, ServerProcess, until } from './test/server-process.js';
import { adminQuery, databaseUrl, seedKey } from './test/templates.js';

/**
 * Two app nodes, one database (issue 19 item 5, ARCHITECTURE.md "Several nodes"): two real server
 * processes (server.ts) start together on a fresh PostgreSQL database holding the demo month of
 * Norway. A user signs in starting at one node and finishing at the other. cebd-preprocessing runs
 * over the month (31 area days) and the chain after it (combine, shunting-and-stabling,
 * energy-outside-train-run); the node running the first run's job is killed (SIGKILL) while both
 * nodes work on its days. The other node takes the run over within seconds and settles the month:
 * every area day of every run done exactly once (procedure_chunk.done_count 1), the days done
 * before the kill kept, days done by both nodes.
 *
 * PostgreSQL only (TEST_DATABASE_URL): PGlite is one process's database.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL;
const NORWAY = areaUuid('norway');
const USER = 'settlement-area-responsible';
const SEEDERS = ['areas', 'users', 'fleet', 'infrastructure', 'administration'];
/** Demo units of Norway whose month of CEBD, train runs, prices and supply the database holds. */
const UNITS = 6;
const CHAIN = ['cebd-preprocessing', 'combine', 'shunting-and-stabling', 'energy-outside-train-run'] as const;
const OSLO = 'Europe/Oslo';
/** October 2026 in Oslo: 31 area days, the last one 25 hours long. */
const MONTH = { start: '2026-09-30T22:00:00Z', end: '2026-10-31T23:00:00Z' };

if (!SERVER_URL) {
  console.log('two-nodes.test.ts skipped: set TEST_DATABASE_URL (two processes need PostgreSQL; PGlite is one)');
}

describe.skipIf(!SERVER_URL)('two app nodes on one database', () => {
  const name = `railwatt_nodes_${randomBytes(6).toString('hex')}`;
  const nodes: ServerProcess[] = [];

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await adminQuery(SERVER_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('sign in through either node; a month settled by both survives losing one', { timeout: 180_000 }, async () => {
    expect(DEMO_MONTH).toBe('2026-10');
    const t0 = Date.now();
    const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;
    const url = await prepareDatabase(SERVER_URL!, name);
    const timings: Record<string, number> = { seed: seconds(t0) };
    const [portA, portB] = [await freePort(), await freePort()];
    // One address for both, as behind a load balancer: the issuer and the sign-in redirect.
    const publicUrl = `http://localhost:${portA}`;
    const env = (node: string) => ({
      DATABASE_URL: url,
      PUBLIC_URL: publicUrl,
      NODE_NAME: node,
      NODE_SWEEP_SECONDS: '1',
    });
    nodes.push(new ServerProcess(portA, env('node-a')), new ServerProcess(portB, env('node-b')));
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    // Both start at once: migrations, seeding and the start-up sweep one after the other.
    const started = Date.now();
    await Promise.all([a.start(90_000), b.start(90_000)]);
    timings.start = seconds(started);

    // Sign-in starts at A (authorization request), the login form is posted to B, the redirect is
    // followed at A, the code is exchanged at B: the provider's state lives in the database.
    const token = await signIn(publicUrl, a, b);
    for (const node of nodes) {
      const me = await fetch(`${node.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status, `${node.url} accepts the token`).toBeLessThan(300);
    }

    const api = async <T>(node: ServerProcess, method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${node.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'current-tenant-id': NORWAY,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };

    const observer = await openDatabase({ url });
    try {
      const run = await api<{ id: number; jobId: string }>(
        a,
        'POST',
        `/processing/cebd-preprocessing/run?zoneId=${OSLO}`,
        {
          timeRange: MONTH,
        },
      );
      const days = areaDays(MONTH.start, MONTH.end, OSLO).length;
      expect(days).toBe(31);

      // Both nodes take days; once they have, the node running the run's job is killed.
      const byNode = async () =>
        observer.query<{ name: string; node: number; days: number }>(
          `SELECT coalesce(n.name, '?') AS name, c.node, count(*)::int AS days
             FROM procedure_chunk c LEFT JOIN app_node n ON n.id = c.node
            WHERE c.procedure_result_id = $1 GROUP BY 1, 2`,
          [run.id],
        );
      await until(async () => (await byNode()).length === 2, 'both nodes have done days of the run', 60_000, 50);
      const [owner] = await observer.query<{ name: string }>(
        `SELECT n.name FROM job_run j JOIN app_node n ON n.id = j.node WHERE j.id = $1`,
        [run.jobId],
      );
      const victim = owner?.name === 'node-b' ? b : a;
      const survivor = victim === a ? b : a;
      const before = await byNode();
      const doneBefore = before.reduce((sum, row) => sum + row.days, 0);
      await victim.kill();
      const killedAt = new Date();
      timings.untilKill = seconds(started);
      expect(doneBefore, 'the kill came in the middle of the month').toBeLessThan(days);

      // The survivor finishes the month and the chain after it.
      const results = async () =>
        observer.query<{ id: number; procedure: string; status: string; jobId: string }>(
          `SELECT id::int AS id, procedure_name AS procedure, status, job_id::text AS "jobId"
             FROM procedure_result WHERE tenant = $1 ORDER BY id`,
          [NORWAY],
        );
      await until(
        async () => {
          const all = await results();
          return CHAIN.every((procedure) => all.some((r) => r.procedure === procedure && r.status === 'success'));
        },
        'the survivor finishes the month and its chain',
        90_000,
        250,
      );
      timings.afterKill = seconds(killedAt.getTime());
      const all = await results();
      console.log(
        `two nodes: seconds ${JSON.stringify(timings)}; killed ${victim === a ? 'node-a' : 'node-b'} (the run's), ` +
          `days done before: ${JSON.stringify(before.map(({ name, days }) => ({ name, days })))}`,
      );
      expect(all.map((r) => [r.procedure, r.status])).toEqual(CHAIN.map((procedure) => [procedure, 'success']));
      const job = await api<JobRun>(survivor, 'GET', `/jobs/${run.jobId}`);
      expect(job).toMatchObject({ status: 'success', attempts: 2, progress: 1 });

      // Every area day of every run done exactly once; the days done before the kill kept.
      for (const result of all) {
        const [chunks] = await observer.query<{ days: number; distinct: number; once: number; kept: number }>(
          `SELECT count(*)::int AS days, count(DISTINCT chunk_start)::int AS distinct,
                  count(*) FILTER (WHERE done_count = 1)::int AS once,
                  count(*) FILTER (WHERE finished_at < $2)::int AS kept
             FROM procedure_chunk WHERE procedure_result_id = $1`,
          [result.id, killedAt.toISOString()],
        );
        expect(chunks, result.procedure).toMatchObject({ days, distinct: days, once: days });
        if (result.id === run.id) expect(chunks?.kept).toBeGreaterThanOrEqual(doneBefore);
      }
      // Both nodes did days of the first run; the killed node is gone from app_node.
      const after = await byNode();
      expect(new Set(before.map((row) => row.node)).size).toBe(2);
      expect(after.reduce((sum, row) => sum + row.days, 0)).toBe(days);
      await until(
        async () =>
          (await observer.query(`SELECT 1 FROM app_node WHERE name = $1`, [victim === a ? 'node-a' : 'node-b']))
            .length === 0,
        'the killed node is swept from app_node',
        10_000,
      );
      // The survivor still serves, and a sign-in completes on it alone.
      await expect(signIn(publicUrl, survivor, survivor)).resolves.toEqual(expect.any(String));
    } catch (error) {
      console.log(nodes.map((node) => `--- ${node.url}\n${node.output}`).join('\n'));
      throw error;
    } finally {
      await observer.close();
    }
  });
});

/** A fresh database from this run's seeded template, with Norway's demo month of files imported. */
async function prepareDatabase(serverUrl: string, name: string): Promise<string> {
  const templates = process.env.VITEST ? inject('railwattTestTemplates') : undefined;
  const template = templates?.kind === 'postgres' ? templates.byKey[seedKey(SEEDERS)] : undefined;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = databaseUrl(serverUrl, name);
  const database = await openDatabase({ url });
  try {
    if (!template) {
      await migrate(database);
      await seedDemo(database, { only: SEEDERS });
    }
    const [seeded] = await seedTimeSeriesData(database, { countries: ['norway'], units: UNITS });
    expect(seeded?.imported).toBeGreaterThan(31);
  } finally {
    await database.close();
  }
  return url;
}

/**
 * The web app's sign-in by hand (authorization code + PKCE): the authorization request at `first`,
 * the login at `second`, the redirect back at `first`, the code exchanged at `second`, all for the
 * installation's `publicUrl`. Answers the access token.
 */
async function signIn(publicUrl: string, first: ServerProcess, second: ServerProcess): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (node: ServerProcess, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${node.url}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        cookie: [...cookies].map(([key, value]) => `${key}=${value}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
    return response;
  };
  const pathOf = (location: string | null) => {
    const target = new URL(location ?? '', 'http://localhost');
    return target.pathname + target.search;
  };
  // The web app's address (the client's redirect), whichever node answers.
  const redirectUri = `${publicUrl}/`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = await send(
    first,
    `/auth/auth?${new URLSearchParams({
      client_id: 'frontend',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'two-nodes',
    })}`,
  );
  expect(authorize.status).toBe(303);
  const login = pathOf(authorize.headers.get('location'));
  const page = await send(second, login);
  expect(page.status).toBe(200);
  const action = /action="([^"]+)"/.exec(await page.text())?.[1];
  expect(action).toBe(`${login}/login`);
  let response = await send(second, action!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: USER, password: 'demo' }).toString(),
  });
  let code: string | null = null;
  for (let hop = 0; hop < 10 && !code; hop++) {
    expect([302, 303]).toContain(response.status);
    const location = new URL(response.headers.get('location') ?? '', first.url);
    if (!location.pathname.startsWith('/auth')) code = location.searchParams.get('code');
    else response = await send(first, location.pathname + location.search);
  }
  expect(code).toBeTruthy();
  const tokens = await send(second, '/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      client_id: 'frontend',
      code_verifier: verifier,
    }).toString(),
  });
  expect(tokens.status).toBe(200);
  return ((await tokens.json()) as { access_token: string }).access_token;
}
