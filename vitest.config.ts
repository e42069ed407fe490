import { defineConfig } from 'vitest/config';

// One vitest run over every workspace except the browser journeys (e2e/ has its own config).
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/server', 'apps/web', 'apps/web/vitest.mocked.config.ts'],
  },
});
