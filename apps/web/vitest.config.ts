import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Files that replace modules with vi.mock run isolated (vitest.mocked.config.ts): in a shared
    // module cache a mock would not apply, or would leak into the next file.
    exclude: ['src/**/*.mocked.test.{ts,tsx}', 'node_modules/**'],
    css: false,
    // Files share a worker's modules (React, Mantine, i18n load once per worker, not per file): about half
    // the CPU. vitest.setup.ts undoes what a file may leave behind in shared singletons.
    isolate: false,
  },
});
