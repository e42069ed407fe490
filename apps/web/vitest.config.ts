import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Files share a worker's modules (React, Mantine, i18n load once per worker, not per file): about half
    // the CPU. vitest.setup.ts undoes what a file may leave behind in shared singletons.
    isolate: false,
  },
});
