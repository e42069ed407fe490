import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = resolve(__dirname, '../..');
const PORT = Number(process.env.E2E_PORT ?? 8181);

let server: ChildProcess | undefined;
let dataDir: string | undefined;

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${url} did not become ready in ${timeoutMs} ms`);
}

export async function setup(project: TestProject): Promise<void> {
  const baseUrl = process.env.E2E_BASE_URL ?? `http://localhost:${PORT}`;
  if (!process.env.E2E_BASE_URL) {
    dataDir = mkdtempSync(join(tmpdir(), 'railwatt-e2e-'));
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      // The demo month of time series would be imported while the journeys run; they make their own files.
      env: {
        ...process.env,
        PORT: String(PORT),
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The journeys sign in as the demo users: asked for, so a DATABASE_URL in the environment
        // (where SEED_DEMO defaults to off) still gets them.
        SEED_DEMO: 'true',
        SEED_DEMO_TIMESERIES: 'false',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    server.on('exit', (code) => {
      if (code && code !== 0) console.error(`e2e server exited with ${code}`);
    });
  }
  await waitForHealth(baseUrl, 120_000);
  project.provide('baseUrl', baseUrl);
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
