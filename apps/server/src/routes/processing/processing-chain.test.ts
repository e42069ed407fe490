import { procedureResultSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cebdXml } from '../../formats/cebd/generate.js';
import { trainRunsXml } from '../../formats/trainrun/trainrun-generator.js';
import { multipartBody } from '../../modules/excel/fixtures.js';
import { SEED_COUNTRIES } from '../../seed/fleet.js';
import { tenantExecutor } from '../../db/tenant.js';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import { startFollowUp } from '../../modules/processing/chain.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { serviceContext } from '../../test/context.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { waitForIdle, waitForRun } from '../../test/jobs.js';
import { chainFrom } from '../../test/procedures.js';

const RESPONSIBLE = 'settlement-area-responsible';
const PROVIDER = 'train-run-data-provider';
/** 5 October 2026 in Oslo (UTC+2). */
const DAY = { start: '2026-10-04T22:00:00Z', end: '2026-10-05T22:00:00Z' };
const CHAIN = ['cebd-preprocessing', 'combine', 'shunting-and-stabling', 'energy-outside-train-run'];

/**
 * The processing chain from uploads (issue 9 item 4): a train-run file and a CEBD file through the
 * real calls, cebd-preprocessing run by a user, then combine, shunting-and-stabling and
 * energy-outside-train-run run by the system for the same day; a second CEBD file for the day makes
 * the chain run again by itself and its records are allocated too.
 */
