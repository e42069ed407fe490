import { defineConfig } from 'vitest/config';

// Browser journeys: one real server (embedded database and identity provider) for the whole run,
// one chromium per test file. Run through `npm test` (which builds the web app first).
export default defineConfig({
  test: {
    name: 'e2e',
    root: __dirname,
    include: ['src/**/*.e2e.ts'],
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
