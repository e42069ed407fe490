import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { insertEntity } from '../../test/entities.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { insertAllocatedRecord } from '../allocation/fixtures.js';
import { rows } from '../domain/sql.js';
import { combine, withdrawSilentRunEvents } from './combine.js';
import { preprocessTrainRuns } from './train-preprocessing.js';

const NORWAY = areaUuid('norway');
const FROM = '2020-01-01T00:00:00Z';
/** The area day 2026-10-01 in Oslo (UTC+2 in October): (22:00Z the day before, 22:00Z]. */
const DAY = { start: '2026-09-30T22:00:00Z', end: '2026-10-01T22:00:00Z', day: '2026-10-01' };
const LIMITS = { minGrossWeightPerVehicleTonnes: 10, maxGrossWeightPerVehicleTonnes: 200, maxDaysLate: 5 };

/**
 * A small fleet and day of train runs (Norway, times UTC):
 *   units U1 (EVN 947600000001, CP1), U2 (…0002, CP2), U3 (…0003, no consumption point),
 *   U4 (…0004, CP4; the runs were stored before U4 was registered: traction_unit_uuid NULL);
 *   railway undertakings RU-A, RU-B.
 *   R0  train 99  (operating day 09-30) RU-B U1       21:30 (09-30) - 22:30  crosses Oslo's midnight (22:00Z)
 *   R1  train 100 RU-A U1 + wagon 50 t             06:00 - 07:00
 *   R2  train 101 RU-B U1                          07:02 - 08:00
 *   R3  train 102 RU-A U2                          10:00 - 11:00  U2 sends nothing
 *   R4  train 103 RU-A wagon 250 t only            12:00 - 13:00  stored 10-10 (late)
 *   R5  train 104 RU-A EVN 947600000099 (unknown)  12:00 - 13:00
 *   R6  train 105 RU-A U4                          14:00 - 15:00  U4 consumes 0
 *   R7  train 106 RU-A U3                          06:30 - 07:30  overlaps RD (U3)
 *   RD  train 100 RU-B U3                          06:00 - 07:00  stored after R1: duplicate
 */
