#!/usr/bin/env node
// `npm start` (and `npm run build`): builds the web app unless apps/web/dist was built from exactly
// the current inputs. The inputs are hashed (contents, not mtimes, so a checkout or a copy that only
// touches files does not force a rebuild) and the hash is kept in dist beside the build.
// `node scripts/build-web.mjs --force` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'apps/web/dist');
const STAMP = join(DIST, '.build-stamp');
/** What the web build reads: its sources and config, the shared contracts, and the locked dependencies. */
const INPUTS = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/postcss.config.cjs',
  'apps/web/tsconfig.json',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'package-lock.json',
];
const SKIP = /(\.test\.tsx?|\.tsbuildinfo)$/;

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}

export function inputHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input)))) {
    if (SKIP.test(file)) continue;
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const started = Date.now();
const hash = inputHash();
const built = existsSync(join(DIST, 'index.html')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim();
if (!process.argv.includes('--force') && built === hash) {
  console.log(
    `Web app is current (apps/web/dist, inputs ${hash.slice(0, 12)}, checked in ${Date.now() - started} ms): build skipped.`,
  );
  process.exit(0);
}
const run = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
// The hash from before the build: an edit made while vite ran makes the next start build again.
writeFileSync(STAMP, `${hash}\n`);
