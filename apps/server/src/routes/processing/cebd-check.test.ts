import { procedureResultPageSchema, procedureResultSchema, type ProcedureResult } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cebdXml } from '../../formats/cebd/generate.js';
import { startMonthEndRechecks } from '../../jobs/cebd-month-end.js';
import { procedureFollowUpJob } from '../../jobs/procedure-follow-up.js';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import { tenantExecutor } from '../../db/tenant.js';
import { startArrivalCheck } from '../../modules/processing/chain.js';
import { serviceContext } from '../../test/context.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForIdle, waitForRun } from '../../test/jobs.js';

const RESPONSIBLE = 'settlement-area-responsible';
const ADMIN = 'erex-administrator';
/** Area days of October 2026 in Oslo (UTC+2): the 5th, 6th, 7th and 8th. */
const D1 = { start: '2026-10-04T22:00:00.000Z', end: '2026-10-05T22:00:00.000Z' };
const D2 = { start: '2026-10-05T22:00:00.000Z', end: '2026-10-06T22:00:00.000Z' };
const D3 = { start: '2026-10-06T22:00:00.000Z', end: '2026-10-07T22:00:00.000Z' };
const D4 = { start: '2026-10-07T22:00:00.000Z', end: '2026-10-08T22:00:00.000Z' };
const OCTOBER = { start: '2026-09-30T22:00:00.000Z', end: '2026-10-31T23:00:00.000Z' };

const square = (x1: number, y1: number, x2: number, y2: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x1, y1],
      [x2, y1],
      [x2, y2],
      [x1, y2],
      [x1, y1],
    ],
  ],
});

interface Point {
  uuid: string;
  cpid: string;
}

/**
 * Checked on arrival and re-checked when master data change (issue 19 item 2), through the real
 * calls and jobs: a CEBD upload is checked by a system run of its own within seconds; a grid area
 * redrawn marks the days with records in its new validity; the month-end run re-checks only marked
 * days and days with unchecked records and clears the marks; a run from the run page re-checks all.
 */
