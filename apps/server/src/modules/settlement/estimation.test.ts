import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAllocatedRecord } from '../allocation/fixtures.js';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { deriveConsumptionFactors } from './consumption-factor.js';
import { settlementFixtures } from './fixtures.js';
import { estimateNonMeteredRuns } from './estimation.js';
import { priceAndSupply } from './price-and-supply.js';

const NORWAY = areaUuid('norway');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z', day: '2026-10-01' };

/*
 * Non-metered runs of 1 October 2026, every figure by hand.
 *
 * Grid areas Oslo (price area NO1) and Bergen (NO2). Traffic category TC (0.02 kWh per gross
 * tonne-km), TC0 (no factor); train profile TP (0.03).
 *   A  RU1, TC, route Oslo - Drammen - Voss, 10:45-12:00, 10,000 gtkm
 *      200 kWh (0.02 x 10,000); Oslo names a grid area, Voss a station (reported train metering
 *      point) in Bergen, Drammen nothing: Oslo and Bergen half each; 15 of 75
 *      minutes in 10:00 (0.2), 60 in 11:00 (0.8):
 *      10:00 Oslo 20, Bergen 20; 11:00 Oslo 80, Bergen 80
 *   B  RU2, TC and TP (the profile wins: 0.03), route Oslo - Oslo, 12:00-13:00, 1,000 gtkm: 12:00 Oslo 30
 *   C  RU1, TC0, no profile: no factor ('consumption-factor-missing')
 *   D  RU1, TC, route Nowhere - Elsewhere: no grid area ('track-unknown')
 *   E  RU2, TC, hauled by U1, which has consumption point CP1: metered, not estimated
 *   F  RU1, TC, the day after: another chunk's
 */
