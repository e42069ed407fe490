import { procedureResultSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cebdXml } from '../../formats/cebd/generate.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { consumptionPointCpids } from '../../test/entities.js';
import { waitForIdle, waitForRun } from '../../test/jobs.js';

const RESPONSIBLE = 'settlement-area-responsible';
const DAY = { start: '2026-10-04T22:00:00Z', end: '2026-10-05T22:00:00Z' };

/** cebd-preprocessing as a user runs it: a CEBD upload, then POST /processing/cebd-preprocessing/run. */
describe('running cebd-preprocessing', () => {
  let t: TestApp;
  let cpid = '';
  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'], jobs: {} });
    [cpid] = (await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 1)) as [string];
    // 24 records (two hours) of one consumption point near Oslo S on 5 October 2026.
    const xml = [
      ...cebdXml({
        seed: 3,
        points: [
          {
            cpid,
            route: [
              { lat: 59.91, lon: 10.75 },
              { lat: 59.95, lon: 10.8 },
            ],
            start: '2026-10-05T06:00:00Z',
            periods: 24,
          },
        ],
      }),
    ].join('');
    // The file's day must not count as received too late whenever the test runs.
    await t.callAs('erex-administrator', {
      method: 'POST',
      url: '/api/exchange/cebdinput/save',
      payload: { maxDaysSinceObservation: 3650 },
    });
    const upload = await t.uploadAs(RESPONSIBLE, '/api/cebd/import', [{ fileName: 'day.xml', bytes: xml }]);
    expect(upload.statusCode).toBe(200);
    await waitForRun(t.database, upload.json<{ jobIds: string[] }>().jobIds[0]!);
    // The file is checked on arrival by a run of its own: the person's run below comes after it.
    await waitForIdle(t.database, t.areaUuid('norway'));
  }, 180_000);
  afterAll(async () => t?.close());

  it('validates and places every record of the day, one chunk per area day, and reports its codes as events', async () => {
    const stored = Number(
      (
        await t.allAreas.query<{ n: number }>(`SELECT count(*)::int AS n FROM cebd_record WHERE tenant = $1`, [
          t.areaUuid('norway'),
        ])
      )[0]!.n,
    );
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: DAY },
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = procedureResultSchema.parse(res.json());
    await waitForRun(t.database, result.jobId!);
    const [row] = await t.allAreas.query<{ status: string; message: string | null }>(
      `SELECT status, message FROM procedure_result WHERE id = $1`,
      [result.id],
    );
    expect(row?.status).toBe('success');
    const [preprocessed] = await t.allAreas.query<{ n: number; placed: number }>(
      `SELECT count(*)::int AS n, count(grid_area_uuid)::int AS placed FROM cebd_record
        WHERE tenant = $1 AND codes IS NOT NULL`,
      [t.areaUuid('norway')],
    );
    expect(stored).toBe(24);
    expect(preprocessed?.n).toBe(24);
    // Near Oslo S: inside the demo grid areas of NO1.
    expect(preprocessed?.placed).toBe(24);
    // Every code found is one event of this run, its incidents the records with the code.
    const events = await t.allAreas.query<{ error_code: string; incidents: number }>(
      `SELECT error_code, incidents FROM processing_event WHERE procedure_result_id = $1`,
      [result.id],
    );
    const codes = await t.allAreas.query<{ code: number; n: number }>(
      `SELECT c AS code, count(*)::int AS n FROM cebd_record, unnest(codes) AS c WHERE tenant = $1 GROUP BY c`,
      [t.areaUuid('norway')],
    );
    expect(Object.fromEntries(events.map((e) => [e.error_code, Number(e.incidents)]))).toEqual(
      Object.fromEntries(codes.map((c) => [String(c.code), c.n])),
    );
  });
});
