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
    // A whole-screen test renders Mantine and waits on several answers: 1-2 s alone, past vitest's
    // 5 s default when all cores are busy (CI runs server and web files side by side). A real hang
    // still fails, just later.
    testTimeout: 20_000,
    // Files share a worker's modules (React, Mantine, i18n load once per worker, not per file): about half
    // the CPU. vitest.setup.ts undoes what a file may leave behind in shared singletons.
    isolate: false,
  },
});
