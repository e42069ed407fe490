import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { rows } from '../modules/domain/sql.js';
import { openTestDatabase } from '../test/database.js';
import { seedAreas } from './areas.js';
import { uicCheckDigit } from '@railwatt/contracts';
import { seedFleetData } from './fleet.js';

describe('demo fleet seeder', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedAreas(database);
  });
  afterAll(async () => database?.close());

  // Its speed is not asserted here (timed tests fail on a loaded machine): `npm run bench` prints it.
  it('loads every country, set-based, and a second run changes nothing', async () => {
    const inserted = await seedFleetData(database);
    expect(inserted).toBeGreaterThan(500);
    expect(await seedFleetData(database)).toBe(0);
    const [count] = await rows<{ units: number; tenants: number }>(
      database.db,
      sql`SELECT count(DISTINCT entity_uuid)::int AS units, count(DISTINCT tenant)::int AS tenants FROM entity_segment WHERE type = 'tractionunit'`,
    );
    expect(count).toEqual({ units: 360, tenants: 9 });
  });

  it('gives valid 12-digit EVNs with a UIC check digit, CPIDs and owner histories', async () => {
    const units = await rows<{ evn: string; segments: number }>(
      database.db,
      sql`SELECT attributes ->> 'evn' AS evn, count(*)::int AS segments FROM entity_segment
          WHERE type = 'tractionunit' AND superseded_at IS NULL GROUP BY 1`,
    );
    for (const u of units) {
      expect(u.evn).toMatch(/^\d{12}$/);
      expect(uicCheckDigit(u.evn.slice(0, 11))).toBe(Number(u.evn[11]));
    }
    expect(units.filter((u) => u.segments === 2).length).toBeGreaterThan(20);
    const [cp] = await rows<{ cpid: string }>(
      database.db,
      sql`SELECT attributes ->> 'cpid' AS cpid FROM entity_segment WHERE type = 'consumptionpoint' LIMIT 1`,
    );
    expect(cp!.cpid).toMatch(/^[A-Z]{2}_[A-Za-z]+_\d{12}_EMS\d$/);
  });
});
