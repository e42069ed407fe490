import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openDatabase, type Database } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { seedDemo } from '../seed/index.js';
import { adminQuery, databaseUrl, seedKey, TEMPLATE_SEEDS, type TestTemplates } from './templates.js';

export interface TestDatabaseOptions {
  /** Demo seeders to run (in seed order), e.g. ['areas', 'users']; default none. */
  seeders?: readonly string[];
  /** Migrate only up to this number (db/migrate.ts upTo), without a template: a migration's own test. */
  migrateUpTo?: string;
}

/** The templates the vitest global setup made for this run; none outside vitest (bench) or without it. */
async function providedTemplates(): Promise<TestTemplates | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('railwattTestTemplates');
}

/**
 * A fresh, migrated database for one test file, seeded with `seeders`. PGlite in memory by default;
 * when TEST_DATABASE_URL is set, a throwaway database on that PostgreSQL server, dropped on close.
 * Under vitest it is a copy of a template made once per run (test/global-setup.ts): a PGlite data
 * dump loaded into a new in-memory instance, or CREATE DATABASE ... TEMPLATE on PostgreSQL; the
 * seeders not in the nearest template run on the copy.
 */
export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const seeders = options.seeders ?? [];
  const serverUrl = process.env.TEST_DATABASE_URL || undefined;
  const templates = await providedTemplates();
  const fitting = templates?.kind === (serverUrl ? 'postgres' : 'pglite') ? templates : undefined;
  const base = options.migrateUpTo === undefined ? fitting && nearestTemplate(fitting, seeders) : undefined;
  let database: Database;
  if (!serverUrl) {
    database = base
      ? await openDatabase({ loadDataDir: new Blob([await readFile(base.template)]) })
      : await openDatabase({});
  } else {
    const name = `railwatt_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${name}${base ? ` TEMPLATE ${base.template}` : ''}`);
    database = await openDatabase({ url: databaseUrl(serverUrl, name) });
    const close = database.close;
    database.close = async () => {
      await close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
  }
  try {
    if (!base) await migrate(database, { upTo: options.migrateUpTo });
    const missing = seeders.filter((s) => !base?.seeded.includes(s));
    if (missing.length) await seedDemo(database, { only: missing });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** The template with the most of the wanted seeders and nothing else (seeders must not run twice over other data). */
function nearestTemplate(templates: TestTemplates, seeders: readonly string[]) {
  const fits = TEMPLATE_SEEDS.filter((held) => held.every((s) => seeders.includes(s)));
  const best = fits[fits.length - 1] ?? [];
  const template = templates.byKey[seedKey(best)];
  return template ? { template, seeded: best } : undefined;
}
