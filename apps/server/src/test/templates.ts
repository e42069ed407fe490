import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { seedDemo } from '../seed/index.js';

/**
 * Migrated (and seeded) databases made once per test run, which every test file clones instead of
 * running initdb, the migrations and the seeders again. Keyed by the seeders they hold, in seed order.
 */
export interface TestTemplates {
  kind: 'pglite' | 'postgres';
  /** Seed key ('' = migrated only, 'areas,users', 'areas,users,fleet') -> PGlite data dump (tar) or database name. */
  byKey: Record<string, string>;
}

/** The seeder sets tests ask for; each builds on the one before, so one pass of seeding makes all. */
export const TEMPLATE_SEEDS: readonly (readonly string[])[] = [
  [],
  ['areas', 'users'],
  ['areas', 'users', 'fleet'],
  ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
];

export const seedKey = (seeders: readonly string[]): string => seeders.join(',');

/** Makes the templates: PGlite data-directory dumps in a temporary folder, or template databases. */
export async function createTestTemplates(serverUrl: string | undefined): Promise<{
  templates: TestTemplates;
  dispose(): Promise<void>;
}> {
  return serverUrl ? createPostgresTemplates(serverUrl) : createPgliteTemplates();
}

async function seedUpTo(database: Database, seeders: readonly string[], done: readonly string[]): Promise<void> {
  const missing = seeders.filter((s) => !done.includes(s));
  if (missing.length) await seedDemo(database, { only: missing });
}

async function createPgliteTemplates() {
  const dir = mkdtempSync(join(tmpdir(), 'railwatt-test-templates-'));
  const byKey: Record<string, string> = {};
  const database = await openDatabase({});
  try {
    await migrate(database);
    let done: readonly string[] = [];
    for (const seeders of TEMPLATE_SEEDS) {
      await seedUpTo(database, seeders, done);
      done = seeders;
      // Uncompressed: loading a 30 MB tar is faster than gunzipping a small one in every test file.
      const dump = await database.pglite!.dumpDataDir('none');
      const file = join(dir, `${seedKey(seeders) || 'migrated'}.tar`);
      writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      byKey[seedKey(seeders)] = file;
    }
  } finally {
    await database.close();
  }
  return {
    templates: { kind: 'pglite' as const, byKey },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run in a pool transaction). */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export const databaseUrl = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function createPostgresTemplates(serverUrl: string) {
  // A random prefix: engineers and CI jobs may share one PostgreSQL server.
  const prefix = `railwatt_tpl_${randomBytes(4).toString('hex')}`;
  const byKey: Record<string, string> = {};
  const dispose = async () => {
    for (const name of Object.values(byKey).reverse()) {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  };
  try {
    let previous: string | undefined;
    let done: readonly string[] = [];
    for (const [index, seeders] of TEMPLATE_SEEDS.entries()) {
      const name = `${prefix}_${index}`;
      await adminQuery(serverUrl, `CREATE DATABASE ${name}${previous ? ` TEMPLATE ${previous}` : ''}`);
      byKey[seedKey(seeders)] = name;
      const database = await openDatabase({ url: databaseUrl(serverUrl, name) });
      try {
        if (!previous) await migrate(database);
        await seedUpTo(database, seeders, done);
      } finally {
        await database.close();
      }
      previous = name;
      done = seeders;
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { templates: { kind: 'postgres' as const, byKey }, dispose };
}
