// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Web test files share their worker's module cache (vitest.config.ts, isolate: false). A vi.mock in
 * such a file does not apply when another file loaded the module first, and leaks into the files after
 * it. Files that mock modules are named *.mocked.test.ts(x) and run isolated (vitest.mocked.config.ts).
 */
const SRC = join(import.meta.dirname, '.');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('module mocks', () => {
  it('appear only in *.mocked.test files, which run isolated', () => {
    const offenders = testFiles(SRC)
      .filter((file) => !/\.mocked\.test\.tsx?$/.test(file) && !file.endsWith('module-mocks.test.ts'))
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });

  it('do not appear in server tests, which also share a module cache (inject a dependency instead)', () => {
    const server = join(SRC, '../../server/src');
    const offenders = testFiles(server)
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(server, file));
    expect(offenders).toEqual([]);
  });
});