describe('estimation of non-metered runs and its price', () => {
  let database: Database;
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, { timeZone: 'Europe/Oslo' });

  const { ids, entity, series } = settlementFixtures({ query: (text, params) => database.query(text, params) }, NORWAY);
  /** Hourly values of 1 October 2026 ('HH:MM' UTC). */
  const hourly = (type: string, entityUuid: string, values: [string, number][]) =>
    series(
      type,
      entityUuid,
      values.map(([hour, value]) => [`2026-10-01T${hour}:00Z`, value] as const),
    );

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    const NO1 = await entity('pricearea', 'NO1');
    const NO2 = await entity('pricearea', 'NO2');
    // Two neighbouring rectangles, the border at longitude 8.3 (used by the methods along the track).
    const rectangle = (west: number, east: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [west, 59],
          [east, 59],
          [east, 61],
          [west, 61],
          [west, 59],
        ],
      ],
    });
    const OSLO = await entity('gridarea', 'Oslo', { priceAreaRef: NO1, geometry: rectangle(8.3, 11) });
    const BERGEN = await entity('gridarea', 'Bergen', { priceAreaRef: NO2, geometry: rectangle(5, 8.3) });
    // Redrawn from 4 October: Oslo reaches west to longitude 5, Bergen lies west of it. Runs before
    // keep the border at 8.3 (run G), runs after meet the new one (run I).
    await database.query(
      `UPDATE entity_segment SET valid = tstzrange(lower(valid), '2026-10-04T00:00:00Z') WHERE entity_uuid IN ($1, $2)`,
      [OSLO, BERGEN],
    );
    for (const [uuid, name, priceAreaRef, geometry] of [
      [OSLO, 'Oslo', NO1, rectangle(5, 11)],
      [BERGEN, 'Bergen', NO2, rectangle(3, 5)],
    ] as const)
      await database.query(
        `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
         VALUES ($1, $2, 'gridarea', tstzrange('2026-10-04T00:00:00Z', NULL), $3, $4::jsonb, 'test')`,
        [uuid, NORWAY, name, JSON.stringify({ priceAreaRef, geometry })],
      );
    // A track of 300 km between its two stations (straight, it would be ~217 km).
    const LINE = await entity('track', 'Bergensbanen', {
      lengthKm: 300,
      fromLocation: '60.5,10.5',
      toLocation: '60.5,6.5',
    });
    // Stations on the route: reported train metering points in Oslo's and Bergen's grid areas.
    await entity('reportedtrainmeteringpoint', 'Hønefoss', {
      gridAreaRef: OSLO,
      location: '60.5,10.5',
      trackRef: LINE,
    });
    await entity('reportedtrainmeteringpoint', 'Voss', { gridAreaRef: BERGEN, location: '60.5,6.5', trackRef: LINE });
    const RU1 = await entity('organisation', 'RU1', { orgId: 'RU1' });
    const RU2 = await entity('organisation', 'RU2', { orgId: 'RU2' });
    const TC = await entity('trafficcategory', 'TC', { consumptionFactor: 0.02 });
    const TC0 = await entity('trafficcategory', 'TC0', {});
    const TP = await entity('trainprofile', 'TP', { consumptionFactor: 0.03 });
    const TP2 = await entity('trainprofile', 'TP2', { consumptionFactor: 0.04 });
    const U1 = await entity('tractionunit', 'U1', { evn: '900000000001' });
    await entity('consumptionpoint', 'CP1', { cpid: 'CP1', tractionUnitRef: U1 });
    const S1 = await entity('supplymeteringpoint', 'S1', { gridAreaRef: OSLO });
    const [log] = await database.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status) VALUES ($1, 'TRAIN_RUN', 'OK') RETURNING id`,
      [NORWAY],
    );
    const run = async (
      number: string,
      ru: string,
      category: string,
      profile: string | null,
      route: string[],
      times: [string, string],
      gtkm: number,
      unit?: string,
    ) => {
      const [r] = await database.query<{ id: number }>(
        `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, train_profile_uuid,
                                route, departure, arrival, gross_tonne_km, data_log_id)
         VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4, $5, $6, $7, $3, $8, $9, $10) RETURNING id`,
        [NORWAY, number, times[0], ru, category, profile, route, times[1], gtkm, log!.id],
      );
      await database.query(
        `INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
         VALUES ($1, $2, 1, $3, $4, 80)`,
        [r!.id, NORWAY, unit ? '900000000001' : '917600000001', unit ?? null],
      );
      ids[`run:${number}`] = String(r!.id);
    };
    await run('A', RU1, TC, null, ['Oslo', 'Drammen', 'Voss'], ['2026-10-01T10:45Z', '2026-10-01T12:00Z'], 10_000);
    await run('B', RU2, TC, TP, ['oslo', 'OSLO'], ['2026-10-01T12:00Z', '2026-10-01T13:00Z'], 1_000);
    await run('C', RU1, TC0, null, ['Oslo', 'Bergen'], ['2026-10-01T08:00Z', '2026-10-01T09:00Z'], 1_000);
    await run('D', RU1, TC, null, ['Nowhere', 'Elsewhere'], ['2026-10-01T08:00Z', '2026-10-01T09:00Z'], 1_000);
    await run('E', RU2, TC, null, ['Oslo', 'Bergen'], ['2026-10-01T14:00Z', '2026-10-01T15:00Z'], 1_000, U1);
    await run('F', RU1, TC, null, ['Oslo', 'Bergen'], ['2026-10-02T08:00Z', '2026-10-02T09:00Z'], 1_000);
    // 3 October, for the methods along the track: G (profile TP2) from Hønefoss to Voss; H without a
    // profile, one station with a location only.
    await run('G', RU1, TC, TP2, ['Hønefoss', 'Voss'], ['2026-10-03T10:00Z', '2026-10-03T12:00Z'], 5_000);
    await run('H', RU2, TC, null, ['Hønefoss', 'Nowhere'], ['2026-10-03T10:00Z', '2026-10-03T11:00Z'], 1_000);
    // 5 October, after the grid areas were redrawn: G's route again.
    await run('I', RU1, TC, TP2, ['Hønefoss', 'Voss'], ['2026-10-05T10:00Z', '2026-10-05T12:00Z'], 5_000);

    // For the price: Oslo's supply and spot prices, and RU1's metered 40 kWh at 10:00 (no exchange rate: 1).
    await hourly('supply_energy', S1, [
      ['10:00', 100],
      ['11:00', 100],
      ['12:00', 40],
    ]);
    await hourly('spot_price', NO1, [
      ['10:00', 50],
      ['11:00', 30],
      ['12:00', 20],
    ]);
    await insertAllocatedRecord(database, {
      tenant: NORWAY,
      consumptionPoint: randomUUID(),
      periodEnd: '2026-10-01T10:30:00Z',
      tractionUnit: U1,
      gridArea: OSLO,
      priceArea: NO1,
      consumed: 40,
      category: 'train-run',
      organisation: RU1,
    });
    // E's metered energy, attached by combine: 25 kWh over its 1,000 gross tonne-km.
    await insertAllocatedRecord(database, {
      tenant: NORWAY,
      consumptionPoint: randomUUID(),
      periodEnd: '2026-10-01T14:30:00Z',
      tractionUnit: U1,
      gridArea: OSLO,
      priceArea: NO1,
      consumed: 26,
      regenerated: 1,
      category: 'train-run',
      trainRun: Number(ids['run:E']),
      organisation: RU2,
    });
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  const table = async (query: ReturnType<typeof sql>) =>
    Object.fromEntries(
      (await rows<{ key: string; value: string }>(tenantExecutor(database, NORWAY), query)).map((r) => [
        r.key,
        Number(r.value),
      ]),
    );

  it('estimates factor x gross tonne-km over the run’s hours and the grid areas of its track', async () => {
    const result = await estimateNonMeteredRuns(ctx(), DAY.day, {});
    expect(result).toEqual({
      runs: 4,
      estimated: 2,
      energy: 230,
      events: {
        'consumption-factor-missing': { incidents: 1, examples: ['C'] },
        'track-unknown': { incidents: 1, examples: ['D'] },
      },
    });
    const estimates = await table(
      sql`SELECT r.train_number || ' ' || to_char(x.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || g.name || ' ' || x.factor_source AS key,
                 x.energy_kwh::text AS value
            FROM estimated_energy x JOIN train_run r ON r.id = x.train_run_id
            JOIN entity_latest g ON g.entity_uuid = x.grid_area_uuid`,
    );
    expect(estimates).toEqual({
      'A 10:00 Oslo trafficcategory': 20,
      'A 10:00 Bergen trafficcategory': 20,
      'A 11:00 Oslo trafficcategory': 80,
      'A 11:00 Bergen trafficcategory': 80,
      'B 12:00 Oslo trainprofile': 30,
    });
    // Again: the day's rows are replaced.
    await estimateNonMeteredRuns(ctx(), DAY.day, {});
    expect(
      Object.keys(
        await table(sql`SELECT train_run_id::text AS key, count(*)::text AS value FROM estimated_energy GROUP BY 1`),
      ),
    ).toHaveLength(2);
  });

  it('prices estimated energy at the average price of what remains, and shares the losses with it', async () => {
    await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    // What remains in NO1 (Oslo): 10:00 100 - 40 = 60 at 50, 11:00 100 at 30, 12:00 40 at 20
    // -> (3,000 + 3,000 + 800) / 200 = 34 per MWh. Losses: 10:00 100 - (40 + 20) = 40, all RU1's
    // (40 x 40/60 + 40 x 20/60); 11:00 100 - 80 = 20 (RU1); 12:00 40 - 30 = 10 (RU2).
    const priced = await table(
      sql`SELECT to_char(e.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || g.name || ' ' || o.name || ' ' || e.category
                   || ' ' || coalesce(round(e.price, 6)::text, '-') AS key,
                 round(e.energy_kwh, 6)::text AS value
            FROM priced_energy e JOIN entity_latest g ON g.entity_uuid = e.grid_area_uuid
            JOIN entity_latest o ON o.entity_uuid = e.organisation_uuid`,
    );
    expect(priced).toEqual({
      '10:00 Oslo RU1 metered 50.000000': 40,
      '10:00 Oslo RU1 estimated 34.000000': 20,
      '10:00 Oslo RU1 losses 50.000000': 40,
      '11:00 Oslo RU1 estimated 34.000000': 80,
      '11:00 Oslo RU1 losses 30.000000': 20,
      '12:00 Oslo RU2 estimated 34.000000': 30,
      '12:00 Oslo RU2 losses 20.000000': 10,
      // E's metered record (for the factors below) at 14:00: no supply, no price.
      '14:00 Oslo RU2 metered -': 25,
      // Bergen has no supply and no price: its estimate stays unpriced.
      '10:00 Bergen RU1 estimated -': 20,
      '11:00 Bergen RU1 estimated -': 80,
    });
  });

  it('derives the traffic categories’ factors from metered runs, and the estimate reads them first', async () => {
    // TC: E's 26 - 1 = 25 kWh / 1,000 gtkm = 0.025 (one metered run); TC0 has none: the default 0.01.
    const derived = await deriveConsumptionFactors(ctx(), DAY.start, {
      by: 'trafficcategory',
      minTrainRuns: 1,
      defaultFactor: 0.01,
    });
    expect(derived).toEqual({
      month: '2026-09-30T22:00:00.000Z',
      factors: { TC: { factor: 0.025, runs: 1 }, TC0: { factor: 0.01, runs: 0 } },
      tooFew: [],
    });
    // With at least two runs asked, TC has too few and keeps the value stored above.
    expect(
      (await deriveConsumptionFactors(ctx(), DAY.start, { by: 'trafficcategory', minTrainRuns: 2 })).tooFew,
    ).toEqual(['TC']);
    // A (no profile) now takes TC's parameter: 0.025 x 10,000 = 250 kWh; B keeps its profile's 0.03;
    // C takes TC0's parameter: 0.01 x 1,000 = 10 kWh, half in Oslo and half in Bergen.
    const result = await estimateNonMeteredRuns(ctx(), DAY.day, {});
    expect(result).toMatchObject({ runs: 4, estimated: 3, energy: 250 + 30 + 10 });
    const sources = await table(
      sql`SELECT r.train_number || ' ' || x.factor_source AS key, sum(x.energy_kwh)::text AS value
            FROM estimated_energy x JOIN train_run r ON r.id = x.train_run_id GROUP BY 1`,
    );
    expect(sources).toEqual({
      'A trafficcategory-parameter': 250,
      'B trainprofile': 30,
      'C trafficcategory-parameter': 10,
    });
  });

  /*
   * 3 October, G: 0.04 (TP2) x 5,000 reported gtkm = 200 kWh, 10:00-12:00, Hønefoss (60.5, 10.5)
   * to Voss (60.5, 6.5) on one track.
   *   By stations: Oslo and Bergen half each, 10:00 and 11:00 half each: 50 kWh in each of four.
   *   Along the track: 20 samples at longitude 10.5 - 4 x (i + 0.5)/20; east of 8.3 (Oslo) for
   *   i = 0..10, Bergen for 11..19; the run passes sample i at 10:00 + 120 min x (i + 0.5)/20, so
   *   i = 0..9 in 10:00: 10:00 Oslo 10/20, 11:00 Oslo 1/20, 11:00 Bergen 9/20 of 200 kWh.
   *   Payload: the composition's 80 t x the track's 300 km = 24,000 gtkm x 0.04 = 960 kWh, the same shares.
   * H (no profile, TC): one located place, no leg: by stations only (Oslo); the other two keep it.
   */
  /** A run's estimate per hour, grid area and method. */
  const estimateOf = (train: string) =>
    table(
      sql`SELECT r.train_number || ' ' || to_char(x.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || g.name || ' ' || x.method AS key,
                 round(x.energy_kwh, 6)::text AS value
            FROM estimated_energy x JOIN train_run r ON r.id = x.train_run_id
            JOIN entity_latest g ON g.entity_uuid = x.grid_area_uuid
           WHERE r.train_number = ${train}`,
    );
  const day3 = () => estimateOf('G');
  const methodsOf = (train: string) =>
    table(
      sql`SELECT x.method AS key, count(*)::text AS value FROM estimated_energy x JOIN train_run r ON r.id = x.train_run_id
           WHERE r.train_number = ${train} GROUP BY 1`,
    );

  it('spreads the estimate along the track: the grid areas crossed, in the hour they are crossed', async () => {
    const DAY3 = '2026-10-03';
    expect(await estimateNonMeteredRuns(ctx(), DAY3, {})).toMatchObject({ runs: 2, estimated: 2 });
    expect(await day3()).toEqual({
      'G 10:00 Oslo reported-train-consumption': 50,
      'G 10:00 Bergen reported-train-consumption': 50,
      'G 11:00 Oslo reported-train-consumption': 50,
      'G 11:00 Bergen reported-train-consumption': 50,
    });
    const withTrack = await estimateNonMeteredRuns(ctx(), DAY3, { method: 'reported-train-consumption-with-track' });
    expect(withTrack).toEqual({
      runs: 2,
      estimated: 1,
      energy: expect.closeTo(200, 9),
      events: {
        'consumption-factor-missing': { incidents: 0, examples: [] },
        'track-unknown': { incidents: 1, examples: ['H'] },
      },
    });
    // G's rows replaced (10:00 Bergen gone), H keeps its estimate by stations.
    expect(await day3()).toEqual({
      'G 10:00 Oslo reported-train-consumption-with-track': 100,
      'G 11:00 Oslo reported-train-consumption-with-track': 10,
      'G 11:00 Bergen reported-train-consumption-with-track': 90,
    });
    expect(await methodsOf('H')).toEqual({ 'reported-train-consumption': 1 });
  });

  it('estimates from the composition’s weight and the track’s length at the train profile’s factor', async () => {
    const result = await estimateNonMeteredRuns(ctx(), '2026-10-03', { method: 'payload-with-trainprofile' });
    // Only G has a train profile.
    expect(result).toMatchObject({ runs: 1, estimated: 1, energy: expect.closeTo(960, 6) });
    expect(await day3()).toEqual({
      'G 10:00 Oslo payload-with-trainprofile': 480,
      'G 11:00 Oslo payload-with-trainprofile': 48,
      'G 11:00 Bergen payload-with-trainprofile': 432,
    });
    const [gtkm] = await rows<{ gtkm: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT DISTINCT round(x.gross_tonne_km, 6)::text AS gtkm FROM estimated_energy x
            JOIN train_run r ON r.id = x.train_run_id WHERE r.train_number = 'G'`,
    );
    expect(Number(gtkm?.gtkm)).toBe(24_000);
    // The chain after a correction: by stations first (G's rows replaced), then the refinement again.
    await estimateNonMeteredRuns(ctx(), '2026-10-03', {});
    expect(await methodsOf('G')).toEqual({ 'reported-train-consumption': 4 });
    await estimateNonMeteredRuns(ctx(), '2026-10-03', { method: 'payload-with-trainprofile' });
    expect(await methodsOf('G')).toEqual({ 'payload-with-trainprofile': 3 });
  });

  it('places a run by the grid areas as they were when it left, not as they were redrawn later', async () => {
    // G (3 October) was placed above by the border at 8.3 although Oslo has been redrawn since.
    // I (5 October) runs the same route after the redraw: all of it lies in Oslo.
    const result = await estimateNonMeteredRuns(ctx(), '2026-10-05', { method: 'payload-with-trainprofile' });
    expect(result).toMatchObject({ runs: 1, estimated: 1, energy: expect.closeTo(960, 6) });
    expect(await estimateOf('I')).toEqual({
      'I 10:00 Oslo payload-with-trainprofile': 480,
      'I 11:00 Oslo payload-with-trainprofile': 480,
    });
    await estimateNonMeteredRuns(ctx(), '2026-10-03', { method: 'payload-with-trainprofile' });
    expect(await day3()).toEqual({
      'G 10:00 Oslo payload-with-trainprofile': 480,
      'G 11:00 Oslo payload-with-trainprofile': 48,
      'G 11:00 Bergen payload-with-trainprofile': 432,
    });
  });
});
