import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The surveillancearea report (docs/reports.md "surveillancearea") ordered through POST
 * /processing/tasks/surveillancearea on records of known positions: a record counts in the areas
 * whose polygon holds it (a MultiPolygon's second part counts, its hole does not), per Oslo day;
 * records outside every area, unallocatable ones (code 59) and other months are left out, a
 * warning code (55) is not; a consumer may not order it.
 */
const RESPONSIBLE = 'settlement-area-responsible';

/** A closed square ring [lon, lat] from (x, y) with side d. */
const square = (x: number, y: number, d: number) => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

describe('surveillancearea report', () => {
  let t: TestApp;
  let tenant = '';

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    tenant = t.areaUuid('norway');
    // North: two squares, the first with a hole in its middle. South: one square.
    await insertEntity(t.allAreas, tenant, 'surveillancearea', 'Area North', {
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[square(10, 60, 2), square(10.5, 60.5, 1)], [square(20, 60, 1)]],
      },
    });
    await insertEntity(t.allAreas, tenant, 'surveillancearea', 'Area South', {
      geometry: { type: 'Polygon', coordinates: [square(10, 58, 1)] },
    });
    const [unitA, unitB] = [randomUUID(), randomUUID()];
    // [period end (UTC), unit, consumed, regenerated, lat, lon, codes]
    const records: [string, string, number, number, number, number, string][] = [
      ['2026-10-01T08:05:00Z', unitA, 10, 1, 60.2, 10.2, '{}'], // North, first part
      ['2026-10-01T08:10:00Z', unitA, 5, 0, 60.2, 10.2, '{55}'], // the same place, a warning only
      ['2026-10-01T08:15:00Z', unitB, 7, 2, 60.5, 20.5, '{}'], // North, second part
      ['2026-10-01T08:20:00Z', unitB, 100, 0, 61, 11, '{}'], // in North's hole
      ['2026-10-01T08:25:00Z', unitB, 100, 0, 50, 5, '{}'], // in no area
      ['2026-10-01T08:30:00Z', unitA, 100, 0, 60.2, 10.2, '{59}'], // unallocatable
      ['2026-10-01T22:05:00Z', unitA, 3, 0.5, 58.5, 10.5, '{}'], // South, 2 October in Oslo
      ['2026-11-01T08:05:00Z', unitA, 100, 0, 58.5, 10.5, '{}'], // November
    ];
    for (const [end, unit, consumed, regenerated, lat, lon, codes] of records)
      await t.allAreas.query(
        `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, active_consumed,
                                  active_regenerated, reactive_consumed, reactive_regenerated, quality, lat, lon,
                                  codes, checked_at)
         VALUES ($1, $2, $3, $2, $4, $5, 0, 0, 127, $6, $7, $8::smallint[], now())`,
        [tenant, unit, end, consumed, regenerated, lat, lon, codes],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('sums the records inside each surveillance area per day, by their position', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/tasks/surveillancearea?year=2026&month=OCTOBER',
      payload: { format: 'xml', zoneId: 'Europe/Oslo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    const rows = [...file.body.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
      Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1], c[2]])),
    );
    expect(rows).toEqual([
      {
        surveillanceArea: 'Area North',
        day: '2026-10-01',
        activeConsumed: '22.0000',
        activeRegenerated: '3.0000',
        netEnergy: '19.0000',
        records: '3',
        tractionUnitCount: '2',
      },
      {
        surveillanceArea: 'Area South',
        day: '2026-10-02',
        activeConsumed: '3.0000',
        activeRegenerated: '0.5000',
        netEnergy: '2.5000',
        records: '1',
        tractionUnitCount: '1',
      },
    ]);
  });

  it('is not the consumer’s to order', async () => {
    const res = await t.callAs('consumer', {
      method: 'POST',
      url: '/api/processing/tasks/surveillancearea?year=2026&month=10',
      payload: { format: 'csv' },
    });
    expect(res.statusCode).toBe(403);
  });
});
