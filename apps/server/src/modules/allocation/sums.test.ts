import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantDatabase, tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { insertEntity } from '../../test/entities.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { combine } from '../processing/combine.js';
import { settlementRecords } from '../settlement/service.js';
import { allocateEnergyOutsideTrainRun } from './energy-outside-train-run.js';
import { allocateShuntingAndStabling } from './shunting-and-stabling.js';
import { checkedRecords, inSum } from '../processing/allocated-energy.js';

const NORWAY = areaUuid('norway');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z', day: '2026-10-01' };
const at = (hhmm: string) => `2026-10-01T${hhmm}:00.000Z`;

/**
 * Issue 19 item 3: the allocation keeps hourly sums, not a row per record, and a settled hour still
 * leads to its 5-minute records and files. One unit (owner K) meters every 5 minutes of 1 October
 * (288 records, 10 kWh consumed and 1 regenerated each, grid area G, file F); the record ending
 * 12:00 has code 59 (not allocatable). Runs of the unit: R1 RU1 06:00-08:00, R2 RU1 12:30-13:30,
 * R3 RU2 18:00-19:00. combine (tolerance 5), shunting-and-stabling (60 minutes) and
 * energy-outside-train-run (300 minutes) then give every allocatable record a payer: before 05:00
 * nobody ran, so the keeper K pays.
 */
