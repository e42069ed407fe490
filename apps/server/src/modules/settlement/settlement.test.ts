import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAllocatedRecord } from '../allocation/fixtures.js';
import type { Database } from '../../db/client.js';
import { tenantDatabase, tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { insertEntity } from '../../test/entities.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { findSettledConsumption } from '../processing/tasks.js';
import { settlementFixtures } from './fixtures.js';
import { aggregateMeteredEnergy } from './metered-energy-aggregation.js';
import { priceAndSupply } from './price-and-supply.js';
import {
  baseVerification,
  priceAreaBalances,
  settlementHourly,
  settlementLines,
  settlementRecords,
  settlementWarnings,
} from './service.js';
import { settleDay } from './settle.js';

const NORWAY = areaUuid('norway');
const BELGIUM = areaUuid('belgium');
/** The chunk: 1 October 2026, UTC day (inside Norway's October, which starts 30.09 22:00 UTC). */
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z', day: '2026-10-01' };
const OCTOBER = { startYear: 2026, startMonth: 10 };

/*
 * A small known day, every figure computed by hand below.
 *
 * Price areas NO1, NO2; grid areas G1 (in NO1) and G2 (in NO2); supply metering points S1 (G1), S2
 * (G2); railway undertakings RU1, RU2. Exchange rate 11.5 NOK/EUR all day.
 *
 *   hour (UTC)  grid  allocated records (consumed - regenerated)        supply  spot EUR/MWh
 *   10:00       G1    RU1 10:05 30-5=25, 10:10 15-0=15 -> 40            110     NO1 50
 *                     RU2 11:00 60 (the period 10:55-11:00) -> 60
 *   11:00       G2    RU1 11:30 20                                       18      NO2 40
 *   12:00       G1    RU2 12:05 10                                       -       NO1 -
 *   13:00       G2    -                                                  5       NO2 40
 *
 * Balances (losses = supply - allocated; none without supply):
 *   G1 10:00  110 - 100 = 10    RU1 10 x 40/100 = 4, RU2 10 x 60/100 = 6
 *   G2 11:00   18 -  20 = -2    RU1 -2 (supply lower than allocated)
 *   G1 12:00  no supply: 0      (supply missing, and no spot price)
 *   G2 13:00    5 -   0 = 5     nobody to share it with: unbilled
 * Prices in NOK/MWh: NO1 10:00 50 x 11.5 = 575; NO2 11:00 and 13:00 40 x 11.5 = 460.
 * Costs (kWh / 1000 x price):
 *   RU1 NO1 metered 40 -> 23.00, losses 4 -> 2.30         supply 44 kWh, 25.30
 *   RU2 NO1 metered 60 -> 34.50 (+ 10 kWh unpriced), losses 6 -> 3.45   supply 76 kWh, 37.95
 *   RU1 NO2 metered 20 -> 9.20, losses -2 -> -0.92        supply 18 kWh, 8.28
 */
describe('price-and-supply and settlement', () => {
  let database: Database;
  const OSLO = { timeZone: 'Europe/Oslo' };
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, OSLO);
  let resultId = 0;

  const {
    ids,
    entity,
    series: seriesOf,
  } = settlementFixtures({ query: (text, params) => database.query(text, params) }, NORWAY);
  /** Hourly values of 1 October 2026 ('HH:MM' UTC). */
  const series = (type: string, entityUuid: string, values: [string, number][]) =>
    seriesOf(
      type,
      entityUuid,
      values.map(([hour, value]) => [`2026-10-01T${hour}:00Z`, value] as const),
    );
  const allocate = async (tenant: string, org: string, grid: string, pa: string, end: string, kwh: [number, number]) =>
    insertAllocatedRecord(database, {
      tenant,
      consumptionPoint: randomUUID(),
      periodEnd: `2026-10-01T${end}:00Z`,
      tractionUnit: randomUUID(),
      gridArea: grid,
      priceArea: pa,
      consumed: kwh[0],
      regenerated: kwh[1],
      category: 'train-run',
      organisation: org,
    });

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    const NO1 = await entity('pricearea', 'NO1');
    const NO2 = await entity('pricearea', 'NO2');
    const G1 = await entity('gridarea', 'G1', { priceAreaRef: NO1 });
    const G2 = await entity('gridarea', 'G2', { priceAreaRef: NO2 });
    const S1 = await entity('supplymeteringpoint', 'S1', { gridAreaRef: G1 });
    const S2 = await entity('supplymeteringpoint', 'S2', { gridAreaRef: G2 });
    const RU1 = await entity('organisation', 'RU1', { orgId: 'RU1' });
    const RU2 = await entity('organisation', 'RU2', { orgId: 'RU2' });
    const SA = await entity('settlementarea', 'Norway');
    // Charges (see the last test): RU1's contract for NO1 with grid fee GF (100 NOK/MWh, 200 from
    // 2 October), energy fee EF (2 EUR/MWh), tax category TX (10 NOK/MWh) and VAT 25 %.
    const GF = await entity('gridfeetype', 'GF', { price: 100, currency: 'NOK' });
    await database.query(
      `UPDATE entity_segment SET valid = tstzrange('2000-01-01', '2026-10-02') WHERE entity_uuid = $1`,
      [GF],
    );
    await database.query(
      `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
       VALUES ($1, $2, 'gridfeetype', tstzrange('2026-10-02', NULL), 'GF', '{"price": 200, "currency": "NOK"}', 'test')`,
      [GF, NORWAY],
    );
    const EF = await entity('energyfeetype', 'EF', { price: 2, currency: 'EUR' });
    const TX = await entity('taxcategory', 'TX', { rate: 10 });
    const VAT = await entity('vatcategory', 'VAT', { percentage: 25 });
    await entity('contract', 'C-RU1-NO1', {
      organisationRef: RU1,
      priceAreaRef: NO1,
      gridFeeTypeRefs: [GF],
      energyFeeTypeRefs: [EF],
      taxCategoryRef: TX,
      vatCategoryRef: VAT,
    });
    // RU1's next contract in NO1, without charges, from 2 October (its name sorts first): the
    // charges of 1 October stay C-RU1-NO1's.
    const next = await entity('contract', 'A-RU1-NO1-next', { organisationRef: RU1, priceAreaRef: NO1 });
    await database.query(
      `UPDATE entity_segment SET valid = tstzrange('2026-10-02T00:00:00Z', NULL) WHERE entity_uuid = $1`,
      [next],
    );
    await series('supply_energy', S1, [['10:00', 110]]);
    await series('supply_energy', S2, [
      ['11:00', 18],
      ['13:00', 5],
    ]);
    await series('spot_price', NO1, [['10:00', 50]]);
    await series('spot_price', NO2, [
      ['11:00', 40],
      ['13:00', 40],
    ]);
    await series(
      'currency_exchange_rate',
      SA,
      ['10:00', '11:00', '12:00', '13:00'].map((h) => [h, 11.5]),
    );
    await allocate(NORWAY, RU1, G1, NO1, '10:05', [30, 5]);
    await allocate(NORWAY, RU1, G1, NO1, '10:10', [15, 0]);
    await allocate(NORWAY, RU2, G1, NO1, '11:00', [60, 0]);
    await allocate(NORWAY, RU1, G2, NO2, '11:30', [20, 0]);
    await allocate(NORWAY, RU2, G1, NO1, '12:05', [10, 0]);
    // Another area's energy in the same hours: no run of Norway may read it.
    await allocate(BELGIUM, RU1, G1, NO1, '10:05', [1000, 0]);
    // 5 October (the last test), master data that changed at 12:00 UTC: S3 measures in G1, then in
    // G2; grid area G3 (supplied by S4) lies in NO1, then in NO2.
    const moved = async (type: string, uuid: string, name: string, after: Record<string, unknown>) => {
      await database.query(
        `UPDATE entity_segment SET valid = tstzrange(lower(valid), '2026-10-05T12:00:00Z') WHERE entity_uuid = $1`,
        [uuid],
      );
      await database.query(
        `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
         VALUES ($1, $2, $3, tstzrange('2026-10-05T12:00:00Z', NULL), $4, $5::jsonb, 'test')`,
        [uuid, NORWAY, type, name, JSON.stringify(after)],
      );
    };
    const S3 = await entity('supplymeteringpoint', 'S3', { gridAreaRef: G1 });
    await moved('supplymeteringpoint', S3, 'S3', { gridAreaRef: G2 });
    const G3 = await entity('gridarea', 'G3', { priceAreaRef: NO1 });
    await moved('gridarea', G3, 'G3', { priceAreaRef: NO2 });
    const S4 = await entity('supplymeteringpoint', 'S4', { gridAreaRef: G3 });
    for (const [meter, before, after] of [
      [S3, 7, 9],
      [S4, 3, 4],
    ] as const)
      await seriesOf('supply_energy', meter, [
        ['2026-10-05T10:00:00Z', before],
        ['2026-10-05T13:00:00Z', after],
      ]);
    const [result] = await database.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
       VALUES ($1, 'settlement', 'running', '2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z', 'test') RETURNING id`,
      [NORWAY],
    );
    resultId = Number(result!.id);
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  it('balances each grid area and hour, shares the losses pro rata and prices them at the spot price in the area currency', async () => {
    const result = await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    // Metered 100 + 20 + 10 = 130; supply 110 + 18 + 0 + 5 = 133; losses 10 - 2 + 0 + 5 = 13.
    expect(result).toMatchObject({ gridHours: 4, metered: 130, supply: 133, losses: 13 });
    expect(result.events['supply-missing']).toEqual({ incidents: 1, examples: ['G1 12:00Z'] });
    expect(result.events['spot-price-missing']).toEqual({ incidents: 1, examples: ['NO1 12:00Z'] });
    expect(result.events['supply-lower-than-allocated']).toEqual({ incidents: 1, examples: ['G2 11:00Z'] });

    const rowsOf = await rows<{ key: string; kwh: string; price: string | null; cost: string | null }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT to_char(e.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || g.name || ' ' || o.name || ' ' || e.category AS key,
                 e.energy_kwh::text AS kwh, e.price::text AS price, e.cost::text AS cost
            FROM priced_energy e JOIN entity_latest g ON g.entity_uuid = e.grid_area_uuid
            JOIN entity_latest o ON o.entity_uuid = e.organisation_uuid ORDER BY 1`,
    );
    const table = Object.fromEntries(
      rowsOf.map((r) => [
        r.key,
        [Number(r.kwh), r.price === null ? null : Number(r.price), r.cost === null ? null : Number(r.cost)],
      ]),
    );
    expect(table).toEqual({
      '10:00 G1 RU1 losses': [4, 575, 2.3],
      '10:00 G1 RU1 metered': [40, 575, 23],
      '10:00 G1 RU2 losses': [6, 575, 3.45],
      '10:00 G1 RU2 metered': [60, 575, 34.5],
      '11:00 G2 RU1 losses': [-2, 460, -0.92],
      '11:00 G2 RU1 metered': [20, 460, 9.2],
      '12:00 G1 RU2 metered': [10, null, null],
    });

    // Run again: the chunk's rows are replaced, not added to.
    await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    const [count] = await rows<{ n: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT count(*)::int AS n FROM priced_energy`,
    );
    expect(count!.n).toBe(7);
  });

  it('answers the base verification per organisation and price area, and the balance per price area', async () => {
    const verification = await baseVerification(ctx(), OCTOBER);
    const brief = verification.map((r) => ({
      at: `${r.priceArea.name} ${r.organisation.name}`,
      supply: r.supplyEnergy,
      metered: r.meteredEnergy,
      losses: r.lossesEnergy,
      cost: Number(r.supplyCost.toFixed(2)),
    }));
    expect(brief).toEqual([
      { at: 'NO1 RU1', supply: 44, metered: 40, losses: 4, cost: 25.3 },
      { at: 'NO1 RU2', supply: 76, metered: 70, losses: 6, cost: 37.95 },
      { at: 'NO2 RU1', supply: 18, metered: 20, losses: -2, cost: 8.28 },
    ]);

    const balances = await priceAreaBalances(ctx(), OCTOBER);
    // NO1: supply 110 against metered 110 + losses 10: -10, the hour without supply (12:00, 10 kWh).
    // NO2: supply 23 against metered 20 + losses 3: closes; of the 3, -2 billed and 5 unbilled.
    expect(
      balances.map((b) => ({
        area: b.priceArea.name,
        supply: b.supplyEnergy,
        metered: b.meteredEnergy,
        losses: b.lossesEnergy,
        unbilled: b.unbilledLossesEnergy,
        difference: b.difference,
        noSupply: b.hoursWithoutSupply,
        noPrice: b.hoursWithoutPrice,
        price: b.averagePrice === null ? null : Number(b.averagePrice.toFixed(4)),
      })),
    ).toEqual([
      // (23.00 + 34.50) / 110 kWh x 1000 = 522.7273 NOK/MWh (the unpriced 10 kWh count as 0).
      {
        area: 'NO1',
        supply: 110,
        metered: 110,
        losses: 10,
        unbilled: 0,
        difference: -10,
        noSupply: 1,
        noPrice: 1,
        price: 522.7273,
      },
      {
        area: 'NO2',
        supply: 23,
        metered: 20,
        losses: 3,
        unbilled: 5,
        difference: 0,
        noSupply: 0,
        noPrice: 0,
        price: 460,
      },
    ]);

    // The hours behind RU2's metered energy in NO1: 60 + 10 = 70.
    const hours = await settlementHourly(ctx(), {
      ...OCTOBER,
      organisation: ids['RU2']!,
      priceArea: ids['NO1']!,
      category: 'metered',
    });
    expect(hours.map((h) => [h.hourStart, h.energy, h.cost])).toEqual([
      ['2026-10-01T10:00:00.000Z', 60, 34.5],
      ['2026-10-01T12:00:00.000Z', 10, null],
    ]);
  });

  it('traces an hourly metered value down to its 5-minute records and the CEBD files they came in', async () => {
    const db = tenantDatabase(database, NORWAY);
    const [log] = await db.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name)
       VALUES ($1, 'CEBD_IMPORT', 'OK', 'cebd-2026-10-01.xml') RETURNING id`,
      [NORWAY],
    );
    // The records of the two sums (one record each), in the record table (processing/allocated-energy.ts checkedRecords).
    await db.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, quality, codes, data_log_id,
                                active_consumed, active_regenerated, reactive_consumed, reactive_regenerated)
       SELECT tenant, consumption_point_uuid, first_period_end, 127, '{}', $2, active_consumed, active_regenerated, 0, 0
         FROM allocated_energy_hourly
        WHERE tenant = $1 AND first_period_end IN ('2026-10-01T10:05:00Z', '2026-10-01T10:10:00Z')`,
      [NORWAY, log!.id],
    );
    // RU1's metered 40 kWh in G1 at 10:00 = 25 (10:05) + 15 (10:10); RU2's 11:00 record is RU2's.
    const records = await settlementRecords(ctx(), {
      organisation: ids['RU1']!,
      gridArea: ids['G1']!,
      hourStart: '2026-10-01T10:00:00.000Z',
    });
    expect(records.map((r) => [r.periodEnd, r.activeConsumed - r.activeRegenerated, r.category, r.fileName])).toEqual([
      ['2026-10-01T10:05:00.000Z', 25, 'train-run', 'cebd-2026-10-01.xml'],
      ['2026-10-01T10:10:00.000Z', 15, 'train-run', 'cebd-2026-10-01.xml'],
    ]);
  });

  it('shows a consumer only its own organisation and no price-area balance', async () => {
    await tenantDatabase(database, NORWAY).query(
      `INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, 'consumer-1', $2)`,
      [NORWAY, ids['RU2']],
    );
    const consumer = serviceContext(
      tenantExecutor(database, NORWAY),
      NORWAY,
      {
        username: 'consumer-1',
        roles: ['consumer'],
      },
      OSLO,
    );
    const verification = await baseVerification(consumer, OCTOBER);
    expect(verification.map((r) => r.organisation.name)).toEqual(['RU2']);
    expect(await priceAreaBalances(consumer, OCTOBER)).toEqual([]);
    expect(
      await settlementHourly(consumer, {
        ...OCTOBER,
        organisation: ids['RU1']!,
        priceArea: ids['NO1']!,
        category: 'metered',
      }),
    ).toEqual([]);
  });

  it('settles the day per organisation and price area, limited to its refs, and says when energy was allocated after pricing', async () => {
    const settled = await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
    expect(settled).toMatchObject({ lines: 3, unbalancedHours: 0, supplyChanged: null });
    const lines = await settlementLines(ctx(), resultId);
    expect(
      lines.map((l) => [l.priceArea.name, l.organisation.name, l.supplyEnergy, Number(l.supplyCost.toFixed(2))]),
    ).toEqual([
      ['NO1', 'RU1', 44, 25.3],
      ['NO1', 'RU2', 76, 37.95],
      ['NO2', 'RU1', 18, 8.28],
    ]);
    // Settled consumption of a settlement result: what it billed (RU1 44 + 18 = 62, RU2 76).
    const consumption = await findSettledConsumption(ctx(), [resultId]);
    expect(consumption.map((c) => [c.organisation.uuid, c.totalSettledConsumption]).sort()).toEqual(
      [
        [ids['RU1'], 62],
        [ids['RU2'], 76],
      ].sort(),
    );
    // A consumer of RU2 (linked above) reads RU2's alone, as in the base verification (issue 17 item 3).
    const consumer = serviceContext(tenantExecutor(database, NORWAY), NORWAY, {
      username: 'consumer-1',
      roles: ['consumer'],
    });
    expect(
      (await findSettledConsumption(consumer, [resultId])).map((c) => [c.organisation.uuid, c.totalSettledConsumption]),
    ).toEqual([[ids['RU2'], 76]]);

    // Settling the day again replaces its lines; limited to RU2, only RU2's line.
    expect(
      await settleDay(ctx(), DAY, {
        procedureResultId: resultId,
        refs: [{ uuid: ids['RU2']!, type: 'Organisation' }],
        currency: 'NOK',
      }),
    ).toMatchObject({
      lines: 1,
      unbalancedHours: 0,
    });
    expect((await settlementLines(ctx(), resultId)).map((l) => l.organisation.name)).toEqual(['RU2']);

    // Energy allocated after price-and-supply ran (combine ran again): the hour is not balanced.
    await insertAllocatedRecord(tenantDatabase(database, NORWAY), {
      tenant: NORWAY,
      consumptionPoint: randomUUID(),
      periodEnd: '2026-10-01T14:05:00Z',
      tractionUnit: randomUUID(),
      gridArea: ids['G1'],
      priceArea: ids['NO1'],
      consumed: 7,
      category: 'train-run',
      organisation: ids['RU1'],
      allocatedAt: new Date(Date.now() + 1000).toISOString(),
    });
    expect(await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' })).toMatchObject({
      lines: 3,
      unbalancedHours: 1,
    });
  });

  it('charges the contract’s grid and energy fees, tax and VAT on the supply energy, VAT last', async () => {
    // RU1 in NO1 on 1 October: supply 44 kWh = 0.044 MWh (the 14:05 record above has no balance yet,
    // so it is not priced or settled), energy cost 25.30 NOK.
    //   grid fee   0.044 x 100 (the version valid on 1 October)      =  4.40
    //   energy fee 0.044 x 2 EUR x 11.5 (the day's average rate)    =  1.012
    //   tax        0.044 x 10                                        =  0.44
    //   VAT        (25.30 + 4.40 + 1.012 + 0.44) x 25 % = 31.152 / 4 =  7.788
    //   total      31.152 + 7.788                                    = 38.94
    // RU2 and RU1 in NO2 have no contract: no charges, total = energy cost.
    const lines = await settlementLines(ctx(), resultId);
    const charges = lines.map((l) => [
      `${l.priceArea.name} ${l.organisation.name}`,
      ...[l.supplyCost, l.gridFeeCost, l.energyFeeCost, l.taxCost, l.vatCost, l.totalCost].map((x) =>
        Number(x.toFixed(4)),
      ),
    ]);
    expect(charges).toEqual([
      ['NO1 RU1', 25.3, 4.4, 1.012, 0.44, 7.788, 38.94],
      ['NO1 RU2', 37.95, 0, 0, 0, 0, 37.95],
      ['NO2 RU1', 8.28, 0, 0, 0, 0, 8.28],
    ]);
  });

  it('aggregates the day per consumption point and hour into a file per paying organisation in the data log', async () => {
    const result = await aggregateMeteredEnergy(ctx(), DAY, { aggregation: 'SECOND', tpa: false });
    expect(result.files.map((f) => [f.organisation, f.fileName, f.lines])).toEqual([
      // RU1: 10:05 and 10:10 (two points, hour 10:00), 11:30 (11:00) and 14:05 (14:00); RU2: 11:00 (10:00) and 12:05.
      ['RU1', 'MEA_RU1_2026-10-01_SECOND.csv', 4],
      ['RU2', 'MEA_RU2_2026-10-01_SECOND.csv', 2],
    ]);
    const [entry] = await rows<{ type: string; status: string; destination: string; text: string; bytes: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT message_type AS type, message_status AS status, destination, message_text AS text,
                 (SELECT convert_from(string_agg(p.bytes, ''::bytea ORDER BY p.part), 'UTF8')
                    FROM data_log_part p WHERE p.data_log_id = data_log.id) AS bytes
            FROM data_log WHERE id = ${result.files[1]!.dataLogId}`,
    );
    expect(entry).toMatchObject({
      type: 'METERED_ENERGY_AGGREGATION',
      status: 'OK',
      destination: 'RU2',
      text: 'Second aggregation of 2026-10-01: 2 hourly values',
    });
    const lines = entry!.bytes.trim().split('\n');
    expect(lines[0]).toBe('cpid;hourStart;hourEnd;activeConsumedKwh;activeRegeneratedKwh;netKwh');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(';').slice(1).join(';'))
        .sort(),
    ).toEqual([
      '2026-10-01T10:00:00Z;2026-10-01T11:00:00Z;60;0;60',
      '2026-10-01T12:00:00Z;2026-10-01T13:00:00Z;10;0;10',
    ]);
    // The Netherlands' TPA file holds every organisation's lines.
    const tpa = await aggregateMeteredEnergy(ctx(), DAY, { aggregation: 'FIRST', tpa: true });
    expect(tpa.files.at(-1)).toMatchObject({ organisation: 'TPA', fileName: 'MEA_TPA_2026-10-01_FIRST.csv', lines: 6 });
  });

  it('charges a fee with a price category only in its hours, and a public holiday counts as day 8', async () => {
    // EF2, 10 NOK/MWh, only at PEAK: Monday to Friday 12:00-13:00 in Oslo. 1 October 2026 is a
    // Thursday; RU1's NO1 energy lies in 10:00 UTC = 12:00 Oslo: 0.044 MWh x 10 = 0.44 more energy
    // fee (1.012 + 0.44 = 1.452); VAT (25.30 + 4.40 + 1.452 + 0.44) x 25 % = 7.898; total 39.49.
    const db = tenantDatabase(database, NORWAY);
    const add = (type: string, name: string, attributes: Record<string, unknown>) =>
      insertEntity(db, NORWAY, type, name, attributes);
    const PEAK = await add('pricecategory', 'PEAK', {});
    await add('pricecategorytimeinterval', 'PEAK weekdays', {
      priceCategoryRef: PEAK,
      daysOfWeek: [1, 2, 3, 4, 5],
      fromTime: '12:00',
      toTime: '13:00',
    });
    const EF2 = await add('energyfeetype', 'EF2', { price: 10, currency: 'NOK', priceCategoryRef: PEAK });
    await db.query(
      `UPDATE entity_segment SET attributes = jsonb_set(attributes, '{energyFeeTypeRefs}', attributes -> 'energyFeeTypeRefs' || to_jsonb($2::text))
        WHERE entity_uuid = $1`,
      [ids['C-RU1-NO1'], EF2],
    );
    const ru1 = async () => {
      await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
      const line = (await settlementLines(ctx(), resultId)).find(
        (l) => l.organisation.name === 'RU1' && l.priceArea.name === 'NO1',
      )!;
      return [line.energyFeeCost, line.vatCost, line.totalCost].map((x) => Number(x.toFixed(4)));
    };
    expect(await ru1()).toEqual([1.452, 7.898, 39.49]);
    // A public holiday on 1 October: day 8, not a weekday, so PEAK does not apply.
    await add('publicholiday', 'Holiday', { date: '2026-10-01' });
    expect(await ru1()).toEqual([1.012, 7.788, 38.94]);
  });

  it('taxes energy at the tax category’s rate in the grid area’s tax area, else at its own rate', async () => {
    // G1 lies in tax area NORTH, where TX is 4 NOK/MWh instead of 10: RU1's 0.044 MWh in G1 pay
    // 0.176 tax; VAT (25.30 + 4.40 + 1.012 + 0.176) x 25 % = 7.722; total 38.61. G2 has no tax area.
    const db = tenantDatabase(database, NORWAY);
    const NORTH = await insertEntity(db, NORWAY, 'taxarea', 'NORTH');
    const setAttribute = (uuid: string, key: string, value: unknown) =>
      db.query(
        `UPDATE entity_segment SET attributes = jsonb_set(attributes, $2::text[], $3::jsonb) WHERE entity_uuid = $1`,
        [uuid, [key], JSON.stringify(value)],
      );
    await setAttribute(ids['G1']!, 'taxAreaRef', NORTH);
    await setAttribute(ids['TX']!, 'taxAreaRates', [{ taxAreaRef: NORTH, rate: 4 }]);
    await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
    const line = (await settlementLines(ctx(), resultId)).find(
      (l) => l.organisation.name === 'RU1' && l.priceArea.name === 'NO1',
    )!;
    expect([line.taxCost, line.vatCost, line.totalCost].map((x) => Number(x.toFixed(4)))).toEqual([
      0.176, 7.722, 38.61,
    ]);
    // Another tax area's rate does not apply to G1.
    await setAttribute(ids['TX']!, 'taxAreaRates', [{ taxAreaRef: randomUUID(), rate: 4 }]);
    await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
    const again = (await settlementLines(ctx(), resultId)).find(
      (l) => l.organisation.name === 'RU1' && l.priceArea.name === 'NO1',
    )!;
    expect(Number(again.taxCost.toFixed(4))).toBe(0.44);
  });

  it('tells a supply of 0 kWh from a missing one', async () => {
    // G1 at 12:00 had no supply value (RU2's 10 kWh: 'supply-missing'); a measured 0 is a supply:
    // the hour's losses are 0 - 10 = -10 ('supply-lower-than-allocated'). Only 14:00 (RU1's 7 kWh
    // allocated in an earlier test) still lacks supply.
    await tenantDatabase(database, NORWAY).query(
      `INSERT INTO time_series_value (tenant, series_id, start_time, value, quality)
       SELECT $1, ts.id, '2026-10-01T12:00:00Z', 0, 127 FROM time_series ts
        WHERE ts.tenant = $1 AND ts.type_name = 'supply_energy' AND ts.entity_uuid = $2`,
      [NORWAY, ids['S1']],
    );
    const result = await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    expect(result.events['supply-missing']).toEqual({ incidents: 1, examples: ['G1 14:00Z'] });
    expect(result.events['supply-lower-than-allocated']).toEqual({
      incidents: 2,
      examples: ['G2 11:00Z', 'G1 12:00Z'],
    });
    // NO1: supply 110 + 0, metered 100 + 10 + 7, losses 10 - 10 (14:00 has none): 110 - 117 - 0 = -7.
    const [no1] = await priceAreaBalances(ctx(), OCTOBER);
    expect(no1).toMatchObject({ hoursWithoutSupply: 1, lossesEnergy: 0, difference: -7 });
  });

  it('reads metering points and grid areas as they were at each hour: a move keeps the earlier hours where they were', async () => {
    await priceAndSupply(
      ctx(),
      { start: '2026-10-05T00:00:00Z', end: '2026-10-06T00:00:00Z' },
      { lossSharePercent: 100 },
    );
    const balances = await rows<{ key: string; supply: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT g.name || ' ' || to_char(b.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || ' ' || p.name AS key,
                 b.supply_kwh::text AS supply
            FROM supply_balance b
            JOIN entity_latest g ON g.entity_uuid = b.grid_area_uuid
            JOIN entity_latest p ON p.entity_uuid = b.price_area_uuid
           WHERE b.hour_start >= '2026-10-05T00:00:00Z' AND b.hour_start < '2026-10-06T00:00:00Z'
           ORDER BY 1`,
    );
    expect(Object.fromEntries(balances.map((b) => [b.key, Number(b.supply)]))).toEqual({
      'G1 10:00 NO1': 7,
      'G2 13:00 NO2': 9,
      'G3 10:00 NO1': 3,
      'G3 13:00 NO2': 4,
    });
  });

  it('names the lines billed without a contract, and says when supply changed after price-and-supply priced the day', async () => {
    // RU1 has a contract in NO1 alone (C-RU1-NO1); RU2 has none: their lines bill energy without
    // fees, tax and VAT, and the result names them (the procedure's 'contract-missing' event).
    await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    const settled = await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
    expect(settled.missingContracts).toEqual([
      { organisation: 'RU1', priceArea: 'NO2' },
      { organisation: 'RU2', priceArea: 'NO1' },
    ]);
    expect(settled.supplyChanged).toBeNull();
    const before = await settlementWarnings(ctx(), resultId);
    expect(before.missingContracts.map((m) => [m.organisation.name, m.priceArea.name, m.days])).toEqual([
      ['RU2', 'NO1', 1],
      ['RU1', 'NO2', 1],
    ]);
    expect(before.supplyChanged).toBeNull();
    // The result started before price-and-supply ran (beforeAll): its figures may not be these prices.
    expect(before.repricedAfterSettlement).not.toBeNull();

    // A corrected supply file for 10:00 after the day was priced: the store keeps the new value
    // (stored now) and the replaced one (superseded now), as modules/timeseries/store.ts does.
    const db = tenantDatabase(database, NORWAY);
    const [log] = await db.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name)
       VALUES ($1, 'TIMESERIES_IMPORT', 'OK', 'supply-corrected.csv') RETURNING id`,
      [NORWAY],
    );
    await db.query(
      `WITH old AS (
         DELETE FROM time_series_value v USING time_series ts
          WHERE v.series_id = ts.id AND ts.tenant = $1 AND ts.type_name = 'supply_energy' AND ts.entity_uuid = $2
            AND v.start_time = '2026-10-01T10:00:00Z'
         RETURNING v.*
       ), kept AS (
         INSERT INTO time_series_value_superseded (tenant, series_id, start_time, value, quality, data_log_id, stored_at,
                                                   superseded_by_data_log_id, superseded_by)
         SELECT tenant, series_id, start_time, value, quality, data_log_id, stored_at, $3, 'test' FROM old
         RETURNING series_id
       )
       INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id, stored_at)
       SELECT $1, series_id, '2026-10-01T10:00:00Z', 120, 127, $3, clock_timestamp() FROM kept`,
      [NORWAY, ids['S1'], log!.id],
    );
    const stale = await settleDay(ctx(), DAY, { procedureResultId: resultId, refs: [], currency: 'NOK' });
    expect(stale.supplyChanged).toMatchObject({
      values: 2,
      changes: [
        { typeName: 'supply_energy', identifier: `supply_energy-${ids['S1']}-PT1H`, fileName: 'supply-corrected.csv' },
      ],
    });
    const after = await settlementWarnings(ctx(), resultId);
    expect(after.supplyChanged).toMatchObject({ values: 2 });
    expect(Date.parse(after.supplyChanged!.changedAt)).toBeGreaterThan(Date.parse(after.supplyChanged!.pricedAt));
    // A consumer is not told about supply (every organisation's), only its own lines.
    const consumer = serviceContext(tenantExecutor(database, NORWAY), NORWAY, {
      username: 'consumer-1',
      roles: ['consumer'],
    });
    const own = await settlementWarnings(consumer, resultId);
    expect(own.supplyChanged).toBeNull();
    expect(own.missingContracts.map((m) => m.organisation.name)).toEqual(['RU2']);

    // price-and-supply again: the day's prices read the corrected supply, nothing is stale.
    await priceAndSupply(ctx(), DAY, { lossSharePercent: 100 });
    expect((await settlementWarnings(ctx(), resultId)).supplyChanged).toBeNull();
    // Another procedure's result is not a settlement.
    const [other] = await db.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
       VALUES ($1, 'combine', 'success', '2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z', 'test') RETURNING id`,
      [NORWAY],
    );
    await expect(settlementWarnings(ctx(), Number(other!.id))).rejects.toThrow('is not a settlement result');
  });
});
