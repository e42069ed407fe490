#!/usr/bin/env node
// `npm test`: every test, in the order a failure is cheapest to find.
//  1. lint, format and type checks
//  2. unit and integration tests (contracts, server on PGlite, web)
//  3. server tests again on a real PostgreSQL server when TEST_DATABASE_URL is set
//  4. browser journeys in Debian's chromium; skipped with a plain notice when chromium is missing,
//     a failure when CI=true.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ci = process.env.CI === 'true';
const results = [];
const reports = mkdtempSync(join(tmpdir(), 'railwatt-test-'));

function step(name, cmd, args, env = {}, report) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const { TEST_DATABASE_URL: _ignored, ...base } = process.env;
  const run = spawnSync(cmd, args, { stdio: 'inherit', env: { ...base, ...env } });
  const ok = run.status === 0;
  results.push({ name, ok, seconds: (Date.now() - started) / 1000, failures: ok && report ? [] : failuresIn(report) });
  return ok;
}

// A vitest step also writes a JSON report, so the summary at the very end (often all a CI log keeps)
// names the tests that failed and the first line of why, not only the step.
function vitest(name, args, env = {}) {
  const report = join(reports, `${results.length}.json`);
  return step(
    name,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
    report,
  );
}

function failuresIn(report) {
  if (!report) return [];
  if (!existsSync(report)) return ['(no report written: the run ended before vitest could write it)'];
  let testResults;
  try {
    ({ testResults = [] } = JSON.parse(readFileSync(report, 'utf8')));
  } catch (error) {
    return [`(the report could not be read: ${error.message})`];
  }
  const failures = [];
  for (const file of testResults) {
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failures.push(`${relative(process.cwd(), file.name)}: ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (!failed.length && file.status === 'failed')
      failures.push(`${relative(process.cwd(), file.name)}: ${firstLine(file.message)}`);
  }
  return failures;
}

const colours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) =>
  (text ?? '')
    .replace(colours, '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => p && existsSync(p));
}

// A runaway edit (a script that repeats a paragraph, a dump written into the tree) shows as a huge
// file long before anyone reads it: every tracked file stays under 1 MB (the lockfile is 0.4 MB).
step('file sizes', process.execPath, [
  '-e',
  `const { execFileSync } = require('node:child_process'); const { statSync, existsSync } = require('node:fs');
   const big = execFileSync('git', ['ls-files', '-z']).toString().split('\\0')
     .filter((f) => f && existsSync(f) && statSync(f).size > 1_000_000);
   if (big.length) { console.error('Tracked files over 1 MB: ' + big.join(', ')); process.exit(1); }`,
]);
step('lint', 'npx', ['eslint', '.']);
step('format', 'npx', ['prettier', '--check', '.']);
step('typecheck', 'npx', ['tsc', '-b']);
vitest('unit and integration tests (PGlite)', []);
if (process.env.TEST_DATABASE_URL) {
  vitest('server tests (PostgreSQL)', ['--project', 'server'], {
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
} else {
  console.log('\nServer tests on a real PostgreSQL server skipped: TEST_DATABASE_URL is not set.');
}

const chromium = findChromium();
if (chromium) {
  step('build web app', 'npm', ['run', 'build']);
  vitest('browser journeys', ['--config', 'e2e/vitest.config.ts'], { CHROMIUM_PATH: chromium });
} else if (ci) {
  console.error('\nBrowser journeys cannot run: chromium is missing and CI=true (apt-get install -y chromium).');
  results.push({ name: 'browser journeys', ok: false, seconds: 0 });
} else {
  console.log('\nBROWSER JOURNEYS SKIPPED: chromium was not found (apt-get install -y chromium to run them).');
}

console.log('\n=== summary ===');
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.seconds.toFixed(1)} s)`);
  for (const f of r.failures ?? []) console.log(`        ${f.slice(0, 400)}`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
