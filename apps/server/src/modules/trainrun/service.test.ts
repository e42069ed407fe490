import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { allAreasExecutor, tenantExecutor } from '../../db/tenant.js';
import { problemText, type ParsedTrainRun } from '../../formats/timeseries/format.js';
import { readTrainRuns } from '../../formats/trainrun/trainrun-format.js';
import { generateTrainRunFile, trainRunsXml, type TrainRunEntry } from '../../formats/trainrun/trainrun-generator.js';
import { areaUuid } from '../../seed/areas.js';
import { demoTrainRunSpec } from '../../seed/train-runs.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { startFile } from '../datalog/datalog-service.js';
import { rows } from '../domain/sql.js';
import { listTrainRuns, storeTrainRuns } from './service.js';

const NORWAY = areaUuid('norway');
const SWEDEN = areaUuid('sweden');
const EXAMPLE = new URL('../../../../../docs/formats/examples/train-runs-example.xml', import.meta.url);
const ALL_DAYS = { operatingDayFrom: '2000-01-01', operatingDayTo: '2069-12-31' };

async function* once(text: string | Buffer): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

describe('train-run store', () => {
  let database: Database;
  const ctx = (area = NORWAY) => serviceContext(tenantExecutor(database, area), area);

  /** Reads a file and stores it under a new data-log entry, as the intake will. */
  async function store(text: string | Buffer, area = NORWAY) {
    const { runs, problems } = await readTrainRuns(once(text), { timeZone: 'Europe/Oslo' });
    expect(problems.map(problemText)).toEqual([]);
    const c = ctx(area);
    const dataLogId = await startFile(c.db, {
      tenant: area,
      username: 'ru-user',
      messageType: 'TRAIN_RUN_IMPORT',
      fileName: 'runs.xml',
    });
    return { dataLogId, ...(await c.db.transaction((tx) => storeTrainRuns({ ...c, db: tx }, runs, dataLogId))) };
  }

  const entry = (over: Partial<TrainRunEntry> = {}): TrainRunEntry => ({
    action: 'input',
    trainNumber: '2301',
    operatingDay: '2026-10-05',
    railwayUndertaking: '984661185',
    trafficCategory: 'Passenger, regional',
    trainProfile: 'Regional passenger',
    route: ['Oslo S', 'Bergen'],
    departure: '2026-10-05T06:00:00.000Z',
    arrival: '2026-10-05T12:30:00.000Z',
    composition: [{ evn: '947600740015', grossWeightTonnes: 228.5, position: 1 }],
    grossTonneKm: 113336,
    ...over,
  });
  const file = (...runs: TrainRunEntry[]) => trainRunsXml(runs, { sender: '984661185' });
  const messages = (problems: { message: string }[]) => problems.map((p) => p.message);

  beforeAll(async () => {
    database = await openTestDatabase({
      seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
    });
    // Everything below runs as the app role, under row-level security, like a request.
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  it('stores an input with its composition, resolving the RU, category, profile and traction units', async () => {
    const result = await store(
      file(
        entry({
          composition: [
            { evn: '947600740015', grossWeightTonnes: 228.5, position: 1 },
            { evn: '337654901012', grossWeightTonnes: 40, position: 2 },
          ],
        }),
      ),
    );
    expect(result).toMatchObject({ stored: 1, problems: [] });
    // Its operating day is due for train-preprocessing: the nightly allocation checks it (due-days.ts).
    const due = await rows<{ day_start: string; day_end: string }>(
      ctx().db,
      sql`SELECT rw_iso(day_start) AS day_start, rw_iso(day_end) AS day_end FROM procedure_due_day
           WHERE procedure_name = 'train-preprocessing'`,
    );
    expect(due).toEqual([{ day_start: '2026-10-04T22:00:00.000Z', day_end: '2026-10-05T22:00:00.000Z' }]);
    // A wagon is not in the fleet: stored without a traction unit, and named once as a warning.
    expect(messages(result.warnings)).toEqual(['Unknown EVN 337654901012']);
    const [run, ...rest] = await listTrainRuns(ctx(), { operatingDayFrom: '2026-10-05', operatingDayTo: '2026-10-05' });
    expect(rest).toEqual([]);
    expect(run).toMatchObject({
      trainNumber: '2301',
      operatingDay: '2026-10-05',
      railwayUndertaking: 'Vy Tog AS',
      trafficCategory: 'Passenger, regional',
      trainProfile: 'Regional passenger',
      route: ['Oslo S', 'Bergen'],
      departure: '2026-10-05T06:00:00.000Z',
      arrival: '2026-10-05T12:30:00.000Z',
      grossTonneKm: 113336,
      dataLogId: result.dataLogId,
      supersededAt: null,
      deleted: false,
    });
    expect(run!.composition).toEqual([
      { position: 1, evn: '947600740015', tractionUnitUuid: expect.any(String), grossWeightTonnes: 228.5 },
      { position: 2, evn: '337654901012', tractionUnitUuid: null, grossWeightTonnes: 40 },
    ]);
  });

  it('refuses an input of a run that exists, also when the RU is named by name instead of orgId', async () => {
    const result = await store(file(entry({ railwayUndertaking: 'vy tog as' })));
    expect(result.stored).toBe(0);
    expect(messages(result.problems)).toEqual([
      'Duplicate train run: the train run 2301 on 2026-10-05 of Vy Tog AS exists already (send a correction)',
    ]);
  });

  it('corrects and deletes, keeping every version with the file that replaced it', async () => {
    const first = (await listTrainRuns(ctx(), ALL_DAYS)).find((r) => r.trainNumber === '2301')!;
    const correction = await store(
      file(entry({ action: 'correction', arrival: '2026-10-05T12:45:00.000Z', route: ['Oslo S', 'Voss', 'Bergen'] })),
    );
    expect(correction).toMatchObject({ stored: 1, problems: [], warnings: [] });
    const [current] = await listTrainRuns(ctx(), { ...ALL_DAYS, trainNumber: '2301' });
    expect(current).toMatchObject({ arrival: '2026-10-05T12:45:00.000Z', route: ['Oslo S', 'Voss', 'Bergen'] });
    expect(current!.composition).toHaveLength(1);

    const deletion = await store(file(entry({ action: 'delete' })));
    expect(deletion).toMatchObject({ stored: 1, problems: [] });
    expect(await listTrainRuns(ctx(), { ...ALL_DAYS, trainNumber: '2301' })).toEqual([]);

    const history = await listTrainRuns(ctx(), { ...ALL_DAYS, trainNumber: '2301', includeHistory: true });
    expect(history.map((r) => [r.id === first.id, r.deleted, r.supersededByDataLogId, r.composition.length])).toEqual([
      [true, false, correction.dataLogId, 2],
      [false, false, deletion.dataLogId, 1],
      [false, true, null, 0],
    ]);
    expect(history[0]!.arrival).toBe('2026-10-05T12:30:00.000Z');

    // A deleted run can be neither corrected nor deleted again, but may be input anew.
    const again = await store(file(entry({ action: 'correction' }), entry({ action: 'delete', trainNumber: '9' })));
    expect(messages(again.problems)).toEqual([
      'The train run 2301 on 2026-10-05 of Vy Tog AS has been deleted, so it cannot be corrected',
      'The train run 9 on 2026-10-05 of Vy Tog AS does not exist, so it cannot be deleted',
    ]);
    expect(await store(file(entry()))).toMatchObject({ stored: 1, problems: [] });
    expect(await listTrainRuns(ctx(), { ...ALL_DAYS, trainNumber: '2301' })).toHaveLength(1);
  });

  it('stores nothing of a file with one bad run, and names every problem with its place', async () => {
    const before = await listTrainRuns(ctx(), ALL_DAYS);
    const text = file(
      entry({ trainNumber: '3001' }),
      entry({ trainNumber: '3002', railwayUndertaking: 'No Such Rail AS' }),
      entry({ trainNumber: '3003', railwayUndertaking: '917082308' }),
      entry({ trainNumber: '3004', trafficCategory: 'Space', trainProfile: 'Rocket' }),
      entry({ trainNumber: '3001', railwayUndertaking: 'Vy Tog AS' }),
    );
    const result = await store(text);
    expect(result.stored).toBe(0);
    expect(result.problems.map(problemText)).toEqual([
      'TrainRuns/TrainRun[2], line 12, column 3: Unknown railway undertaking No Such Rail AS',
      'TrainRuns/TrainRun[3], line 21, column 3: Organisation Bane NOR SF is not a railway undertaking (RAILWAY_UNDERTAKING)',
      'TrainRuns/TrainRun[4], line 30, column 3: Unknown traffic category Space',
      'TrainRuns/TrainRun[4], line 30, column 3: Unknown train profile Rocket',
      'TrainRuns/TrainRun[5], line 39, column 3: The train run 3001 on 2026-10-05 of Vy Tog AS appears more than once in the file (first at line 3)',
    ]);
    expect(await listTrainRuns(ctx(), ALL_DAYS)).toEqual(before);
  });

  it('stores the documented example once the runs it corrects and deletes exist', async () => {
    const example = readFileSync(EXAMPLE);
    const refused = await store(example);
    expect(refused.problems.map(problemText)).toEqual([
      'TrainRuns/TrainRun[3], line 34, column 3: The train run 1705 on 2026-09-30 of Vy Tog AS does not exist, so it cannot be corrected',
      'TrainRuns/TrainRun[4], line 46, column 3: The train run 1707 on 2026-09-30 of Vy Tog AS does not exist, so it cannot be deleted',
    ]);
    const earlier = {
      operatingDay: '2026-09-30',
      departure: '2026-09-30T15:10:00.000Z',
      arrival: '2026-09-30T16:40:00.000Z',
    };
    expect(
      await store(file(entry({ ...earlier, trainNumber: '1705' }), entry({ ...earlier, trainNumber: '1707' }))),
    ).toMatchObject({ stored: 2, problems: [] });
    const stored = await store(example);
    expect(stored).toMatchObject({ stored: 4, problems: [] });
    expect(messages(stored.warnings)).toEqual([
      'Unknown EVN 337654901012',
      'Unknown EVN 337654901020',
      'Unknown EVN 337654901038',
    ]);
    const runs = await listTrainRuns(ctx(), { operatingDayFrom: '2026-09-30', operatingDayTo: '2026-10-01' });
    expect(runs.map((r) => [r.operatingDay, r.trainNumber, r.railwayUndertaking])).toEqual([
      ['2026-09-30', '1705', 'Vy Tog AS'],
      ['2026-10-01', '41', 'Vy Tog AS'],
      ['2026-10-01', '5501', 'CargoNet AS'],
    ]);
  });

  it('keeps an area s runs from every other area (row-level security)', async () => {
    const norway = await listTrainRuns(ctx(), ALL_DAYS);
    expect(norway.length).toBeGreaterThan(0);
    expect(await listTrainRuns(ctx(SWEDEN), ALL_DAYS)).toEqual([]);
    // Even a query that forgets the tenant sees nothing of Norway from Sweden.
    const forgetful = sql`SELECT (SELECT count(*) FROM train_run)::int AS runs, (SELECT count(*) FROM train_run_vehicle)::int AS vehicles`;
    expect(await rows(tenantExecutor(database, SWEDEN), forgetful)).toEqual([{ runs: 0, vehicles: 0 }]);
    const [all] = await rows<{ runs: number }>(allAreasExecutor(database), forgetful);
    expect(all!.runs).toBeGreaterThanOrEqual(norway.length);
    // Norway's RU is unknown in Sweden: the file is refused there.
    const result = await store(file(entry({ trainNumber: '7001' })), SWEDEN);
    expect(messages(result.problems)).toEqual(['Unknown railway undertaking 984661185']);
    // And a row written for another area than the transaction names is refused by the database.
    const write = tenantExecutor(database, SWEDEN).execute(
      sql`INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, gross_weight)
          VALUES (${norway[0]!.id}, ${NORWAY}::uuid, 99, '947600740015', 1)`,
    );
    await expect(write).rejects.toMatchObject({ cause: expect.objectContaining({ code: '42501' }) });
  });

  it('stores a generated demo file of the seeded country (every RU, category, profile and unit known)', async () => {
    const spec = demoTrainRunSpec('norway', { days: ['2026-11-01', '2026-11-02', '2026-11-03'], runsPerDay: 40 });
    const result = await store(generateTrainRunFile(spec));
    expect(result).toMatchObject({ stored: 120, problems: [], warnings: [] });
    const runs = await listTrainRuns(ctx(), { operatingDayFrom: '2026-11-01', operatingDayTo: '2026-11-03' });
    expect(runs).toHaveLength(120);
    expect(new Set(runs.map((r) => r.railwayUndertaking)).size).toBe(spec.railwayUndertakings.length);
    expect(runs.every((r) => r.composition.length === 1 && r.composition[0]!.tractionUnitUuid !== null)).toBe(true);
  });

  it('answers problems rather than throwing for runs the parser would never produce', async () => {
    const odd: ParsedTrainRun = { ...entry({ trainNumber: '8001', railwayUndertaking: '' }), location: {} };
    const c = ctx();
    const dataLogId = await startFile(c.db, { tenant: NORWAY, username: 'x', messageType: 'T', fileName: null });
    const result = await c.db.transaction((tx) => storeTrainRuns({ ...c, db: tx }, [odd], dataLogId));
    expect(messages(result.problems)).toEqual(['Unknown railway undertaking ']);
    const bare: ParsedTrainRun = {
      ...entry({ trainNumber: '8002', departure: undefined, route: ['Oslo S'] }),
      location: {},
    };
    expect(messages((await storeTrainRuns(c, [bare], dataLogId)).problems)).toEqual([
      'Attribute departure is required',
      'A run needs a route of two places or more and a composition',
    ]);
    expect(await storeTrainRuns(c, [], dataLogId)).toEqual({ stored: 0, problems: [], warnings: [] });
  });
});
