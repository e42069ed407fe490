import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { verifyPassword } from '../modules/user/passwords.js';
import { openTestDatabase } from '../test/database.js';
import { SEEDERS, seedDemo } from './index.js';
import { DEMO_USERS } from './users.js';

describe('demo seed', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const count = async (table: string) =>
    (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;

  it('runs the selected seeders in order and can run again without change', async () => {
    expect(await seedDemo(database, { only: ['users', 'areas'] })).toEqual(['areas', 'users']);
    const before = [await count('settlement_area'), await count('app_user'), await count('user_market_function')];
    await seedDemo(database, { only: ['areas', 'users'] });
    expect([await count('settlement_area'), await count('app_user'), await count('user_market_function')]).toEqual(
      before,
    );
    expect(before).toEqual([11, DEMO_USERS.length, expect.any(Number)]);
  });

  it('gives every demo user the password demo and the administrator a function in every area', async () => {
    const [admin] = await database.query<{ password_hash: string }>(
      `SELECT password_hash FROM app_user WHERE username = 'erex-administrator'`,
    );
    expect(await verifyPassword('demo', admin?.password_hash ?? null)).toBe(true);
    expect(await verifyPassword('wrong', admin?.password_hash ?? null)).toBe(false);
    const areas = await database.query(
      `SELECT area_uuid FROM user_market_function WHERE username = 'erex-administrator'`,
    );
    expect(areas).toHaveLength(11);
  });

  it('refuses an unknown seeder name', async () => {
    await expect(seedDemo(database, { only: ['nope'] })).rejects.toThrow(/Unknown seeders: nope/);
    expect(SEEDERS.map((s) => s.name).slice(0, 2)).toEqual(['areas', 'users']);
  });
});
