import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';

const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/.tsbuild/**', 'apps/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    // The TypeScript resolver maps our `.js` specifiers to the `.ts` sources, so that the boundary and
    // cycle rules below actually see every import (the plain node resolver silently resolves nothing).
    settings: {
      'import-x/resolver': { typescript: { project: ['tsconfig.base.json'] }, node: true },
    },
    // The built-in resolver, so that packages resolved only through `exports` (vitest/config,
    // @vitejs/plugin-react) do not fall back to the legacy 'node' resolver, which is not installed.
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      // Import direction is one way (STYLE.md §2): packages never import apps; the server never imports the web.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages', from: './apps' },
            { target: './apps/server', from: './apps/web' },
            { target: './apps/web', from: './apps/server' },
          ],
        },
      ],
    },
  },
  {
    // The server's layers (STYLE.md §2, ARCHITECTURE.md "Layers"): app.ts and start.ts wire routes,
    // jobs and plugins over modules; modules are the domain and import none of what wires them;
    // formats and db are below the modules. Tests compose the layers (the app, its jobs) and are left out.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/server', from: './apps/web' },
            {
              target: './apps/server/src/modules',
              from: [
                './apps/server/src/routes',
                './apps/server/src/jobs',
                './apps/server/src/plugins',
                './apps/server/src/app.ts',
                './apps/server/src/procedures.ts',
              ],
              message: 'Modules import no routes, jobs, plugins or app wiring: pass what they need in.',
            },
            {
              target: ['./apps/server/src/formats', './apps/server/src/db'],
              from: './apps/server/src/modules',
              message: 'Formats and db sit below the modules and import none of them.',
            },
            {
              target: './apps/server/src/modules/domain',
              from: './apps/server/src/modules/infrastructure',
              message: 'The domain engine imports no infrastructure screen module (infrastructure builds on domain).',
            },
            {
              target: './apps/server/src/modules/processing',
              from: ['./apps/server/src/modules/allocation', './apps/server/src/modules/settlement'],
              message:
                'The processing engine imports none of the procedures: src/procedures.ts lists them, the app passes them in.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Layers: app -> features -> components/lib.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/lib', from: './apps/web/src/features' },
            { target: './apps/web/src/components', from: './apps/web/src/features' },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            // No feature imports another feature (STYLE.md §2); compose them in app/.
            ...WEB_FEATURES.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
            })),
          ],
        },
      ],
    },
  },
);
