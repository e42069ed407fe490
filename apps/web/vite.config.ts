import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

// The server (API, identity provider, config, health) runs on 8080; in development Vite proxies to it
// so the app stays same-origin, exactly as in production where the server serves dist/.
const SERVER = 'http://localhost:8080';

export default defineConfig({
  // apps/web builds with its own Vite 7; the plugin's types come from the root's newer Vite (used by vitest).
  plugins: [react() as unknown as PluginOption],
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
        // One long-lived vendor chunk for React and the router, which every screen needs. Mantine is
        // deliberately not forced into a chunk: a manual chunk would pull components that only lazy screens
        // use into the initial download. Each section's pages are split by React.lazy in its route file.
        manualChunks(id: string): string | undefined {
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
});
