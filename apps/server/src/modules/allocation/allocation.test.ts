import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantDatabase, tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { allocateEnergyOutsideTrainRun } from './energy-outside-train-run.js';
import { insertAllocatedRecord, seedAllocationDay, type AllocationDay } from './fixtures.js';
import { allocateShuntingAndStabling } from './shunting-and-stabling.js';
import { checkedRecords, inSum } from '../processing/allocated-energy.js';

const NORWAY = areaUuid('norway');
const BELGIUM = areaUuid('belgium');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' };
/** Shunting: 60 minutes; late window 5 days; energy outside: 300 minutes. */
const SHUNTING = { limitMinutes: 60, maxDaysLate: 5 };
const OUTSIDE = { limitMinutes: 300 };
/** Before the late window closes (2026-10-02 00:00 + 60 min + 5 days = 2026-10-07T01:00Z), and after. */
const OPEN = new Date('2026-10-03T00:00:00Z');
const CLOSED = new Date('2026-10-07T01:00:00Z');

describe('shunting-and-stabling and energy-outside-train-run', () => {
  let database: Database;
  let day: AllocationDay;
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR);

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    day = await seedAllocationDay(tenantDatabase(database, NORWAY), NORWAY, DAY.start);
    // Another area's row in the same period: no run of Norway may touch it.
    await insertAllocatedRecord(database, {
      tenant: BELGIUM,
      consumptionPoint: randomUUID(),
      periodEnd: '2026-10-01T10:00:00Z',
      tractionUnit: randomUUID(),
      category: 'shunting-and-stabling',
    });
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  /**
   * Every Norway allocation as 'CP HH:MM' -> 'category|run|payer organisation|payer|kWh': each record
   * with the sum whose island holds it (the sums hold no record of their own). A record in two sums,
   * or sums counting records that are not there, fail here.
   */
  const allocations = async () => {
    const name: Record<string, string> = {};
    for (const [k, v] of Object.entries(day.ids)) name[v] = k;
    for (const [k, v] of Object.entries(day.runs)) name[`run${v}`] = k;
    const found = await rows<{
      cp: string;
      at: string;
      category: string;
      run: string | null;
      org: string | null;
      payer: string;
      kwh: string;
    }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT p.consumption_point_uuid AS cp, to_char(p.period_end AT TIME ZONE 'UTC', 'HH24:MI') AS at,
                 a.category, a.train_run_id::text AS run, a.organisation_uuid AS org, a.payer,
                 (p.active_consumed - p.active_regenerated)::text AS kwh
            FROM ${checkedRecords} p JOIN allocated_energy_hourly a ON ${inSum(sql`a`, sql`p`)}
           ORDER BY 1, p.period_end`,
    );
    const [sums] = await rows<{ records: number; kwh: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT coalesce(sum(records), 0)::int AS records,
                 coalesce(sum(active_consumed - active_regenerated), 0)::text AS kwh FROM allocated_energy_hourly`,
    );
    expect(new Set(found.map((r) => `${r.cp} ${r.at}`)).size).toBe(found.length);
    expect(sums).toEqual({
      records: found.length,
      kwh: String(found.reduce((total, r) => total + Number(r.kwh), 0)),
    });
    return Object.fromEntries(
      found.map((r) => [
        `${name[r.cp]} ${r.at}`,
        `${r.category}|${r.run ? (name[`run${r.run}`] ?? r.run) : '-'}|${r.org ? name[r.org] : '-'}|${r.payer}|${Number(r.kwh)}`,
      ]),
    );
  };
  const tasks = () =>
    rows<{ id: number; status: string; due: string; start: string; end: string; reason: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT id::int, status, to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS due,
                 to_char(period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS start,
                 to_char(period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS end, reason
            FROM delayed_task ORDER BY id`,
    );

  // Shunting, limit 60 minutes (distance: before departure, 0 inside, after arrival):
  //   CP1 05:30  R1 departs 06:00: 30 before         -> R1, RU1
  //   CP1 07:00  combine's (train-run)               -> untouched
  //   CP1 08:45  R1 arrived 08:00: 45 after          -> R1, RU1
  //   CP1 09:00  code 59                             -> not a candidate
  //   CP1 10:20  R1 +140, R2 (12:00) -100            -> beyond
  //   CP1 11:30  R2 departs 12:00: 30 before         -> R2, RU2
  //   CP1 13:30  R2 arrived 13:00: 30 after          -> R2, RU2
  //   CP1 16:30  inside Rx (superseded: ignored), R2 +210 -> beyond
  //   CP1 20:00  R2 +420                             -> beyond
  //   CP2 00:30  R3 arrived 22:00 the day before: +150 -> beyond
  //   CP2 23:00  R3 +1500                            -> beyond
  // Candidates 9 (11 records - 07:00 - 09:00), allocated 4, exceeded 9 - 4 = 5.
  const AFTER_SHUNTING = {
    'CP1 05:30': 'shunting-and-stabling|R1|RU1|ru|9',
    'CP1 07:00': 'train-run|R1|RU1|ru|9',
    'CP1 08:45': 'shunting-and-stabling|R1|RU1|ru|9',
    'CP1 11:30': 'shunting-and-stabling|R2|RU2|ru|9',
    'CP1 13:30': 'shunting-and-stabling|R2|RU2|ru|9',
  };
  // Energy outside, limit 300 minutes (the previous arrival at or before the record):
  //   CP1 10:20  R1 arrived 08:00: 140 <= 300       -> R1, RU1
  //   CP1 16:30  R2 arrived 13:00: 210 <= 300       -> R2, RU2
  //   CP1 20:00  R2 420 > 300                        -> keeper K of U1
  //   CP2 00:30  R3 arrived 22:00 the day before: 150 -> R3, RU2
  //   CP2 23:00  R3 1500 > 300, U2 has no owner     -> no payer
  // Records 5, to RU 3, to the keeper 1, no payer 1.
  const AFTER_OUTSIDE = {
    ...AFTER_SHUNTING,
    'CP1 10:20': 'energy-outside-train-run|R1|RU1|ru|9',
    'CP1 16:30': 'energy-outside-train-run|R2|RU2|ru|9',
    'CP1 20:00': 'energy-outside-train-run|-|K|vehicle-keeper|9',
    'CP2 00:30': 'energy-outside-train-run|R3|RU2|ru|9',
  };

  it('gives energy near a run of its unit to the run’s RU and records a delayed task while runs may still come', async () => {
    const result = await allocateShuntingAndStabling(ctx(), DAY, { ...SHUNTING, now: OPEN });
    expect(result).toEqual({
      records: 9,
      allocated: 4,
      exceeded: 5,
      delayedTask: { id: expect.any(Number), dueAt: '2026-10-07T01:00:00.000Z' },
    });
    expect(await allocations()).toEqual(AFTER_SHUNTING);
    const [task, ...more] = await tasks();
    expect(more).toEqual([]);
    expect(task).toMatchObject({
      status: 'waiting',
      due: '2026-10-07T01:00',
      start: '2026-10-01T00:00',
      end: '2026-10-02T00:00',
    });
    expect(task?.reason).toContain('5 of 9 records');
  });

  it('replaces its own rows and its waiting task when the chunk runs again', async () => {
    const before = await tasks();
    const again = await allocateShuntingAndStabling(ctx(), DAY, { ...SHUNTING, now: OPEN });
    expect({ ...again, delayedTask: null }).toEqual({ records: 9, allocated: 4, exceeded: 5, delayedTask: null });
    expect(await allocations()).toEqual(AFTER_SHUNTING);
    const after = await tasks();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before[0]!.id);
    // Another area's row of the same period is untouched.
    const [belgium] = await rows<{ n: number }>(
      tenantExecutor(database, BELGIUM),
      sql`SELECT count(*)::int AS n FROM allocated_energy_hourly`,
    );
    expect(belgium?.n).toBe(1);
  });

  it('gives the rest to the previous run’s RU within the limit, else to the vehicle keeper; counts the records without a payer', async () => {
    const result = await allocateEnergyOutsideTrainRun(ctx(), DAY, OUTSIDE);
    expect(result).toEqual({ records: 5, toRu: 3, toVehicleKeeper: 1, noPayer: 1 });
    expect(await allocations()).toEqual(AFTER_OUTSIDE);
    // Idempotent: the same chunk again writes the same rows.
    expect(await allocateEnergyOutsideTrainRun(ctx(), DAY, OUTSIDE)).toEqual(result);
    expect(await allocations()).toEqual(AFTER_OUTSIDE);
  });

  it('marks a started task done and records none once the late window has closed', async () => {
    await tenantDatabase(database, NORWAY).query(`UPDATE delayed_task SET status = 'started'`);
    const result = await allocateShuntingAndStabling(ctx(), DAY, { ...SHUNTING, now: CLOSED });
    expect(result.delayedTask).toBeNull();
    expect((await tasks()).map((t) => t.status)).toEqual(['done']);
  });

  it('takes over energy-outside rows when a run reported late brings them within the limit; combine’s rows stay', async () => {
    // R4: RU1, U1, 10:50 -> 11:10. 10:20 is 30 before it; 11:30 is 20 after it (R2's departure is 30 away).
    const r4 = await day.addRun(day.ids.RU1, day.ids.U1, 10 * 60 + 50, 11 * 60 + 10);
    const result = await allocateShuntingAndStabling(ctx(), DAY, { ...SHUNTING, now: CLOSED });
    // Candidates 9 (combine's row is the only one excluded), allocated 4 + 10:20 = 5.
    expect(result).toEqual({ records: 9, allocated: 5, exceeded: 4, delayedTask: null });
    const rowsNow = await allocations();
    expect(rowsNow['CP1 10:20']).toBe(`shunting-and-stabling|${r4}|RU1|ru|9`);
    expect(rowsNow['CP1 11:30']).toBe(`shunting-and-stabling|${r4}|RU1|ru|9`);
    expect(rowsNow['CP1 07:00']).toBe('train-run|R1|RU1|ru|9');
    // The next step then finds 4 records: 16:30, 20:00, CP2 00:30 and 23:00 as before.
    expect(await allocateEnergyOutsideTrainRun(ctx(), DAY, OUTSIDE)).toEqual({
      records: 4,
      toRu: 2,
      toVehicleKeeper: 1,
      noPayer: 1,
    });
  });
});
