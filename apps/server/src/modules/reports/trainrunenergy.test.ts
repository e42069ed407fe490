import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The trainrunenergy and totaltrainrunenergy reports (docs/reports.md) ordered through POST
 * /processing/tasks/{report} on allocation sums of known figures: train-run energy summed per run
 * and unit, and per run over its units; runs of another month and energy of another category left
 * out; a consumer sees the runs its own organisation pays for only.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const CONSUMER = 'consumer';

describe('train run energy reports', () => {
  let t: TestApp;
  let tenant = '';
  let units: { uuid: string; name: string; point: string }[] = [];
  let organisations: { uuid: string; name: string }[] = [];

  const order = async (username: string, report: string) => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: `/api/processing/tasks/${report}?year=2026&month=OCTOBER`,
      payload: { format: 'csv', zoneId: 'Europe/Oslo', language: 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(username, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    return file.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));
  };

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'], jobs: {} });
    tenant = t.areaUuid('norway');
    units = await t.allAreas.query<{ uuid: string; name: string; point: string }>(
      `SELECT DISTINCT ON (tu.name) tu.entity_uuid AS uuid, tu.name, cp.entity_uuid AS point
         FROM entity_latest cp JOIN entity_latest tu ON tu.entity_uuid = cp.unit_uuid
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' ORDER BY tu.name LIMIT 2`,
      [tenant],
    );
    organisations = await t.allAreas.query<{ uuid: string; name: string }>(
      `SELECT entity_uuid AS uuid, name FROM entity_latest WHERE tenant = $1 AND type = 'organisation' ORDER BY name LIMIT 2`,
      [tenant],
    );
    expect(units).toHaveLength(2);
    expect(organisations).toHaveLength(2);
    const [log] = await t.allAreas.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status) VALUES ($1, 'TRAIN_RUN', 'OK') RETURNING id`,
      [tenant],
    );
    const runs: Record<string, number> = {};
    // [train number, operating day, RU, departure (UTC)]
    for (const [train, day, ru, departure] of [
      ['101', '2026-10-01', organisations[0]!.uuid, '2026-10-01T08:00:00Z'],
      ['202', '2026-10-02', organisations[1]!.uuid, '2026-10-02T06:00:00Z'],
      ['909', '2026-09-30', organisations[0]!.uuid, '2026-09-30T06:00:00Z'],
    ] as const) {
      const [row] = await t.allAreas.query<{ id: number }>(
        `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                gross_tonne_km, data_log_id)
         VALUES ($1, $2, $3, $4, $4, $5, $5::timestamptz + interval '2 hours', 1000, $6) RETURNING id`,
        [tenant, train, day, ru, departure, log!.id],
      );
      runs[train] = Number(row!.id);
    }
    const [u1, u2] = [units[0]!, units[1]!];
    const [a, b] = [organisations[0]!.uuid, organisations[1]!.uuid];
    // [hour start (UTC), category, run, payer, unit, consumed, regenerated, records]
    const sums: [string, string, number, string, typeof u1, number, number, number][] = [
      ['2026-10-01T08:00:00Z', 'train-run', runs['101']!, a, u1, 5, 1, 12],
      ['2026-10-01T09:00:00Z', 'train-run', runs['101']!, a, u1, 4, 0, 12],
      ['2026-10-01T08:00:00Z', 'train-run', runs['101']!, a, u2, 3, 0.5, 12],
      ['2026-10-02T06:00:00Z', 'train-run', runs['202']!, b, u1, 10, 2, 12],
      // Shunting attributed by run 101, and the September run: left out.
      ['2026-10-01T10:00:00Z', 'shunting-and-stabling', runs['101']!, a, u1, 70, 0, 12],
      ['2026-09-30T06:00:00Z', 'train-run', runs['909']!, a, u1, 99, 0, 12],
    ];
    for (const [hour, category, run, payer, unit, consumed, regenerated, records] of sums)
      await t.allAreas.query(
        `INSERT INTO allocated_energy_hourly (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid,
                                              traction_unit_uuid, train_run_id, active_consumed, active_regenerated,
                                              records, first_period_end, last_period_end)
         VALUES ($1, $2, $3, $4, 'ru', $5, $6, $7, $8, $9, $10, $2::timestamptz + interval '5 minutes',
                 $2::timestamptz + interval '1 hour')`,
        [tenant, hour, category, payer, unit.point, unit.uuid, run, consumed, regenerated, records],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('trainrunenergy: the energy of each run per traction unit', async () => {
    const [header, ...body] = await order(RESPONSIBLE, 'trainrunenergy');
    expect(header).toEqual([
      'Operating day',
      'Train number',
      'Organisation',
      'Departure',
      'Arrival',
      'Traction unit',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Net energy (kWh)',
      'Records',
    ]);
    const [a, b] = [organisations[0]!.name, organisations[1]!.name];
    const run101 = ['2026-10-01', '101', a, '2026-10-01T10:00:00+02:00', '2026-10-01T12:00:00+02:00'];
    const run202 = ['2026-10-02', '202', b, '2026-10-02T08:00:00+02:00', '2026-10-02T10:00:00+02:00'];
    expect(body).toEqual([
      [...run101, units[0]!.name, '9.0000', '1.0000', '8.0000', '24'],
      [...run101, units[1]!.name, '3.0000', '0.5000', '2.5000', '12'],
      [...run202, units[0]!.name, '10.0000', '2.0000', '8.0000', '12'],
    ]);
  });

  it('totaltrainrunenergy: the energy of each run over its units', async () => {
    const [header, ...body] = await order(RESPONSIBLE, 'totaltrainrunenergy');
    expect(header!.slice(5)).toEqual([
      'Traction units',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Net energy (kWh)',
    ]);
    expect(body.map((r) => [r[1], ...r.slice(5)])).toEqual([
      ['101', '2', '12.0000', '1.5000', '10.5000'],
      ['202', '1', '10.0000', '2.0000', '8.0000'],
    ]);
  });

  it('shows a consumer the runs its own organisation pays for only', async () => {
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      tenant,
      CONSUMER,
      organisations[1]!.uuid,
    ]);
    const [, ...runs] = await order(CONSUMER, 'trainrunenergy');
    expect(runs.map((r) => [r[1], r[8]])).toEqual([['202', '8.0000']]);
    const [, ...totals] = await order(CONSUMER, 'totaltrainrunenergy');
    expect(totals.map((r) => [r[1], r[8]])).toEqual([['202', '8.0000']]);
  });
});
