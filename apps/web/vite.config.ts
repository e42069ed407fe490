import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server (API, identity provider, config, health) runs on 8080; in development Vite proxies to it
// so the app stays same-origin, exactly as in production where the server serves dist/.
const SERVER = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': SERVER,
      '/auth': SERVER,
      '/config.json': SERVER,
      '/health': SERVER,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // Long-lived vendor chunks for what every screen needs. Everything else (each section's pages)
        // is split by React.lazy in the feature route files, so the initial download stays small.
        manualChunks(id: string): string | undefined {
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          if (/node_modules\/@mantine\/(core|hooks)\//.test(id)) return 'mantine';
          return undefined;
        },
      },
    },
  },
});
