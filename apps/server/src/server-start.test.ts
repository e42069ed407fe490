import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STARTING_RETRY_AFTER_SECONDS } from './startup-gate.js';
import { freePort } from './test/sftp-servers.js';

const ROOT = resolve(import.meta.dirname, '../../..');

let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The first answer at `url`, asked every 100 ms while the connection is refused. */
async function firstAnswer(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('npm start on a fresh data directory (issue 18 item 6: start-up that tells the truth)', () => {
  it('answers 503 with Retry-After while it prepares the database and demo data, then the app, then says ready', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'railwatt-start-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let output = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      // The demo users, fleet and infrastructure, not the month of time series (a minute more).
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED_DEMO_TIMESERIES: 'false', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    // Migrations and the demo seed of a fresh directory take seconds: the first answer is the gate's.
    const api = await firstAnswer(`${url}/api/domain/processes`, {}, 120_000);
    expect({ status: api.status, retryAfter: api.headers.get('retry-after'), output }).toMatchObject({
      status: 503,
      retryAfter: String(STARTING_RETRY_AFTER_SECONDS),
    });
    const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('http-equiv="refresh"');

    // Then the app itself answers on the same port, and the ready line is the last word.
    const until = Date.now() + 240_000;
    // (A refused or reset connection is retried: a kept-alive socket may close as it is reused.)
    while (
      !(await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      expect({ running: child.exitCode === null, inTime: Date.now() < until, output }).toMatchObject({
        running: true,
        inTime: true,
      });
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await fetch(`${url}/api/domain/processes`)).status).toBe(401);
    const ready = Date.now() + 30_000;
    while (!output.includes('Railwatt is ready at')) {
      expect(Date.now() < ready, output).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
    }
    const lines = output.split('\n');
    const starting = lines.findIndex((l) => l.includes('Railwatt is starting at'));
    const readyAt = lines.findIndex((l) => l.includes('Railwatt is ready at'));
    expect(starting).toBeGreaterThanOrEqual(0);
    expect(readyAt).toBeGreaterThan(starting);
    expect(lines[readyAt]).toContain('sign in as erex-administrator / demo');
  }, 400_000);
});
