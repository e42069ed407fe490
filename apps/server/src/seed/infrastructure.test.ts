import { areaGeometrySchema, COUNTRY_AREA_NAMES, type AreaGeometry } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { rows } from '../modules/domain/sql.js';
import { areasOverlap, areaWithin } from '../modules/domain/geometry.js';
import { openTestDatabase } from '../test/database.js';
import { buildInfrastructure, seedGeography, seedInfrastructureData } from './infrastructure.js';

describe('demo infrastructure seeder', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
  });
  afterAll(async () => database?.close());

  it('loads the areas of every country once; a second run changes nothing', async () => {
    expect(await seedInfrastructureData(database)).toBeGreaterThan(100);
    expect(await seedInfrastructureData(database)).toBe(0);
    const counts = await rows<{ type: string; n: number }>(
      database.db,
      sql`SELECT type, count(DISTINCT entity_uuid)::int AS n FROM entity_segment GROUP BY type ORDER BY type`,
    );
    expect(Object.fromEntries(counts.map((c) => [c.type, c.n]))).toMatchObject({
      settlementarea: 9,
      taxarea: 9,
      pricearea: 17,
      energyusesettlementarea: 17,
      gridarea: 34,
    });
  });

  it('gives Norway its five bidding zones and Sweden its four, as valid polygons', () => {
    const geo = seedGeography();
    expect(geo.norway.priceAreas.map((p) => p.name).sort()).toEqual(['NO1', 'NO2', 'NO3', 'NO4', 'NO5']);
    expect(geo.sweden.priceAreas.map((p) => p.name)).toEqual(['SE1', 'SE2', 'SE3', 'SE4']);
    for (const country of COUNTRY_AREA_NAMES)
      for (const pa of geo[country].priceAreas) {
        expect(areaGeometrySchema.safeParse(pa.geometry).success, pa.name).toBe(true);
        for (const grid of pa.gridAreas) expect(areaGeometrySchema.safeParse(grid).success, pa.name).toBe(true);
      }
  });

  it('draws price areas that do not overlap, and grid areas within their energy use settlement area', () => {
    for (const country of COUNTRY_AREA_NAMES) {
      const data = buildInfrastructure(country);
      const ofType = (type: string) => data.segments.filter((s) => s.type === type);
      const geometry = (s: { attributes: Record<string, unknown> }) => s.attributes.geometry as AreaGeometry;
      for (const type of ['pricearea', 'gridarea']) {
        const areas = ofType(type);
        for (let i = 0; i < areas.length; i++)
          for (let j = i + 1; j < areas.length; j++)
            expect(areasOverlap(geometry(areas[i]!), geometry(areas[j]!)), `${areas[i]!.name}/${areas[j]!.name}`).toBe(
              false,
            );
      }
      for (const grid of ofType('gridarea')) {
        const parent = data.segments.find((s) => s.entityUuid === grid.attributes.energyUseSettlementAreaRef)!;
        expect(areaWithin(geometry(grid), geometry(parent)), grid.name).toBe(true);
      }
    }
  });
});
