// Memory of the server while it stores an upload (issue 17 item 2). Starts the real server process
// (node --import tsx apps/server/src/server.ts) on PGlite (a temporary DATA_DIR) and on PostgreSQL
// (a fresh database), signs in as the settlement area responsible through the embedded provider,
// uploads files of 10, 50 and 100 MB to the CSV time-series endpoint and downloads each again,
// sampling the server's resident memory (/proc/<pid>/status VmRSS) every 50 ms. Prints, per size and
// database, the idle RSS before the upload, the peak during it and the rise; the same for the
// download. A file named .bin is stored whole and then refused by the format check, so no import
// job runs: what is measured is storing and reading the bytes.
//
// BENCH_UPLOAD_SIZES_MB=10,50 picks the sizes; BENCH_DATABASE_URL the PostgreSQL server;
// BENCH_UPLOAD_DATABASES=pglite picks the databases; BENCH_SERVER_ROOT runs another checkout's server
// (an older commit, to compare).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MESSAGE_TYPES } from '@railwatt/contracts';
import pg from 'pg';
import { areaUuid } from '../apps/server/src/seed/areas.js';

const ROOT = resolve(process.env.BENCH_SERVER_ROOT ?? join(import.meta.dirname, '..'));
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SIZES_MB = (process.env.BENCH_UPLOAD_SIZES_MB ?? '10,50,100').split(',').map(Number);
const DATABASES = (process.env.BENCH_UPLOAD_DATABASES ?? 'pglite,postgres').split(',');
const PORT = 8193;
const BASE = `http://127.0.0.1:${PORT}`;
const USER = 'settlement-area-responsible';
const MB = 1024 * 1024;

/** VmRSS of a process in MB (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs `work` while sampling the process's RSS every 50 ms; answers the peak (and the work's result). */
async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ peak: number; value: T }> {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 50);
  try {
    const value = await work();
    peak = Math.max(peak, rssMb(pid));
    return { peak, value };
  } finally {
    clearInterval(timer);
  }
}

async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'error',
      SEED_DEMO: 'true',
      SEED_DEMO_TIMESERIES: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(`${BASE}/health`)).ok) return { child, exited };
    } catch {
      // not yet listening
    }
    if (performance.now() - started > 300_000) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Signs in as `username` (password demo) with code + PKCE, as the web app does; answers the access token. */
async function signIn(username: string): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(url, BASE), {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${BASE}/`;
  let res = await send(
    `/auth/auth?${new URLSearchParams({
      client_id: 'frontend',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'bench',
    })}`,
  );
  const login = res.headers.get('location')!;
  const page = await (await send(login)).text();
  const action = /action="([^"]+)"/.exec(page)![1]!;
  res = await send(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password: 'demo' }).toString(),
  });
  // Follow the provider's redirects until one leaves for the client with the code.
  for (let hops = 0; hops < 10; hops++) {
    const location = new URL(res.headers.get('location')!, BASE);
    if (!location.pathname.startsWith('/auth')) {
      const code = location.searchParams.get('code');
      if (!code) throw new Error(`sign-in ended without a code: ${location}`);
      const token = await fetch(`${BASE}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: 'frontend',
          code_verifier: verifier,
        }).toString(),
      });
      return ((await token.json()) as { access_token: string }).access_token;
    }
    res = await send(location.pathname + location.search);
  }
  throw new Error('sign-in: too many redirects');
}

/** A multipart body with one file under `files`. */
function multipart(fileName: string, bytes: Buffer): { body: Buffer; type: string } {
  const boundary = `----railwattbench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return {
    body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 1500));

async function benchOne(database: string, env: Record<string, string>): Promise<void> {
  const { child, exited } = await startServer(env);
  const pid = child.pid!;
  try {
    const token = await signIn(USER);
    const headers = { authorization: `Bearer ${token}`, 'current-tenant-id': areaUuid('norway') };
    for (const mb of SIZES_MB) {
      const bytes = randomBytes(mb * MB);
      const { body, type } = multipart(`upload-${mb}mb.bin`, bytes);
      await settle();
      const idle = rssMb(pid);
      const started = performance.now();
      const up = await peakDuring(pid, async () => {
        try {
          const res = await fetch(`${BASE}/api/excel/timeseries/csv-import`, {
            method: 'POST',
            headers: { ...headers, 'content-type': type },
            body,
          });
          return { status: res.status, answer: (await res.json()) as { dataLogIds?: number[] } };
        } catch (error) {
          return { status: 0, answer: { error: String(error) } as { dataLogIds?: number[] } };
        }
      });
      const uploadMs = performance.now() - started;
      if (up.value.status !== 200 || !up.value.answer.dataLogIds?.length) {
        const code = child.exitCode ?? (await Promise.race([exited, settle().then(() => null)]));
        console.log(
          `${database} ${mb} MB: upload failed (${up.value.status}${code !== null ? `, server exited ${code}` : ''}); ` +
            `idle ${idle.toFixed(0)} MB, peak ${up.peak.toFixed(0)} MB (+${(up.peak - idle).toFixed(0)} MB)`,
        );
        if (child.exitCode !== null) return;
        continue;
      }
      const id = up.value.answer.dataLogIds[0]!;
      await settle();
      const idleDown = rssMb(pid);
      const down = await peakDuring(pid, async () => {
        const res = await fetch(`${BASE}/api/eventlog/datalog/download`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ id, messageType: MESSAGE_TYPES.csvTimeSeriesImport }),
        });
        return Buffer.from(await res.arrayBuffer());
      });
      const identical = down.value.equals(bytes) ? 'identical' : `DIFFERENT (${down.value.length} bytes)`;
      console.log(
        `${database} ${String(mb).padStart(3)} MB: upload ${(uploadMs / 1000).toFixed(1)} s, idle ${idle.toFixed(0)} MB, ` +
          `peak ${up.peak.toFixed(0)} MB, rise ${(up.peak - idle).toFixed(0)} MB (${((up.peak - idle) / mb).toFixed(2)}x the file); ` +
          `download peak ${down.peak.toFixed(0)} MB, rise ${(down.peak - idleDown).toFixed(0)} MB, ${identical}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function benchUploadMemory(): Promise<void> {
  console.log('\n## Upload memory: server RSS while storing and downloading one file');
  console.log(`server: ${ROOT}`);
  if (DATABASES.includes('pglite')) {
    const dataDir = mkdtempSync(join(tmpdir(), 'railwatt-bench-upload-'));
    try {
      await benchOne('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (DATABASES.includes('postgres')) {
    const name = `railwatt_bench_upload_${process.pid}`;
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(SERVER_URL);
      url.pathname = `/${name}`;
      await benchOne('PostgreSQL', { DATABASE_URL: url.toString() });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUploadMemory();