describe('allocation as hourly sums', () => {
  let database: Database;
  const ids: Record<string, string> = {};
  let trainLog = 0;
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR);

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    const entity = async (key: string, type: string, attributes: Record<string, unknown> = {}) =>
      (ids[key] = await insertEntity(database, NORWAY, type, key, attributes));
    await entity('RU1', 'organisation', { orgId: 'RU1' });
    await entity('RU2', 'organisation', { orgId: 'RU2' });
    await entity('K', 'organisation', { orgId: 'K' });
    await entity('P', 'pricearea');
    await entity('G', 'gridarea', { priceAreaRef: ids.P });
    await entity('TC', 'trafficcategory');
    await entity('U', 'tractionunit', { evn: '900000000001', owner: ids.K });
    await entity('CP', 'consumptionpoint', { cpid: 'CP', tractionUnitRef: ids.U });
    const [file] = await database.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name)
       VALUES ($1, 'CEBD_IMPORT', 'OK', 'cebd-2026-10-01.xml') RETURNING id`,
      [NORWAY],
    );
    const [trains] = await database.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status) VALUES ($1, 'TRAIN_RUN', 'OK') RETURNING id`,
      [NORWAY],
    );
    trainLog = Number(trains!.id);
    for (const [key, ru, departure, arrival] of [
      ['R1', 'RU1', '06:00', '08:00'],
      ['R2', 'RU1', '12:30', '13:30'],
      ['R3', 'RU2', '18:00', '19:00'],
    ] as const) {
      const [run] = await database.query<{ id: number }>(
        `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                gross_tonne_km, data_log_id)
         VALUES ($1, $2, '2026-10-01', $3, $4, $5, $6, 100, $7) RETURNING id`,
        [NORWAY, key, ids[ru], ids.TC, at(departure), at(arrival), trains!.id],
      );
      await database.query(
        `INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
         VALUES ($1, $2, 1, '900000000001', $3, 80)`,
        [run!.id, NORWAY, ids.U],
      );
    }
    // The record table's fixture (processing/allocated-energy.ts checkedRecords): 288 records, 12:00 with code 59.
    await database.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                                price_area_uuid, active_consumed, active_regenerated, reactive_consumed,
                                reactive_regenerated, quality, checked_at, codes, data_log_id)
       SELECT $1, $2, p, $3, $4, $5, 10, 1, 0, 0, 127, now(),
              CASE WHEN p = '2026-10-01T12:00:00Z'::timestamptz THEN '{59}'::smallint[] ELSE '{}' END, $6
         FROM generate_series('2026-10-01T00:05:00Z'::timestamptz, '2026-10-02T00:00:00Z', interval '5 minutes') AS p`,
      [NORWAY, ids.CP, ids.U, ids.G, ids.P, file!.id],
    );
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  const allocate = async () => {
    await combine(ctx(), DAY, { toleranceMinutes: 5 });
    await allocateShuntingAndStabling(ctx(), DAY, { limitMinutes: 60, maxDaysLate: 0 });
    await allocateEnergyOutsideTrainRun(ctx(), DAY, { limitMinutes: 300 });
  };
  const figures = async () => {
    const [f] = await rows<{ sums: number; records: number; kwh: number; members: number; distinct: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT (SELECT count(*) FROM allocated_energy_hourly)::int AS sums,
                 (SELECT sum(records) FROM allocated_energy_hourly)::int AS records,
                 (SELECT sum(active_consumed - active_regenerated) FROM allocated_energy_hourly)::float8 AS kwh,
                 (SELECT count(*) FROM ${checkedRecords} p JOIN allocated_energy_hourly a ON ${inSum(sql`a`, sql`p`)})::int
                   AS members,
                 (SELECT count(DISTINCT p.period_end) FROM ${checkedRecords} p
                    JOIN allocated_energy_hourly a ON ${inSum(sql`a`, sql`p`)})::int AS distinct`,
    );
    return f!;
  };

  it('keeps far fewer rows than records, each allocatable record in exactly one sum, the energy unchanged', async () => {
    await allocate();
    const first = await figures();
    // 287 allocatable records (288 - the one with code 59), each 9 kWh net.
    expect(first).toMatchObject({ records: 287, kwh: 287 * 9, members: 287, distinct: 287 });
    // A sum per hour and payer: at most a few per hour, against 12 records an hour.
    expect(first.sums).toBeLessThan(287 / 4);
    // A chunk run again replaces its sums.
    await allocate();
    expect(await figures()).toEqual(first);
  });

  it('traces an hour of an organisation to its 5-minute records, their category, run and file', async () => {
    // RU1 in G, the hour 05:00-06:00: 05:05 .. 05:55 before R1 (shunting), 06:00 in R1 (its mid-point
    // 05:57:30 lies within the 5 minutes' tolerance: combine's).
    const hour = await settlementRecords(ctx(), {
      organisation: ids.RU1!,
      gridArea: ids.G!,
      hourStart: at('05:00'),
    });
    expect(hour.map((r) => [r.periodEnd.slice(11, 16), r.category, r.trainNumber])).toEqual([
      ...['05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'].map((m) => [
        `05:${m}`,
        'shunting-and-stabling',
        'R1',
      ]),
      ['06:00', 'train-run', 'R1'],
    ]);
    expect(new Set(hour.map((r) => r.fileName))).toEqual(new Set(['cebd-2026-10-01.xml']));
    expect(hour.every((r) => r.dataLogId !== null && r.consumptionPoint.uuid === ids.CP)).toBe(true);
    // The records add up to the hour's sums of RU1 in G.
    const [sum] = await rows<{ kwh: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT sum(active_consumed - active_regenerated)::float8 AS kwh FROM allocated_energy_hourly
           WHERE organisation_uuid = ${ids.RU1}::uuid AND grid_area_uuid = ${ids.G}::uuid
             AND hour_start = ${at('05:00')}::timestamptz`,
    );
    expect(hour.reduce((total, r) => total + r.activeConsumed - r.activeRegenerated, 0)).toBe(sum!.kwh);
    expect(sum!.kwh).toBe(12 * 9);
    // The hour of the record with code 59 (12:00): it is in no sum and never listed. 11:30 .. 11:55 lie
    // within 60 minutes of R2's departure at 12:30 (shunting); 11:05 .. 11:25 go to the RU of R1,
    // arrived at 08:00 (energy outside a train run, within 300 minutes).
    const noon = await settlementRecords(ctx(), {
      organisation: ids.RU1!,
      gridArea: ids.G!,
      hourStart: at('11:00'),
    });
    expect(noon.map((r) => [r.periodEnd.slice(11, 16), r.category, r.trainNumber])).toEqual([
      ...['05', '10', '15', '20', '25'].map((m) => [`11:${m}`, 'energy-outside-train-run', 'R1']),
      ...['30', '35', '40', '45', '50', '55'].map((m) => [`11:${m}`, 'shunting-and-stabling', 'R2']),
    ]);
    const keeper = await settlementRecords(ctx(), { organisation: ids.K!, gridArea: ids.G!, hourStart: at('02:00') });
    expect(keeper.map((r) => [r.category, r.trainNumber])).toEqual(
      Array.from({ length: 12 }, () => ['energy-outside-train-run', null]),
    );
  });

  it('writes the energy-outside sums again without the records a run reported late takes over', async () => {
    // R4: RU2, the unit, 03:00-03:30, reported after the day was allocated; shunting-and-stabling runs
    // again (a delayed task). 02:00 .. 04:30 lie within 60 minutes of R4: the keeper's sums of the
    // hours 01:00 .. 04:00 lose them (01:00 keeps 01:05 .. 01:55; 02:00 belongs to the hour 01:00).
    const db = tenantDatabase(database, NORWAY);
    const [run] = await db.query<{ id: number }>(
      `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                              gross_tonne_km, data_log_id)
       VALUES ($1, 'R4', '2026-10-01', $2, $3, $4, $5, 100, $6) RETURNING id`,
      [NORWAY, ids.RU2, ids.TC, at('03:00'), at('03:30'), trainLog],
    );
    await db.query(
      `INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
       VALUES ($1, $2, 1, '900000000001', $3, 80)`,
      [run!.id, NORWAY, ids.U],
    );
    const result = await allocateShuntingAndStabling(ctx(), DAY, { limitMinutes: 60, maxDaysLate: 0 });
    expect(await figures()).toMatchObject({ records: 287, kwh: 287 * 9, members: 287, distinct: 287 });
    const hour = async (organisation: string, hh: string) =>
      (await settlementRecords(ctx(), { organisation, gridArea: ids.G!, hourStart: at(hh) })).map(
        (r) => `${r.periodEnd.slice(11, 16)} ${r.category} ${r.trainNumber ?? '-'}`,
      );
    expect(await hour(ids.K!, '01:00')).toEqual(
      ['05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'].map(
        (m) => `01:${m} energy-outside-train-run -`,
      ),
    );
    expect(await hour(ids.RU2!, '01:00')).toEqual(['02:00 shunting-and-stabling R4']);
    expect(await hour(ids.K!, '02:00')).toEqual([]);
    // 04:35 .. 04:55 stay the keeper's until energy-outside-train-run runs again (the chain's next
    // step; it then gives them to R4's RU); 05:00 was R1's shunting already.
    expect(await hour(ids.K!, '04:00')).toEqual(
      ['35', '40', '45', '50', '55'].map((m) => `04:${m} energy-outside-train-run -`),
    );
    await allocateEnergyOutsideTrainRun(ctx(), DAY, { limitMinutes: 300 });
    expect(await hour(ids.K!, '04:00')).toEqual([]);
    expect(await figures()).toMatchObject({ records: 287, members: 287, distinct: 287 });
    expect(result.allocated).toBeGreaterThan(0);
  });
});
