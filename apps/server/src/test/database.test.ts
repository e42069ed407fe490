import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { DEMO_USERS } from '../seed/users.js';
import { openTestDatabase } from './database.js';

const MIGRATIONS = readdirSync(join(dirname(fileURLToPath(import.meta.url)), '../db/migrations')).filter((f) =>
  /^\d{4}_.+\.sql$/.test(f),
);

describe('test databases cloned from the templates of the run', () => {
  const opened: Database[] = [];
  const open = async (seeders?: string[]) => {
    const database = await openTestDatabase({ seeders });
    opened.push(database);
    return database;
  };
  afterAll(async () => {
    for (const database of opened) await database.close();
  });
  const count = async (database: Database, table: string) =>
    (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;

  it('is fully migrated, and seeded with exactly the seeders asked for', async () => {
    const bare = await open();
    expect(await count(bare, 'schema_migrations')).toBe(MIGRATIONS.length);
    expect(await count(bare, 'settlement_area')).toBe(0);
    const seeded = await open(['areas', 'users']);
    expect(await count(seeded, 'settlement_area')).toBe(11);
    expect(await count(seeded, 'app_user')).toBe(DEMO_USERS.length);
    expect(await count(seeded, 'entity')).toBe(0);
    const fleet = await open(['areas', 'users', 'fleet']);
    expect(await count(fleet, 'entity')).toBeGreaterThan(360);
  });

  it('gives every caller its own copy: a write in one is not seen by another', async () => {
    const [first, second] = [await open(['areas', 'users']), await open(['areas', 'users'])];
    await first.exec(`DELETE FROM user_market_function; DELETE FROM app_user`);
    expect(await count(first, 'app_user')).toBe(0);
    expect(await count(second, 'app_user')).toBe(DEMO_USERS.length);
    expect(await count(await open(['areas', 'users']), 'app_user')).toBe(DEMO_USERS.length);
  });
});