describe('train-preprocessing and combine', () => {
  let database: Database;
  const ids: Record<string, string> = {};
  const runIds: Record<string, number> = {};
  const ctx = () => serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, { timeZone: 'Europe/Oslo' });
  const at = (time: string) => new Date(`2026-10-01T${time}:00Z`).toISOString();

  const addEntity = async (key: string, type: string, attributes: Record<string, unknown>) => {
    const uuid = await insertEntity(database, NORWAY, type, key, attributes, { from: FROM });
    ids[key] = uuid;
    return uuid;
  };

  const addRun = async (
    key: string,
    run: { train: string; day?: string; ru: string; dep: string; arr: string; stored?: string },
    vehicles: { evn: string; unit?: string; weight?: number }[],
  ) => {
    const [row] = await database.query<{ id: string }>(
      `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                gross_tonne_km, data_log_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1000, 1, $8) RETURNING id`,
      [
        NORWAY,
        run.train,
        run.day ?? '2026-10-01',
        ids[run.ru],
        ids.TC,
        run.dep,
        run.arr,
        run.stored ?? '2026-10-01T23:00:00Z',
      ],
    );
    runIds[key] = Number(row!.id);
    for (const [i, v] of vehicles.entries()) {
      await database.query(
        `INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row!.id, NORWAY, i + 1, v.evn, v.unit ? ids[v.unit] : null, v.weight ?? 84],
      );
    }
  };

  /** A preprocessed record of `cp` whose period ends at `end`. */
  const record = async (
    cp: string,
    end: string,
    over: { kwh?: number; quality?: number; codes?: number[]; unit?: string | null } = {},
  ) =>
    database.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                                price_area_uuid, active_consumed, active_regenerated, reactive_consumed,
                                reactive_regenerated, quality, codes, checked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 1, 0, 0, $8, $9, now())`,
      [
        NORWAY,
        ids[cp],
        end,
        over.unit === null ? null : ids[over.unit ?? `U${cp.slice(2)}`],
        ids.GA,
        ids.PA,
        over.kwh ?? 10,
        over.quality ?? 127,
        over.codes ?? [],
      ],
    );
  /** Period ends every 5 minutes from `first` to `last` (inclusive), as ISO instants. */
  const every5 = (first: string, last: string) => {
    const out: string[] = [];
    for (let t = Date.parse(first); t <= Date.parse(last); t += 300_000) out.push(new Date(t).toISOString());
    return out;
  };

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    await database.query(
      `INSERT INTO data_log (id, tenant, message_type, message_status) VALUES (1, $1, 'TRAIN_RUN_INPUT', 'OK')`,
      [NORWAY],
    );
    await addEntity('RU-A', 'organisation', { orgId: 'RU-A' });
    await addEntity('RU-B', 'organisation', { orgId: 'RU-B' });
    await addEntity('TC', 'trafficcategory', {});
    await addEntity('GA', 'gridarea', {});
    await addEntity('PA', 'pricearea', {});
    for (const n of [1, 2, 3]) await addEntity(`U${n}`, 'tractionunit', { evn: `94760000000${n}` });
    for (const n of [1, 2])
      await addEntity(`CP${n}`, 'consumptionpoint', { cpid: `CP${n}`, tractionUnitRef: ids[`U${n}`] });
    await addEntity('CP5', 'consumptionpoint', { cpid: 'CP5' });

    await addRun(
      'R0',
      { train: '99', day: '2026-09-30', ru: 'RU-B', dep: '2026-09-30T21:30:00Z', arr: '2026-09-30T22:30:00Z' },
      [{ evn: '947600000001', unit: 'U1' }],
    );
    await addRun(
      'R1',
      { train: '100', ru: 'RU-A', dep: at('06:00'), arr: at('07:00'), stored: '2026-10-01T08:00:00Z' },
      [
        { evn: '947600000001', unit: 'U1' },
        { evn: '317600000001', weight: 50 },
      ],
    );
    await addRun('R2', { train: '101', ru: 'RU-B', dep: at('07:02'), arr: at('08:00') }, [
      { evn: '947600000001', unit: 'U1' },
    ]);
    await addRun('R3', { train: '102', ru: 'RU-A', dep: at('10:00'), arr: at('11:00') }, [
      { evn: '947600000002', unit: 'U2' },
    ]);
    await addRun(
      'R4',
      { train: '103', ru: 'RU-A', dep: at('12:00'), arr: at('13:00'), stored: '2026-10-10T00:00:00Z' },
      [{ evn: '317600000002', weight: 250 }],
    );
    await addRun('R5', { train: '104', ru: 'RU-A', dep: at('12:00'), arr: at('13:00') }, [{ evn: '947600000099' }]);
    await addRun('R6', { train: '105', ru: 'RU-A', dep: at('14:00'), arr: at('15:00') }, [{ evn: '947600000004' }]);
    await addRun('R7', { train: '106', ru: 'RU-A', dep: at('06:30'), arr: at('07:30') }, [
      { evn: '947600000003', unit: 'U3' },
    ]);
    await addRun(
      'RD',
      { train: '100', ru: 'RU-B', dep: at('06:00'), arr: at('07:00'), stored: '2026-10-01T09:00:00Z' },
      [{ evn: '947600000003', unit: 'U3' }],
    );
    // U4 registered after the runs were stored (their vehicle has no unit): the fleet knows it now.
    await addEntity('U4', 'tractionunit', { evn: '947600000004' });
    await addEntity('CP4', 'consumptionpoint', { cpid: 'CP4', tractionUnitRef: ids.U4 });

    // CP1 (U1): 22:05 .. 22:40 (09-30) and 05:55 .. 08:10, 10 kWh each; 06:30 with code 58
    // (allocated all the same), 07:30 of quality 61; 09:05 with code 59 (not allocatable).
    for (const end of every5('2026-09-30T22:05:00Z', '2026-09-30T22:40:00Z')) await record('CP1', end);
    for (const end of every5(at('05:55'), at('08:10'))) {
      await record('CP1', end, end === at('06:30') ? { codes: [58] } : end === at('07:30') ? { quality: 61 } : {});
    }
    await record('CP1', at('09:05'), { codes: [59] });
    // CP4 (U4): 14:05 .. 15:00, 0 kWh consumed. CP5: master data missing (60, no unit).
    for (const end of every5(at('14:05'), at('15:00'))) await record('CP4', end, { kwh: 0 });
    await record('CP5', at('09:00'), { codes: [60], unit: null });
    // An allocation of another category in the chunk (replaced) and one the day before (kept).
    for (const end of [at('03:00'), '2026-09-30T21:00:00Z']) {
      await insertAllocatedRecord(database, {
        tenant: NORWAY,
        consumptionPoint: ids.CP1!,
        periodEnd: end,
        tractionUnit: ids.U1!,
        category: 'energy-outside-train-run',
        payer: 'vehicle-keeper',
      });
    }
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  it('checks the day’s train runs with the codes computed by hand', async () => {
    // Runs of operating day 10-01: R1 .. R7 and RD = 8 (R0 belongs to 09-30).
    // weight: R4 (250 t > 200). unknown EVN: R5 (…0099; R6's …0004 is U4 now). composition: R4 (no
    // tractive vehicle), R7 and RD (U3 in both, 06:30-07:00 overlap). duplicate: RD (train 100 of
    // RU-A stored 08:00, RU-B's at 09:00). late: R4 (stored 10-10 > 10-01 22:00Z + 5 days).
    const result = await preprocessTrainRuns(ctx(), DAY.day, LIMITS);
    expect(result.runs).toBe(8);
    expect(result.byCode).toEqual({
      'weight-outside-limits': { runs: 1, examples: ['103'] },
      'unknown-evn': { runs: 1, examples: ['104'] },
      'wrong-train-composition': { runs: 3, examples: ['100', '103', '106'] },
      'duplicate-train-run': { runs: 1, examples: ['100'] },
      'data-received-too-late': { runs: 1, examples: ['103'] },
    });
    const checks = await rows<{ id: string; codes: string[] }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT train_run_id::text AS id, codes FROM train_run_check ORDER BY train_run_id`,
    );
    const byRun = Object.fromEntries(checks.map((c) => [c.id, c.codes]));
    expect(byRun[runIds.R1!]).toEqual([]);
    expect(byRun[runIds.R4!]).toEqual(['weight-outside-limits', 'wrong-train-composition', 'data-received-too-late']);
    expect(byRun[runIds.RD!]).toEqual(['wrong-train-composition', 'duplicate-train-run']);
    expect(byRun[runIds.R0!]).toBeUndefined();
    // Again: the day's rows replaced, not added.
    await preprocessTrainRuns(ctx(), DAY.day, LIMITS);
    const [count] = await rows<{ n: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT count(*)::int AS n FROM train_run_check`,
    );
    expect(count!.n).toBe(8);
  });

  it('attaches each record to the run computed by hand, and replaces the chunk on a second run', async () => {
    // Allocatable records: CP1 8 (22:05-22:40) + 28 (05:55-08:10; 06:30's 58 does not stop it) = 36,
    // CP4 12 = 48 (CP1 09:05 has 59, CP5 has 60). Tolerance 5 minutes; a record's mid-point is
    // period end - 2.5 min.
    //   R0: 22:05 .. 22:35 (22:35's mid 22:32:30 < arrival + 5) = 7 records, 70 kWh, RU-B;
    //   R1: 06:00 (mid 05:57:30 >= 06:00 - 5) .. 07:00 (mid 06:57:30: inside R1, R2 only by tolerance) = 13, 130 kWh, RU-A;
    //   R2: 07:05 (mid 07:02:30: inside R2, R1 only by tolerance) .. 08:05 (mid 08:02:30 < 08:05) = 13, 130 kWh, RU-B;
    //   R6: CP4 14:05 .. 15:00 = 12, 0 kWh, RU-A (U4 by EVN: the vehicle row has no unit);
    //   unmatched: CP1 22:40 (mid 22:37:30 >= 22:35), 05:55 (mid 05:52:30 < 05:55), 08:10 = 3.
    // RD (train 100 of RU-B, a later duplicate) gets nothing. Attached: 7 + 13 + 13 + 12 = 45.
    const expected = {
      records: 48,
      attached: 45,
      runs: 4,
      events: {
        'match-energy-failed': { incidents: 3, examples: ['U1'] },
        // R3 departs in the day, U2 has CP2 and sent nothing during 10:00-11:00.
        'no-metered-data-received': { incidents: 1, examples: ['102'] },
        // CP1 07:30, attached to R2.
        'uncertain-quality-flag-61': { incidents: 1, examples: [] },
        // R6: 12 x 0 kWh.
        'energy-consumption-0': { incidents: 1, examples: ['105'] },
      },
    };
    expect(await combine(ctx(), DAY, { toleranceMinutes: 5 })).toEqual(expected);
    expect(await combine(ctx(), DAY, { toleranceMinutes: 5 })).toEqual(expected);

    const perRun = await rows<{
      run: string | null;
      category: string;
      payer: string;
      org: string | null;
      n: number;
      kwh: string;
      sums: number;
    }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT train_run_id::text AS run, category, payer, organisation_uuid::text AS org, sum(records)::int AS n,
                 sum(active_consumed)::text AS kwh, count(*)::int AS sums
            FROM allocated_energy_hourly GROUP BY 1, 2, 3, 4 ORDER BY 1`,
    );
    const name = Object.fromEntries(Object.entries(runIds).map(([k, v]) => [String(v), k]));
    const org = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    expect(
      perRun.map(
        (r) =>
          `${r.run ? name[r.run] : '-'} ${r.category} ${r.payer} ${r.org ? org[r.org] : '-'} ${r.n} ${Number(r.kwh)} ${r.sums}`,
      ),
    ).toEqual([
      // Records, kWh and sums (one per hour of the record's period: R0 22:05-22:35 all in 22:00;
      // R1 06:00 (the period 05:55-06:00) in 05:00, 06:05-07:00 in 06:00; R2 07:05-08:00 in 07:00,
      // 08:05 in 08:00; R6 14:05-15:00 in 14:00).
      `R0 train-run ru RU-B 7 70 1`,
      `R1 train-run ru RU-A 13 130 2`,
      `R2 train-run ru RU-B 13 130 2`,
      `R6 train-run ru RU-A 12 0 1`,
      // The sum of 09-30 21:00Z lies before the chunk and stays; the chunk's 03:00 one is gone.
      `- energy-outside-train-run vehicle-keeper - 1 0 1`,
    ]);
  });

  it('a wider tolerance reaches the records next to a run', async () => {
    // 10 minutes: 22:40 (mid 22:37:30 < 22:40) joins R0, 05:55 (mid 05:52:30 >= 05:50) joins R1,
    // 08:10 (mid 08:07:30 < 08:10) joins R2: nothing unmatched.
    const result = await combine(ctx(), DAY, { toleranceMinutes: 10 });
    expect(result.attached).toBe(48);
    expect(result.events['match-energy-failed']).toBeUndefined();
  });

  it('withdraws the no-metered-data events earlier runs recorded for the day once a later run attached the records', async () => {
    // Issue 18 item 5: combine ran for 1 October before its CEBD arrived (result A: 'No metered data
    // received' for train 102); the CEBD came, combine ran again (result B). A's event of the day is
    // withdrawn (LOW, no incidents, saying which result withdrew it); A's event of another day, and
    // B's own, stay.
    const db = tenantExecutor(database, NORWAY);
    const result = async () =>
      Number(
        (
          await rows<{ id: number }>(
            db,
            sql`INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
                VALUES (${NORWAY}::uuid, 'combine', 'success', ${DAY.start}::timestamptz, ${DAY.end}::timestamptz, 'test')
                RETURNING id`,
          )
        )[0]!.id,
      );
    const event = async (resultId: number, time: string) =>
      Number(
        (
          await rows<{ id: number }>(
            db,
            sql`INSERT INTO processing_event (tenant, procedure_result_id, chunk_start, process_name, error_code, severity,
                                              incidents, message, event_time)
                VALUES (${NORWAY}::uuid, ${resultId}, ${time}::timestamptz, 'combine', 'no-metered-data-received', 'HIGH', 1,
                        'No metered data received: 1 train runs (102)', ${time}::timestamptz)
                RETURNING id`,
          )
        )[0]!.id,
      );
    const a = await result();
    const aToday = await event(a, DAY.start);
    const aOtherDay = await event(a, '2026-10-01T22:00:00Z');
    const b = await result();
    const bToday = await event(b, DAY.start);

    expect(await withdrawSilentRunEvents(ctx(), DAY, { procedureResultId: b, stillSilent: 0 })).toBe(1);
    const found = await rows<{ id: number; severity: string; incidents: number; message: string }>(
      db,
      sql`SELECT id::int AS id, severity, incidents, message FROM processing_event
           WHERE id = ANY(${sql.param([aToday, aOtherDay, bToday])}::bigint[]) ORDER BY id`,
    );
    expect(found).toEqual([
      {
        id: aToday,
        severity: 'LOW',
        incidents: 0,
        message: `Withdrawn by combine result ${b}: the records of 2026-10-01 are attached. No metered data received: 1 train runs (102)`,
      },
      { id: aOtherDay, severity: 'HIGH', incidents: 1, message: 'No metered data received: 1 train runs (102)' },
      { id: bToday, severity: 'HIGH', incidents: 1, message: 'No metered data received: 1 train runs (102)' },
    ]);
    // A later run withdraws B's event in turn; A's, withdrawn already, is left as it is.
    expect(await withdrawSilentRunEvents(ctx(), DAY, { procedureResultId: b + 1, stillSilent: 1 })).toBe(1);
  });
});