describe('the processing chain', () => {
  let t: TestApp;
  let cpid = '';
  let ruUuid = '';
  const norway = () => t.areaUuid('norway');

  const upload = async (username: string, url: string, fileName: string, text: string) => {
    const body = multipartBody([{ fileName, bytes: Buffer.from(text) }]);
    const res = await t.callAs(username, { method: 'POST', url, headers: body.headers, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const run = await waitForRun(t.database, res.json<{ jobIds: string[] }>().jobIds[0]!);
    expect(run.status, run.message ?? '').toBe('success');
  };
  /** 5-minute records of the consumption point from `start` (UTC), near Oslo S. */
  const cebdFile = (start: string, periods: number) =>
    [
      ...cebdXml({
        seed: 5,
        points: [
          {
            cpid,
            route: [
              { lat: 59.91, lon: 10.75 },
              { lat: 59.95, lon: 10.8 },
            ],
            start,
            periods,
          },
        ],
      }),
    ].join('');
  /** The area's results, oldest first. */
  const results = () =>
    t.allAreas.query<{
      id: number;
      name: string;
      status: string;
      username: string;
      message: string | null;
      jobId: string | null;
    }>(
      `SELECT id::int AS id, procedure_name AS name, status, username, message, job_id AS "jobId" FROM procedure_result
        WHERE tenant = $1 ORDER BY id`,
      [norway()],
    );
  /** Waits until `count` results of the chain have succeeded (a follow-up is a pg-boss job of its own). */
  const chainDone = async (count: number) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = await results();
      const done = found.filter((r) => r.status === 'success');
      if (done.length >= count && done.length === found.length) return found;
      if (Date.now() > deadline) throw new Error(`The chain did not finish: ${JSON.stringify(found)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const allocated = () =>
    t.allAreas.query<{ run: string; n: number; kwh: number; org: string; category: string }>(
      `SELECT r.train_number AS run, sum(a.records)::int AS n, sum(a.active_consumed)::float8 AS kwh,
              a.organisation_uuid::text AS org, a.category
         FROM allocated_energy_hourly a JOIN train_run r ON r.id = a.train_run_id
        WHERE a.tenant = $1 GROUP BY 1, 4, 5 ORDER BY 1, 5`,
      [norway()],
    );
  /** The energy of the preprocessed (checked) records whose period ends in (from, to] (UTC, inclusive). */
  const preprocessedKwh = async (from: string, to: string) =>
    (
      await t.allAreas.query<{ kwh: number }>(
        `SELECT sum(active_consumed)::float8 AS kwh FROM cebd_record
          WHERE tenant = $1 AND period_end >= $2::timestamptz AND period_end <= $3::timestamptz AND codes IS NOT NULL`,
        [norway(), from, to],
      )
    )[0]!.kwh;

  /** Of the preprocessed records whose period ends at one of `ends` (UTC HH:MM on 5 October), those with energy. */
  const withEnergy = async (ends: string[]) =>
    (
      await t.allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cebd_record
          WHERE tenant = $1 AND period_end = ANY($2::timestamptz[]) AND codes IS NOT NULL
            AND (coalesce(active_consumed, 0) <> 0 OR coalesce(active_regenerated, 0) <> 0)`,
        [norway(), ends.map((hm) => `2026-10-05T${hm}:00Z`)],
      )
    )[0]!.n;

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'], jobs: {} });
    const [point] = await t.allAreas.query<{ cpid: string; evn: string }>(
      `SELECT cp.attributes->>'cpid' AS cpid, u.evn FROM entity_latest cp
         JOIN entity_latest u ON u.entity_uuid = rw_uuid(cp.unit_ref)
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' AND cp.active AND u.active ORDER BY cp.name LIMIT 1`,
      [norway()],
    );
    cpid = point!.cpid;
    const ru = SEED_COUNTRIES.find((c) => c.kind === 'norway')!.rus[0]!.orgId;
    [{ uuid: ruUuid }] = (await t.allAreas.query<{ uuid: string }>(
      `SELECT entity_uuid::text AS uuid FROM entity_latest WHERE tenant = $1 AND type = 'organisation'
          AND attributes->>'orgId' = $2`,
      [norway(), ru],
    )) as [{ uuid: string }];
    await t.callAs('erex-administrator', {
      method: 'POST',
      url: '/api/exchange/cebdinput/save',
      payload: { maxDaysSinceObservation: 3650 },
    });
    // Two runs of the unit on 5 October: 06:30-07:30 and 08:10-08:50 UTC.
    const run = (trainNumber: string, departure: string, arrival: string) => ({
      action: 'input' as const,
      trainNumber,
      operatingDay: '2026-10-05',
      railwayUndertaking: ru,
      trafficCategory: 'Passenger, regional',
      route: ['Oslo S', 'Lillestrøm'],
      departure,
      arrival,
      composition: [{ evn: point!.evn, grossWeightTonnes: 180, position: 1 }],
      grossTonneKm: 3600,
    });
    await upload(
      PROVIDER,
      '/api/timeseries/import/trainrun',
      'runs.xml',
      trainRunsXml([
        run('2001', '2026-10-05T06:30:00Z', '2026-10-05T07:30:00Z'),
        run('2002', '2026-10-05T08:10:00Z', '2026-10-05T08:50:00Z'),
      ]),
    );
    // The first CEBD file: 24 records, period ends 06:05 .. 08:00. It is checked on arrival (a
    // system run of its own, nothing follows on a day not processed yet).
    await upload(RESPONSIBLE, '/api/cebd/import', 'morning.xml', cebdFile('2026-10-05T06:00:00Z', 24));
    await waitForIdle(t.database, norway());
  }, 180_000);
  afterAll(async () => t?.close());

  it('runs combine and the steps after it for the same day, by the system, and allocates the records in runs', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/cebd-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: DAY },
    });
    expect(res.statusCode, res.body).toBe(200);
    const first = procedureResultSchema.parse(res.json());
    // The file's check on arrival, then the person's run and the chain after it.
    const [arrival, ...found] = await chainDone(5);
    expect([arrival!.name, arrival!.username]).toEqual(['cebd-preprocessing', 'system']);
    expect(found.map((r) => [r.name, r.username])).toEqual(
      CHAIN.map((name, i) => [name, i === 0 ? RESPONSIBLE : 'system']),
    );
    // What ran is what the definitions' followers declare (src/procedures.ts), and nothing after the
    // last step: once its job is over, the chain queued exactly one follow-up per step after the first.
    expect(chainFrom('cebd-preprocessing')).toEqual(CHAIN);
    await waitForRun(t.database, found.at(-1)!.jobId!);
    const [followUps] = await t.allAreas.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM job_run WHERE tenant = $1 AND name = 'procedure-follow-up'`,
      [norway()],
    );
    expect(followUps!.n).toBe(CHAIN.length - 1);
    const combineRun = found[1]!;
    expect(combineRun.message).toContain(`after cebd-preprocessing run ${first.id}`);
    const [period] = await t.allAreas.query<{ start: string; end: string }>(
      `SELECT rw_iso(period_start) AS start, rw_iso(period_end) AS end FROM procedure_result WHERE id = $1`,
      [combineRun.id],
    );
    expect(period).toEqual({ start: new Date(DAY.start).toISOString(), end: new Date(DAY.end).toISOString() });

    // Tolerance 5 minutes, mid-point = period end - 2.5 min. Run 2001 [06:30, 07:30): period ends
    // with mid-point in [06:25, 07:35): 06:30 .. 07:35 = 14 records. Run 2002 [08:10, 08:50): ends
    // 08:10 .. 08:55, of which this file has none after 08:00. Unmatched: 06:05 .. 06:25 (5) and
    // 07:40 .. 08:00 (5) = 10, of which match-energy-failed counts those with energy (the generator
    // lets a unit stand still at times: 0 kWh is nothing to allocate).
    // shunting-and-stabling (limit 60 minutes, a record's time is its period end, the nearest run,
    // the run before on a tie): 06:05 .. 06:25 are 25 .. 5 minutes before 2001 departs: 2001.
    // 07:40, 07:45 lie 10, 15 after 2001 arrives and 30, 25 before 2002 departs: 2001; 07:50 is 20
    // and 20: the run before, 2001; 07:55 and 08:00 (15 and 10 before 2002): 2002. So 2001 has
    // 5 + 3 = 8, 2002 has 2; energy-outside-train-run finds nothing left.
    const unmatched = ['06:05', '06:10', '06:15', '06:20', '06:25', '07:40', '07:45', '07:50', '07:55', '08:00'];
    expect(await allocated()).toEqual([
      {
        run: '2001',
        n: 8,
        kwh: expect.closeTo(
          (await preprocessedKwh('2026-10-05T06:05:00Z', '2026-10-05T06:25:00Z')) +
            (await preprocessedKwh('2026-10-05T07:40:00Z', '2026-10-05T07:50:00Z')),
          6,
        ),
        org: ruUuid,
        category: 'shunting-and-stabling',
      },
      {
        run: '2001',
        n: 14,
        kwh: expect.closeTo(await preprocessedKwh('2026-10-05T06:30:00Z', '2026-10-05T07:35:00Z'), 6),
        org: ruUuid,
        category: 'train-run',
      },
      {
        run: '2002',
        n: 2,
        kwh: expect.closeTo(await preprocessedKwh('2026-10-05T07:55:00Z', '2026-10-05T08:00:00Z'), 6),
        org: ruUuid,
        category: 'shunting-and-stabling',
      },
    ]);
    const events = await t.allAreas.query<{ code: string; incidents: number }>(
      `SELECT error_code AS code, incidents FROM processing_event WHERE procedure_result_id = $1 ORDER BY 1`,
      [combineRun.id],
    );
    // 2002 departs in the day, its unit has a consumption point and sent nothing during 08:10-08:50.
    const failed = await withEnergy(unmatched);
    expect(events.filter((e) => e.code !== 'uncertain-quality-flag-61')).toEqual([
      ...(failed > 0 ? [{ code: 'match-energy-failed', incidents: failed }] : []),
      { code: 'no-metered-data-received', incidents: 1 },
    ]);
  });

  it('runs the chain again by itself when more CEBD arrives for the day, and allocates the new records', async () => {
    // The second file: 12 records, period ends 08:05 .. 09:00. Run 2002 takes 08:10 .. 08:55 = 10.
    await upload(RESPONSIBLE, '/api/cebd/import', 'late.xml', cebdFile('2026-10-05T08:00:00Z', 12));
    // Its check on arrival, and the chain after it: combine had covered the day.
    const found = await chainDone(9);
    expect(found.slice(5).map((r) => [r.name, r.username])).toEqual(CHAIN.map((name) => [name, 'system']));
    expect(found[5]!.message).toMatch(/CEBD file \d+ arrived/);
    // shunting-and-stabling now: 2001 keeps its 8; 07:55, 08:00, 08:05 (15, 10, 5 minutes before
    // 2002 departs) and 09:00 (10 after 2002 arrives at 08:50) go to 2002: 4.
    expect(await allocated()).toEqual([
      expect.objectContaining({ run: '2001', n: 8, category: 'shunting-and-stabling' }),
      expect.objectContaining({ run: '2001', n: 14, category: 'train-run' }),
      {
        run: '2002',
        n: 4,
        kwh: expect.closeTo(
          (await preprocessedKwh('2026-10-05T07:55:00Z', '2026-10-05T08:05:00Z')) +
            (await preprocessedKwh('2026-10-05T09:00:00Z', '2026-10-05T09:00:00Z')),
          6,
        ),
        org: ruUuid,
        category: 'shunting-and-stabling',
      },
      {
        run: '2002',
        n: 10,
        kwh: expect.closeTo(await preprocessedKwh('2026-10-05T08:10:00Z', '2026-10-05T08:55:00Z'), 6),
        org: ruUuid,
        category: 'train-run',
      },
    ]);
    const events = await t.allAreas.query<{ code: string; incidents: number }>(
      `SELECT error_code AS code, incidents FROM processing_event WHERE procedure_result_id = $1 ORDER BY 1`,
      [found[6]!.id],
    );
    // Unmatched now: 06:05 .. 06:25, 07:40 .. 08:05 (6) and 09:00 = 12 (those with energy count);
    // every run has data.
    const unmatched = ['06:05', '06:10', '06:15', '06:20', '06:25', '07:40', '07:45', '07:50', '07:55', '08:00'];
    const failed = await withEnergy([...unmatched, '08:05', '09:00']);
    expect(events.filter((e) => e.code !== 'uncertain-quality-flag-61')).toEqual(
      failed > 0 ? [{ code: 'match-energy-failed', incidents: failed }] : [],
    );
  });

  it('estimates non-metered runs after train-preprocessing by stations, then by the method its configuration names', async () => {
    const saved = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/domain/processing-config/train-preprocessing',
      payload: {
        validFrom: '2026-01-01T00:00:00Z',
        value: { estimationMethod: 'reported-train-consumption-with-track' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = (await results()).length;
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/train-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: DAY },
    });
    expect(res.statusCode, res.body).toBe(200);
    // train-preprocessing, then combine (and its followers) and the two estimations.
    const found = (await chainDone(before + 6)).slice(before);
    const names = found.map((r) => r.name);
    expect(names.slice(0, 1)).toEqual(['train-preprocessing']);
    expect(names.sort()).toEqual(
      [
        'combine',
        'energy-outside-train-run',
        'reported-train-consumption',
        'reported-train-consumption-with-track',
        'shunting-and-stabling',
        'train-preprocessing',
      ].sort(),
    );
    const refinement = found.find((r) => r.name === 'reported-train-consumption-with-track')!;
    const estimate = found.find((r) => r.name === 'reported-train-consumption')!;
    expect(refinement.username).toBe('system');
    expect(refinement.message).toContain(`after reported-train-consumption run ${estimate.id}`);
  });

  it('keeps a follow-up whose procedure is under way: its attempt fails (retried later) until the run is over', async () => {
    const [busy] = await t.allAreas.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, period_start, period_end, status, username)
       VALUES ($1, 'combine', $2, $3, 'running', 'someone') RETURNING id::int AS id`,
      [norway(), DAY.start, DAY.end],
    );
    const ctx = serviceContext(tenantExecutor(t.database, norway()), norway(), ADMIN_ACTOR, {
      timeZone: 'Europe/Oslo',
    });
    const followUp = { procedure: 'combine' as const, ...DAY, cause: 'started by the system after a test' };
    await expect(startFollowUp(ctx, followUp, procedureRunQueue(t.app.jobs))).rejects.toMatchObject({
      code: 'process_already_running',
    });
    await t.allAreas.query(`UPDATE procedure_result SET status = 'failure' WHERE id = $1`, [busy!.id]);
    const started = await startFollowUp(ctx, followUp, procedureRunQueue(t.app.jobs));
    expect(started).toMatchObject({ procedureName: 'combine', username: 'system' });
    await waitForRun(t.database, started.jobId!);
  });
});
