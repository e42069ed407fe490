import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server as `npm start` runs it (server.ts in a child process), for tests that kill it
 * (crash-recovery.test.ts) or start two on one database (two-nodes.test.ts).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls `check` (a thrown error or a timeout counts as not yet) until it holds. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not answering yet (starting, or busy): asked again.
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The server process, its output kept for a failing test's message. */
export class ServerProcess {
  private child: ChildProcess | undefined;
  output = '';
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it and waits until /health answers (`timeoutMs`, default a minute). */
  async start(timeoutMs = 60_000): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        SEED_DEMO_TIMESERIES: 'false',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    await until(
      async () => (await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2000) })).ok,
      'the server answers /health',
      timeoutMs,
    );
  }

  /** kill -9: nothing of the process's own shutdown runs. */
  async kill(): Promise<void> {
    const child = this.child!;
    if (!this.running) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
}
