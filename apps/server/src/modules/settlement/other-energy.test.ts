import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { settlementFixtures } from './fixtures.js';
import { distributeFixedVolumes } from './other-energy.js';
import { priceAndSupply } from './price-and-supply.js';

const NORWAY = areaUuid('norway');
/** 1 October 2026 in Oslo (UTC+2). */
const DAY = { start: '2026-09-30T22:00:00Z', end: '2026-10-01T22:00:00Z' };

/*
 * Fixed installations read per month or year, spread over hours, every figure by hand.
 *
 * Grid area G1 in NO1; organisation ORG. Fixed metering points:
 *   F1  ORG, October's volume 745 kWh; October 2026 in Oslo has 745 hours (the 25th has 25):
 *       1 kWh an hour. Its 00:00 hour (22:00 UTC) was measured, 5 kWh: kept.
 *   F3  no organisation, October's volume 1,490 kWh: 2 kWh an hour, spread but never billed.
 *   F4  ORG, 2026's volume 9,600 kWh; the year's degree days are 10 (1 October) + 30 (15 January):
 *       1 October takes 10/40 = 2,400 kWh, 100 kWh in each of its 24 hours.
 */
describe('profile and annual-distribution (fixed installations)', () => {
  let database: Database;
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, { timeZone: 'Europe/Oslo' });

  const fixtures = settlementFixtures({ query: (text, params) => database.query(text, params) }, NORWAY);
  const { ids, entity } = fixtures;
  const series = (type: string, entityUuid: string, resolution: string, values: [string, number, number?][]) =>
    fixtures.series(type, entityUuid, values, resolution);

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    const NO1 = await entity('pricearea', 'NO1');
    const G1 = await entity('gridarea', 'G1', { priceAreaRef: NO1 });
    const ORG = await entity('organisation', 'ORG', { orgId: 'ORG' });
    const SA = await entity('settlementarea', 'Norway');
    const F1 = await entity('fixedmeteringpoint', 'F1', { gridAreaRef: G1, organisationRef: ORG });
    const F3 = await entity('fixedmeteringpoint', 'F3', { gridAreaRef: G1, organisationRef: null });
    const F4 = await entity('fixedmeteringpoint', 'F4', { gridAreaRef: G1, organisationRef: ORG });
    await series('fixed_installation_energy', F1, 'P1M', [['2026-09-30T22:00:00Z', 745]]);
    await series('fixed_installation_energy', F1, 'PT1H', [['2026-09-30T22:00:00Z', 5]]);
    await series('fixed_installation_energy', F3, 'P1M', [['2026-09-30T22:00:00Z', 1490]]);
    await series('fixed_installation_energy', F4, 'P1Y', [['2025-12-31T23:00:00Z', 9600]]);
    await series('degree_days', SA, 'P1D', [
      ['2026-09-30T22:00:00Z', 10],
      ['2026-01-14T23:00:00Z', 30],
    ]);
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  const hourly = (point: string) =>
    rows<{ at: string; value: number; quality: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT to_char(v.start_time AT TIME ZONE 'UTC', 'HH24:MI') AS at, v.value::float8 AS value, v.quality
            FROM time_series s JOIN time_series_value v ON v.series_id = s.id
           WHERE s.entity_uuid = ${point}::uuid AND s.resolution = 'PT1H' ORDER BY v.start_time`,
    );

  it('profile spreads the month’s volume flat over its hours, keeping a measured hour', async () => {
    const result = await distributeFixedVolumes(ctx(), DAY, { by: 'month' });
    // F1: 23 hours of 1 kWh (its measured hour kept); F3: 24 hours of 2 kWh.
    expect(result).toEqual({ points: 2, hours: 47, energy: 23 + 48 });
    const f1 = await hourly(ids['F1']!);
    expect(f1).toHaveLength(24);
    expect(f1[0]).toEqual({ at: '22:00', value: 5, quality: 127 });
    expect(f1.slice(1).every((h) => h.value === 1 && h.quality === 56)).toBe(true);
    // Again: the estimates are refreshed, the measured hour still kept.
    expect(await distributeFixedVolumes(ctx(), DAY, { by: 'month' })).toEqual({ points: 2, hours: 47, energy: 71 });
  });

  it('annual-distribution spreads the year’s volume by the day’s share of the degree days', async () => {
    expect(await distributeFixedVolumes(ctx(), DAY, { by: 'year' })).toEqual({ points: 1, hours: 24, energy: 2400 });
    const f4 = await hourly(ids['F4']!);
    expect(f4.map((h) => h.value)).toEqual(Array.from({ length: 24 }, () => 100));
  });

  it('price-and-supply settles it as other energy to the point’s organisation', async () => {
    await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    const [other] = await rows<{ kwh: number; hours: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT sum(energy_kwh)::float8 AS kwh, count(*)::int AS hours FROM priced_energy
           WHERE category = 'other' AND organisation_uuid = ${ids['ORG']}::uuid`,
    );
    // F1 5 + 23 x 1 = 28, F4 2,400: 2,428 kWh over 24 hours; F3 has no organisation.
    expect(other).toEqual({ kwh: 2428, hours: 24 });
  });
});
