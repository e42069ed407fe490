import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The shuntingandstabling report (docs/reports.md "shuntingandstabling") ordered through POST
 * /processing/tasks/shuntingandstabling on allocation sums of known figures: the shunting-and-stabling
 * hours summed per paying organisation, unit and Oslo day, train-run energy and other months left
 * out, and a consumer sees what its own organisation pays only.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const CONSUMER = 'consumer';

describe('shuntingandstabling report', () => {
  let t: TestApp;
  let tenant = '';
  let unit = { uuid: '', name: '', point: '' };
  let organisations: { uuid: string; name: string }[] = [];

  const order = async (username: string) => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: '/api/processing/tasks/shuntingandstabling?year=2026&month=OCTOBER',
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
    const [found] = await t.allAreas.query<{ uuid: string; name: string; point: string }>(
      `SELECT tu.entity_uuid AS uuid, tu.name, cp.entity_uuid AS point
         FROM entity_latest cp JOIN entity_latest tu ON tu.entity_uuid = cp.unit_uuid
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' ORDER BY cp.name LIMIT 1`,
      [tenant],
    );
    unit = found!;
    organisations = await t.allAreas.query<{ uuid: string; name: string }>(
      `SELECT entity_uuid AS uuid, name FROM entity_latest WHERE tenant = $1 AND type = 'organisation' ORDER BY name LIMIT 2`,
      [tenant],
    );
    expect(organisations).toHaveLength(2);
    const [a, b] = [organisations[0]!, organisations[1]!];
    // [hour start (UTC), category, payer organisation, consumed, regenerated, records]
    const sums: [string, string, string, number, number, number][] = [
      ['2026-10-01T08:00:00Z', 'shunting-and-stabling', a.uuid, 3.5, 0.5, 12],
      ['2026-10-01T09:00:00Z', 'shunting-and-stabling', a.uuid, 2.25, 0, 6],
      // 00:00-01:00 on 2 October in Oslo.
      ['2026-10-01T22:00:00Z', 'shunting-and-stabling', a.uuid, 1, 0.25, 4],
      ['2026-10-01T10:00:00Z', 'shunting-and-stabling', b.uuid, 8, 1, 12],
      // Train-run energy and September: left out.
      ['2026-10-01T11:00:00Z', 'train-run', a.uuid, 100, 0, 12],
      ['2026-09-30T21:00:00Z', 'shunting-and-stabling', a.uuid, 50, 0, 12],
    ];
    for (const [hour, category, organisation, consumed, regenerated, records] of sums)
      await t.allAreas.query(
        `INSERT INTO allocated_energy_hourly (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid,
                                              traction_unit_uuid, active_consumed, active_regenerated, records,
                                              first_period_end, last_period_end)
         VALUES ($1, $2, $3, $4, 'ru', $5, $6, $7, $8, $9, $2::timestamptz + interval '5 minutes',
                 $2::timestamptz + interval '1 hour')`,
        [tenant, hour, category, organisation, unit.point, unit.uuid, consumed, regenerated, records],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('sums the shunting and stabling energy per organisation, unit and Oslo day', async () => {
    const [header, ...body] = await order(RESPONSIBLE);
    expect(header).toEqual([
      'Organisation',
      'Traction unit',
      'Day',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Net energy (kWh)',
      'Records',
    ]);
    const [a, b] = [organisations[0]!, organisations[1]!];
    expect(body).toEqual([
      [a.name, unit.name, '2026-10-01', '5.7500', '0.5000', '5.2500', '18'],
      [a.name, unit.name, '2026-10-02', '1.0000', '0.2500', '0.7500', '4'],
      [b.name, unit.name, '2026-10-01', '8.0000', '1.0000', '7.0000', '12'],
    ]);
  });

  it('shows a consumer what its own organisation pays only', async () => {
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      tenant,
      CONSUMER,
      organisations[1]!.uuid,
    ]);
    const [, ...own] = await order(CONSUMER);
    expect(own).toEqual([[organisations[1]!.name, unit.name, '2026-10-01', '8.0000', '1.0000', '7.0000', '12']]);
    // Naming another's organisation is refused.
    const other = await t.callAs(CONSUMER, {
      method: 'POST',
      url: '/api/processing/tasks/shuntingandstabling?year=2026&month=10',
      payload: { format: 'csv', refs: [{ uuid: organisations[0]!.uuid, type: 'Organisation' }] },
    });
    expect(other.statusCode, other.body).toBe(403);
  });
});
