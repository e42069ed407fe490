import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'apps/web/dist');

/** The JavaScript index.html loads eagerly (entry script + modulepreload links), gzip-compressed. */
export function initialJsGzip(): { files: string[]; bytes: number; gzipBytes: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  const files = [...new Set(refs)];
  let bytes = 0;
  let gzipBytes = 0;
  for (const ref of files) {
    const content = readFileSync(join(DIST, ref.replace(/^\//, '')));
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files, bytes, gzipBytes };
}

/** Milliseconds from spawning the server (embedded defaults) to a 200 from /health. */
export async function startToHealth(dataDir: string, port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not yet listening
      }
      if (performance.now() - started > 180_000) throw new Error('server did not become ready');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function benchShell(): Promise<void> {
  console.log('\n## Shell');
  if (!existsSync(join(DIST, 'index.html'))) {
    console.log('apps/web/dist missing: run `npm run build` first');
  } else {
    const js = initialJsGzip();
    console.log(
      `initial JavaScript: ${(js.gzipBytes / 1000).toFixed(1)} kB gzip (${(js.bytes / 1000).toFixed(1)} kB raw, ${js.files.length} files); goal < 250 kB gzip`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'railwatt-bench-'));
  try {
    const cold = await startToHealth(dataDir, 8191);
    const warm = await startToHealth(dataDir, 8191);
    console.log(`start to ready /health, fresh data dir (migrations + demo seed): ${cold.toFixed(0)} ms`);
    console.log(`start to ready /health, existing data dir: ${warm.toFixed(0)} ms`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchShell();
