import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { rows } from '../modules/domain/sql.js';
import { areasOverlap, areaWithin } from '../modules/infrastructure/geometry.js';
import { openTestDatabase } from '../test/database.js';
import { seedAreas } from './areas.js';
import { uicCheckDigit } from '@railwatt/contracts';
import { SEED_COUNTRIES, seedFleetData } from './fleet.js';

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

  it('draws price areas that do not overlap and grid areas within their energy use settlement areas', () => {
    for (const country of SEED_COUNTRIES) {
      const geoms = country.priceAreas.map((p) => ({
        type: 'Polygon' as const,
        coordinates: [[...p.ring, p.ring[0]!]],
      }));
      for (let i = 0; i < geoms.length; i++)
        for (let j = i + 1; j < geoms.length; j++)
          expect(areasOverlap(geoms[i]!, geoms[j]!), `${country.kind} ${i}/${j}`).toBe(false);
    }
  });

  it('stores geometry that passes the within check', async () => {
    const grids = await rows<{ child: never; parent: never }>(
      database.db,
      sql`SELECT g.attributes -> 'geometry' AS child, e.attributes -> 'geometry' AS parent
          FROM entity_segment g JOIN entity_segment e ON e.entity_uuid::text = g.attributes ->> 'energyUseSettlementAreaRef'
          WHERE g.type = 'gridarea'`,
    );
    expect(grids.length).toBe(17);
    for (const g of grids) expect(areaWithin(g.child, g.parent)).toBe(true);
  });
});
