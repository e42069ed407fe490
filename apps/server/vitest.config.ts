import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Migrates and seeds once per run; each file then clones (see src/test/database.ts).
    globalSetup: ['src/test/global-setup.ts'],
    // PGlite boots per test file; give the first query room on a 2-core machine. A test that runs a
    // month through the job runner on the embedded database's one session (settlement, intake runs)
    // takes 5-15 s alone and went past 30 s when other runs loaded the machine (issue 19's arrival
    // checks add a run per CEBD file): the limit is a ceiling for a hung test, not a speed check.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share a worker's module cache instead of importing Fastify, oidc-provider and PGlite again
    // for each file (about 40% less CPU). Isolation is by data: every file opens its own database and
    // app. Server tests use no vi.mock; one that must, restores it (vi.doUnmock) before its file ends.
    isolate: false,
  },
});
