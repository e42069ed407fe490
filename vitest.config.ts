import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One vitest run over every workspace except the browser journeys (e2e/ has its own config).
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/server', 'apps/web', 'apps/web/vitest.mocked.config.ts'],
    // Every core: vitest's default leaves one free, which on the 2-core machines here is half of them
    // (110 s instead of 69 s for the whole run). The tests wait on their own databases, not on a shared one.
    maxWorkers: availableParallelism(),
  },
});
