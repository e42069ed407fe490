import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Web test files that replace modules with vi.mock (named *.mocked.test.tsx): each runs in its own
 * module cache, so the mock applies and cannot leak. module-mocks.test.ts keeps every vi.mock in
 * such a file.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web-mocked',
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.mocked.test.{ts,tsx}'],
    css: false,
    testTimeout: 20_000,
    isolate: true,
  },
});
