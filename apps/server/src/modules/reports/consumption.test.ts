import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The consumption and 15minoverview reports (docs/reports.md) ordered through POST
 * /processing/tasks/{report} on CEBD records of known figures. consumption: checked valid records
 * summed per consumption point and Oslo day (the 5 minutes ending at local midnight belong to the day
 * before), unchecked and coded records left out, and a consumer sees the points of its own units
 * only. 15minoverview: every record as received, summed per quarter hour with its count and lowest
 * quality.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const CONSUMER = 'consumer';

describe('consumption and 15minoverview reports', () => {
  let t: TestApp;
  let tenant = '';
  let point = { uuid: '', cpid: '', unit: '', owner: '' };

  const order = async (
    username: string,
    named = true,
    report = 'consumption',
    extra: Record<string, unknown> = {},
    query = 'year=2026&month=OCTOBER',
  ) => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: `/api/processing/tasks/${report}?${query}`,
      payload: {
        format: 'csv',
        zoneId: 'Europe/Oslo',
        refs: named ? [{ uuid: point.uuid, type: 'ConsumptionPoint' }] : [],
        ...extra,
      },
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
    const [found] = await t.allAreas.query<{ uuid: string; cpid: string; unit: string; owner: string }>(
      `SELECT cp.entity_uuid AS uuid, cp.attributes ->> 'cpid' AS cpid, tu.name AS unit, tu.owner_uuid AS owner
         FROM entity_latest cp JOIN entity_latest tu ON tu.entity_uuid = cp.unit_uuid
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' AND tu.owner_uuid IS NOT NULL
        ORDER BY cp.name LIMIT 1`,
      [tenant],
    );
    point = found!;
    // [period end (UTC), active consumed, active regenerated, reactive consumed, checked, codes]
    const records: [string, number, number, number, boolean, string][] = [
      ['2026-10-01T10:05:00Z', 10, 1, 2, true, '{}'],
      ['2026-10-01T10:10:00Z', 12.5, 0.5, 3, true, '{}'],
      // Ends at Oslo midnight: still 1 October.
      ['2026-10-01T22:00:00Z', 7.25, 0, 1, true, '{}'],
      // 2 October.
      ['2026-10-01T22:05:00Z', 4, 2, 0.5, true, '{}'],
      // Not checked yet, and checked with a code: left out.
      ['2026-10-02T08:00:00Z', 100, 0, 0, false, '{}'],
      ['2026-10-02T08:05:00Z', 200, 0, 0, true, '{55}'],
      // September in Oslo: outside the month.
      ['2026-09-30T22:00:00Z', 50, 0, 0, true, '{}'],
    ];
    for (const [end, consumed, regenerated, reactive, checked, codes] of records)
      await t.allAreas.query(
        `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated,
                                  reactive_consumed, reactive_regenerated, quality, checked_at, codes)
         VALUES ($1, $2, $3, $4, $5, $6, 0, 127, CASE WHEN $7 THEN now() END, CASE WHEN $7 THEN $8::smallint[] END)`,
        [tenant, point.uuid, end, consumed, regenerated, reactive, checked, codes],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('sums the checked valid records per consumption point and Oslo day', async () => {
    const [header, ...body] = await order(RESPONSIBLE);
    expect(header).toEqual([
      'Consumption point',
      'Traction unit',
      'Day',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Net energy (kWh)',
      'Reactive energy consumed (kWh)',
      'Reactive energy regenerated (kWh)',
      'Records',
    ]);
    expect(body).toEqual([
      [point.cpid, point.unit, '2026-10-01', '29.7500', '1.5000', '28.2500', '6.0000', '0.0000', '3'],
      [point.cpid, point.unit, '2026-10-02', '4.0000', '2.0000', '2.0000', '0.5000', '0.0000', '1'],
    ]);
  });

  it('15minoverview: every record as received, summed per quarter hour', async () => {
    // An estimated record, not checked, in the first quarter: counted here, and its quality the lowest.
    await t.allAreas.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated,
                                reactive_consumed, reactive_regenerated, quality)
       VALUES ($1, $2, '2026-10-01T10:15:00Z', 0.75, 0, 0, 0.25, 56)`,
      [tenant, point.uuid],
    );
    const [header, ...body] = await order(RESPONSIBLE, true, '15minoverview');
    expect(header!.slice(2)).toEqual([
      'Period end',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Reactive energy consumed (kWh)',
      'Reactive energy regenerated (kWh)',
      'Records',
      'Lowest quality',
    ]);
    expect(body.map((r) => r.slice(2))).toEqual([
      ['2026-10-01T12:15:00+02:00', '23.2500', '1.5000', '5.0000', '0.2500', '3', '56'],
      ['2026-10-02T00:00:00+02:00', '7.2500', '0.0000', '1.0000', '0.0000', '1', '127'],
      ['2026-10-02T00:15:00+02:00', '4.0000', '2.0000', '0.5000', '0.0000', '1', '127'],
      ['2026-10-02T10:00:00+02:00', '100.0000', '0.0000', '0.0000', '0.0000', '1', '127'],
      ['2026-10-02T10:15:00+02:00', '200.0000', '0.0000', '0.0000', '0.0000', '1', '127'],
    ]);
    expect(new Set(body.map((r) => r[0]))).toEqual(new Set([point.cpid]));
  });

  it('accumulatedenergy: the unit’s net energy per Oslo month from September to October, and its running total', async () => {
    const [header, ...body] = await order(
      RESPONSIBLE,
      false,
      'accumulatedenergy',
      { refs: [], reportSpecificParameters: { toYear: 2026, toMonth: 10 } },
      'year=2026&month=SEPTEMBER',
    );
    expect(header).toEqual([
      'Traction unit',
      'Month',
      'Active energy consumed (kWh)',
      'Active energy regenerated (kWh)',
      'Net energy (kWh)',
      'Accumulated net energy (kWh)',
    ]);
    // September: the record ending at Oslo midnight of 1 October. October: the four checked valid records.
    expect(body).toEqual([
      [point.unit, '2026-09', '50.0000', '0.0000', '50.0000', '50.0000'],
      [point.unit, '2026-10', '33.7500', '3.5000', '30.2500', '80.2500'],
    ]);
    // A range running backwards is a 400.
    const backwards = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/tasks/accumulatedenergy?year=2026&month=10',
      payload: { format: 'csv', reportSpecificParameters: { toYear: 2026, toMonth: 9 } },
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('shows a consumer the points of its own units only', async () => {
    const [other] = await t.allAreas.query<{ uuid: string }>(
      `SELECT entity_uuid AS uuid FROM entity_latest WHERE tenant = $1 AND type = 'organisation' AND entity_uuid <> $2 LIMIT 1`,
      [tenant, point.owner],
    );
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      tenant,
      CONSUMER,
      other!.uuid,
    ]);
    // Another organisation's consumer: nothing of this unit.
    const [, ...none] = await order(CONSUMER, false);
    expect(none).toEqual([]);
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      tenant,
      CONSUMER,
      point.owner,
    ]);
    const [, ...own] = await order(CONSUMER, false);
    expect(own.map((r) => [r[2], r[5]])).toEqual([
      ['2026-10-01', '28.2500'],
      ['2026-10-02', '2.0000'],
    ]);
  });
});