describe('CEBD checked on arrival and re-checked when master data change', { timeout: 300_000 }, () => {
  let t: TestApp;
  let a: Point;
  let b: Point;
  let grid = '';
  const norway = () => t.areaUuid('norway');

  /** 24 records (06:00 - 08:00 UTC) of `point` on the area day `day`, near Oslo S. */
  const file = (point: Point, day: { start: string }) =>
    [
      ...cebdXml({
        seed: 11,
        points: [
          {
            cpid: point.cpid,
            route: [
              { lat: 59.91, lon: 10.75 },
              { lat: 59.95, lon: 10.8 },
            ],
            start: new Date(Date.parse(day.start) + 8 * 3_600_000).toISOString(),
            periods: 24,
          },
        ],
      }),
    ].join('');
  /** Uploads a file and waits for its import; answers its data-log entry and when the import ended. */
  const upload = async (name: string, xml: string) => {
    const res = await t.uploadAs(RESPONSIBLE, '/api/cebd/import', [{ fileName: name, bytes: xml }]);
    expect(res.statusCode, res.body).toBe(200);
    const run = await waitForRun(t.database, res.json<{ jobIds: string[] }>().jobIds[0]!, { timeoutMs: 120_000 });
    expect(run.status, run.message ?? '').toBe('success');
    return { dataLogId: run.dataLogId!, importedAt: Date.parse(run.finishedAt!) };
  };
  const results = () =>
    t.allAreas.query<{ id: number; name: string; status: string; options: Record<string, unknown> }>(
      `SELECT id::int AS id, procedure_name AS name, status, run_options AS options FROM procedure_result
        WHERE tenant = $1 ORDER BY id`,
      [norway()],
    );
  const idle = () => waitForIdle(t.database, norway());
  /** Per consumption point and area day: records, checked ones, and the newest check. */
  const checks = async () =>
    t.allAreas.query<{ cp: string; day: string; n: number; checked: number; coded: number; at: string | null }>(
      `SELECT consumption_point_uuid::text AS cp, to_char((period_end - interval '5 minutes') AT TIME ZONE 'Europe/Oslo', 'YYYY-MM-DD') AS day,
              count(*)::int AS n, count(checked_at)::int AS checked, count(codes)::int AS coded,
              rw_iso(max(checked_at)) AS at
         FROM cebd_record WHERE tenant = $1 GROUP BY 1, 2 ORDER BY 2, 1`,
      [norway()],
    );
  const marks = async () =>
    (
      await t.allAreas.query<{ start: string }>(
        `SELECT rw_iso(day_start) AS start FROM cebd_recheck WHERE tenant = $1 ORDER BY day_start`,
        [norway()],
      )
    ).map((m) => new Date(m.start).toISOString());

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'], jobs: {} });
    const points = await t.allAreas.query<Point>(
      `SELECT cp.entity_uuid::text AS uuid, cp.attributes->>'cpid' AS cpid FROM entity_latest cp
         JOIN entity_latest u ON u.entity_uuid = rw_uuid(cp.unit_ref)
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' AND cp.active AND u.active ORDER BY cp.name LIMIT 2`,
      [norway()],
    );
    [a, b] = points as [Point, Point];
    await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/exchange/cebdinput/save',
      payload: { maxDaysSinceObservation: 3650 },
    });
    // A grid area around Oslo, valid always: saved before any record, it marks nothing.
    const saved = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'GridArea', name: 'Oslo grid', geometry: square(10, 59.5, 11.5, 60.5) },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    grid = saved.json<{ uuid: string }>().uuid;
  });
  afterAll(async () => t?.close());

  it('checks a file within seconds of its import, in a system run limited to its consumption points', async () => {
    const { dataLogId, importedAt } = await upload('a-day1.xml', file(a, D1));
    // Within seconds: 15 s leaves room for a machine the test shares with others (a few seconds alone).
    const deadline = Date.now() + 15_000;
    let found: Awaited<ReturnType<typeof checks>> = [];
    while (Date.now() < deadline) {
      found = await checks();
      if (found.length > 0 && found.every((c) => c.checked === c.n)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).toEqual([{ cp: a.uuid, day: '2026-10-05', n: 24, checked: 24, coded: 24, at: expect.any(String) }]);
    expect(Date.parse(found[0]!.at!) - importedAt).toBeLessThan(15_000);
    const [placed] = await t.allAreas.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cebd_record WHERE tenant = $1 AND grid_area_uuid = $2`,
      [norway(), grid],
    );
    expect(placed!.n).toBe(24);

    // The process log shows the run: the system's, limited to the file's point, its cause the file.
    await idle();
    const log = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/findBy?procedureName=cebd-preprocessing&size=10',
      payload: { consumptionPoint: a.uuid },
    });
    expect(log.statusCode, log.body).toBe(200);
    const [run, ...others] = procedureResultPageSchema.parse(log.json()).content as ProcedureResult[];
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      procedureName: 'cebd-preprocessing',
      status: 'success',
      username: 'system',
      entityRefs: [{ uuid: a.uuid, type: 'ConsumptionPoint' }],
      periodStart: D1.start,
      periodEnd: D1.end,
      progressCounts: { unit: 'days', done: 1, total: 1, records: 24 },
      runOptions: { followers: 'processed' },
    });
    expect(run!.message).toContain(`CEBD file ${dataLogId} arrived`);
    // No day of the file was processed further: it is only checked, nothing follows.
    expect((await results()).map((r) => r.name)).toEqual(['cebd-preprocessing']);
  });

  it('checks only the new file points: the records checked before keep their check', async () => {
    const before = await checks();
    await upload('b-day1.xml', file(b, D1));
    await upload('b-day3.xml', file(b, D3));
    await upload('a-day4.xml', file(a, D4));
    await idle();
    const after = await checks();
    expect(after.map((c) => [c.cp === a.uuid ? 'a' : 'b', c.day, c.n, c.checked])).toEqual([
      ['a', '2026-10-05', 24, 24],
      ['b', '2026-10-05', 24, 24],
      ['b', '2026-10-07', 24, 24],
      ['a', '2026-10-08', 24, 24],
    ]);
    expect(after.find((c) => c.cp === a.uuid && c.day === '2026-10-05')!.at).toBe(before[0]!.at);
    const runs = await results();
    expect(runs.map((r) => [r.name, r.status])).toEqual(Array(4).fill(['cebd-preprocessing', 'success']));
    expect(await marks()).toEqual([]);
  });

  /** The grid area redrawn (a smaller square) from D2 on, under `name`. */
  const saveGridFromD2 = (name: string) =>
    t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        uuid: grid,
        type: 'GridArea',
        name,
        geometry: square(10.2, 59.6, 11.4, 60.4),
        timeRange: { start: D2.start, end: '2070-01-01T00:00:00Z' },
      },
    });

  it('marks for a re-check exactly the days holding records inside a grid area change', async () => {
    // Redrawn from the 6th: the 6th holds no record, the 7th and 8th do; the 5th lies before.
    const redrawn = await saveGridFromD2('Oslo grid');
    expect(redrawn.statusCode, redrawn.body).toBe(200);
    expect(await marks()).toEqual([D3.start, D4.start]);
    const [mark] = await t.allAreas.query<{ reason: string }>(
      `SELECT reason FROM cebd_recheck WHERE tenant = $1 ORDER BY day_start LIMIT 1`,
      [norway()],
    );
    expect(mark!.reason).toBe(`gridarea ${grid} saved by ${ADMIN}`);
    // A change the check does not read (the name) marks nothing more, even over every day.
    const renamed = await saveGridFromD2('Oslo grid area');
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await marks()).toEqual([D3.start, D4.start]);
  });

  it('marks the days holding records of a consumption point whose EMS type changed, and no other', async () => {
    // Point a on the 5th only: a has records on the 5th and 8th, b on the 5th and 7th.
    const [stored] = await t.allAreas.query<{ name: string; attributes: Record<string, unknown> }>(
      `SELECT name, attributes FROM entity_latest WHERE entity_uuid = $1`,
      [a.uuid],
    );
    const saved = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        ...stored!.attributes,
        uuid: a.uuid,
        type: 'ConsumptionPoint',
        name: stored!.name,
        emsType: 'Another EMS',
        timeRange: { start: D1.start, end: D2.start },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await marks()).toEqual([D1.start, D3.start, D4.start]);
  });

  it('re-checks at month end only the marked days and those with unchecked records, and clears the marks', async () => {
    // The 8th's mark is answered by a run of that day from the run page (it checks the day whole).
    const day = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: D4 },
    });
    expect(day.statusCode, day.body).toBe(200);
    await waitForRun(t.database, procedureResultSchema.parse(day.json()).jobId!, { timeoutMs: 60_000 });
    await idle();
    expect(await marks()).toEqual([D1.start, D3.start]);
    // The 5th, marked, also holds point a's records unchecked (a file whose check never ran).
    await t.allAreas.query(
      `UPDATE cebd_record SET checked_at = NULL, codes = NULL
        WHERE tenant = $1 AND consumption_point_uuid = $2 AND period_end > $3 AND period_end <= $4`,
      [norway(), a.uuid, D1.start, D1.end],
    );
    const before = await checks();
    const count = (await results()).length;

    const started = await startMonthEndRechecks(
      {
        database: t.database,
        followUp: (ctx, followUp) => t.app.jobs.enqueue(ctx, procedureFollowUpJob, followUp),
        log: t.app.log,
      },
      new Date('2026-11-01T03:00:00Z'),
    );
    expect(started).toEqual([{ area: 'norway', start: OCTOBER.start, end: OCTOBER.end }]);
    await idle();
    const [monthEnd] = (await results()).slice(count);
    expect(monthEnd).toMatchObject({ name: 'cebd-preprocessing', status: 'success', options: { onlyDue: true } });
    const after = await checks();
    const at = (rows: typeof after, cp: Point, d: string) => rows.find((c) => c.cp === cp.uuid && c.day === d)!;
    // The 5th (marked, unchecked records) is checked whole, both points; the 7th (marked) too.
    expect(at(after, a, '2026-10-05')).toMatchObject({ n: 24, checked: 24, coded: 24 });
    expect(Date.parse(at(after, b, '2026-10-05').at!)).toBeGreaterThan(Date.parse(at(before, b, '2026-10-05').at!));
    expect(Date.parse(at(after, b, '2026-10-07').at!)).toBeGreaterThan(Date.parse(at(before, b, '2026-10-07').at!));
    // The 8th, neither marked nor unchecked any more, is left alone.
    expect(at(after, a, '2026-10-08').at).toBe(at(before, a, '2026-10-08').at);
    expect(await marks()).toEqual([]);
    // Its days: 31, the 5th and 7th counted with their records, the others skipped (0).
    const days = await t.allAreas.query<{ start: string; records: number }>(
      `SELECT rw_iso(chunk_start) AS start, records::int AS records FROM procedure_chunk
        WHERE procedure_result_id = $1 AND records > 0 ORDER BY chunk_start`,
      [monthEnd!.id],
    );
    expect(days.map((d) => [new Date(d.start).toISOString(), d.records])).toEqual([
      [D1.start, 48],
      [D3.start, 24],
    ]);
    const [{ n }] = (await t.allAreas.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM procedure_chunk WHERE procedure_result_id = $1`,
      [monthEnd!.id],
    )) as [{ n: number }];
    expect(n).toBe(31);
  });

  it('re-checks every day of the chosen period when a person runs it from the run page', async () => {
    const before = await checks();
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: OCTOBER },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitForRun(t.database, procedureResultSchema.parse(res.json()).jobId!, { timeoutMs: 120_000 });
    const after = await checks();
    expect(after).toHaveLength(before.length);
    for (const [i, c] of after.entries()) {
      expect(c.checked).toBe(c.n);
      expect(Date.parse(c.at!)).toBeGreaterThan(Date.parse(before[i]!.at!));
    }
    await idle();
  });

  it('runs a file check beside a person’s run of its days: neither refuses the other', async () => {
    const under = (period: { start: string; end: string }, options: Record<string, unknown>) =>
      t.allAreas.query<{ id: number }>(
        `INSERT INTO procedure_result (tenant, procedure_name, period_start, period_end, status, username, run_options)
         VALUES ($1, 'cebd-preprocessing', $2, $3, 'running', 'someone', $4) RETURNING id::int AS id`,
        [norway(), period.start, period.end, JSON.stringify(options)],
      );
    const [{ id: dataLogId }] = (await t.allAreas.query<{ id: number }>(
      `SELECT id::int AS id FROM data_log WHERE tenant = $1 AND file_name = 'a-day1.xml'`,
      [norway()],
    )) as [{ id: number }];
    const ctx = serviceContext(tenantExecutor(t.database, norway()), norway(), ADMIN_ACTOR, {
      timeZone: 'Europe/Oslo',
    });
    // A person's run of October under way: a file's check of the 5th starts anyway.
    const [person] = await under(OCTOBER, {});
    const check = await startArrivalCheck(ctx, dataLogId, procedureRunQueue(t.app.jobs));
    expect(check).toMatchObject({ username: 'system', periodStart: D1.start, periodEnd: D1.end });
    expect((await waitForRun(t.database, check!.jobId!, { timeoutMs: 60_000 })).status).toBe('success');
    await t.allAreas.query(`UPDATE procedure_result SET status = 'failure' WHERE id = $1`, [person!.id]);
    // A file's check of the 5th under way: a person's run of the month starts anyway.
    const [arrival] = await under(D1, { followers: 'processed' });
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: OCTOBER },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitForRun(t.database, procedureResultSchema.parse(res.json()).jobId!, { timeoutMs: 120_000 });
    await t.allAreas.query(`UPDATE procedure_result SET status = 'failure' WHERE id = $1`, [arrival!.id]);
    // Any other run of the days is still refused while one is under way.
    const [other] = await under(D2, {});
    const refused = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: OCTOBER },
    });
    expect(refused.json()).toMatchObject({ status: 400, code: 'process_already_running' });
    await t.allAreas.query(`UPDATE procedure_result SET status = 'failure' WHERE id = $1`, [other!.id]);
    await idle();
  });
});
