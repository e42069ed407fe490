import type { TestProject } from 'vitest/node';
import { createTestTemplates, type TestTemplates } from './templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by this global setup; openTestDatabase clones from it. */
    railwattTestTemplates: TestTemplates;
  }
}

/**
 * vitest globalSetup of the server project: migrate and seed once per run (PGlite dumps, or template
 * databases on TEST_DATABASE_URL), so that each test file clones instead of migrating (about 2 s per file).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { templates, dispose } = await createTestTemplates(process.env.TEST_DATABASE_URL || undefined);
  project.provide('railwattTestTemplates', templates);
  return dispose;
}
