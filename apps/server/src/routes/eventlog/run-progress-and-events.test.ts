import {
  procedureResultPageSchema,
  procedureResultSchema,
  processingEventPageSchema,
  processingEventSummarySchema,
  type ProcedureResult,
  type Severity,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { withProcedures } from '../../test/procedures.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';
// 1 to 3 January 2024 in Oslo: three area days.
const THREE_DAYS = { start: '2023-12-31T23:00:00Z', end: '2024-01-03T23:00:00Z' };
const DAY_3 = { start: '2024-01-02T23:00:00Z', end: '2024-01-03T23:00:00Z' };

/** A promise with its resolve, to hold a chunk until the test lets it go. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Issue 18 item 4: a run shows its progress in days and records while it runs, and its events are
 * paged (all 83 of a run, not the first 50), summed by code and severity, and those of days a later
 * run processed again are left out unless asked for. On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
describe('a run’s progress and its events', () => {
  let t: TestApp;
  // profile: each chunk waits at its gate (entered, then released by the test), then counts 1,000 records.
  const entered = [deferred(), deferred(), deferred()];
  const released = [deferred(), deferred(), deferred()];
  // annual-distribution: `eventsPerDay[i]` events on day i, codes and severities in turn.
  let eventsPerDay = [30, 30, 23];
  const CODES: [string, Severity][] = [
    ['58', 'HIGH'],
    ['56', 'LOW'],
    ['match-energy-failed', 'HIGH'],
    ['58', 'MEDIUM'],
  ];

  const post = (url: string, payload: object) => t.callAs(RUNNER, { method: 'POST', url, payload });
  async function started(procedure: string, timeRange: { start: string; end: string }): Promise<ProcedureResult> {
    const response = await post(`/api/processing/${procedure}/run?zoneId=Europe/Oslo`, { timeRange });
    expect(response.statusCode, response.body).toBe(200);
    return procedureResultSchema.parse(response.json());
  }
  async function stored(id: number): Promise<ProcedureResult> {
    const response = await post('/api/eventlog/procedure-result/findBy?size=1', { ids: [id] });
    expect(response.statusCode, response.body).toBe(200);
    return procedureResultPageSchema.parse(response.json()).content[0]!;
  }
  async function events(query: string, filter: object) {
    const response = await post(`/api/eventlog/processingevent?${query}`, filter);
    expect(response.statusCode, response.body).toBe(200);
    return processingEventPageSchema.parse(response.json());
  }
  async function summary(filter: object) {
    const response = await post('/api/eventlog/processingevent/summary', filter);
    expect(response.statusCode, response.body).toBe(200);
    return processingEventSummarySchema.parse(response.json());
  }

  beforeAll(async () => {
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        profile: {
          async run(_ctx, scope, report) {
            entered[scope.chunk.index]!.resolve();
            await released[scope.chunk.index]!.promise;
            report.records(600);
            report.records(400);
          },
        },
        'annual-distribution': {
          events: CODES.map(([code]) => code),
          async run(_ctx, scope, report) {
            for (let i = 0; i < eventsPerDay[scope.chunk.index]!; i++) {
              const [errorCode, severity] = CODES[i % CODES.length]!;
              report.event({ errorCode, severity, time: scope.start, entityIdentifier: `CP-${scope.chunk.day}-${i}` });
            }
          },
        },
      }),
    });
  });

  afterAll(async () => {
    released.forEach((r) => r.resolve());
    await t?.close();
  });

  it('reports days done of days and the records they processed while the run runs', async () => {
    const result = await started('profile', THREE_DAYS);
    expect(result.progressCounts).toBeNull();

    await entered[0]!.promise;
    expect((await stored(result.id)).progressCounts).toEqual({ unit: 'days', done: 0, total: 3, records: null });
    released[0]!.resolve();

    await entered[1]!.promise;
    const first = await stored(result.id);
    expect(first).toMatchObject({ status: 'running' });
    expect(first.progressCounts).toEqual({ unit: 'days', done: 1, total: 3, records: 1000 });
    expect(first.progress).toBeCloseTo(1 / 3);
    released[1]!.resolve();

    await entered[2]!.promise;
    expect((await stored(result.id)).progressCounts).toEqual({ unit: 'days', done: 2, total: 3, records: 2000 });
    const job = await t.callAs(RUNNER, { method: 'GET', url: `/api/jobs/${result.jobId}` });
    expect(job.json()).toMatchObject({ status: 'running', message: '2 of 3 days processed' });
    released[2]!.resolve();

    await waitForRun(t.database, result.jobId!);
    const done = await stored(result.id);
    expect(done).toMatchObject({ status: 'success', progress: 1 });
    expect(done.progressCounts).toEqual({ unit: 'days', done: 3, total: 3, records: 3000 });
  });

  describe('events', () => {
    let first: ProcedureResult;
    let second: ProcedureResult;
    let dayThree: ProcedureResult;

    beforeAll(async () => {
      first = await started('annual-distribution', THREE_DAYS);
      await waitForRun(t.database, first.jobId!);
    });

    it('pages all 83 events of a run, 50 and 33, each once', async () => {
      const filter = { procedureResultIds: [first.id] };
      const page0 = await events('page=0&size=50&sortBy=time&descendingOrder=false', filter);
      const page1 = await events('page=1&size=50&sortBy=time&descendingOrder=false', filter);
      expect(page0).toMatchObject({ totalElements: 83, totalPages: 2 });
      expect(page0.content).toHaveLength(50);
      expect(page1.content).toHaveLength(33);
      expect(new Set([...page0.content, ...page1.content].map((e) => e.id)).size).toBe(83);
      // The page size by default is the event monitor's 50.
      expect((await events('', filter)).content).toHaveLength(50);
    });

    it('sums them by code and severity, most first, and the sums filter like the list', async () => {
      const rows = await summary({ procedureResultIds: [first.id] });
      // Per day, codes in turn 58 HIGH, 56 LOW, match-energy-failed HIGH, 58 MEDIUM: 8+8+6, 8+8+6,
      // 7+7+6, 7+7+5 of 30, 30 and 23; equal counts by code, then severity.
      expect(rows).toEqual([
        { errorCode: '56', severity: 'LOW', events: 22, incidents: 22 },
        { errorCode: '58', severity: 'HIGH', events: 22, incidents: 22 },
        { errorCode: 'match-energy-failed', severity: 'HIGH', events: 20, incidents: 20 },
        { errorCode: '58', severity: 'MEDIUM', events: 19, incidents: 19 },
      ]);
      expect(rows.reduce((n, r) => n + r.events, 0)).toBe(83);
      const high58 = await events('', { procedureResultIds: [first.id], errorCodes: ['58'], severities: ['HIGH'] });
      expect(high58.totalElements).toBe(22);
      expect(await summary({ procedureResultIds: [first.id], severities: ['LOW'] })).toEqual([
        { errorCode: '56', severity: 'LOW', events: 22, incidents: 22 },
      ]);
    });

    it('leaves out the events of days a later run processed again, unless asked for', async () => {
      eventsPerDay = [2, 2, 2];
      second = await started('annual-distribution', THREE_DAYS);
      await waitForRun(t.database, second.jobId!);
      const process = { processNames: ['annual-distribution'] };
      expect((await events('', process)).totalElements).toBe(6);
      expect((await events('', { ...process, includeSuperseded: true })).totalElements).toBe(89);
      expect((await summary(process)).reduce((n, r) => n + r.events, 0)).toBe(6);
      // A run asked for by id keeps its events, superseded or not.
      expect((await events('', { procedureResultIds: [first.id] })).totalElements).toBe(83);

      // A later run of the third day alone supersedes that day only.
      eventsPerDay = [1];
      dayThree = await started('annual-distribution', DAY_3);
      await waitForRun(t.database, dayThree.jobId!);
      const shown = await events('size=100', process);
      expect(shown.totalElements).toBe(5);
      expect(shown.content.filter((e) => e.procedureResultId === second.id)).toHaveLength(4);
      expect(shown.content.filter((e) => e.procedureResultId === dayThree.id)).toHaveLength(1);
      expect(
        await t.callAs(RUNNER, { method: 'POST', url: '/api/eventlog/processingevent/count', payload: process }),
      ).toMatchObject({ statusCode: 200, body: '5' });
    });

    it('answers 400 for a bad filter, 401 without sign-in, 403 to a role that reads no runs', async () => {
      expect((await post('/api/eventlog/processingevent/summary', { severities: ['SEVERE'] })).statusCode).toBe(400);
      expect((await post('/api/eventlog/processingevent/summary', { includeSuperseded: 'yes' })).statusCode).toBe(400);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/eventlog/processingevent/summary',
        payload: {},
      });
      expect(anonymous.statusCode).toBe(401);
      const provider = await t.callAs('train-run-data-provider', {
        method: 'POST',
        url: '/api/eventlog/processingevent/summary',
        payload: {},
      });
      expect(provider.statusCode).toBe(403);
    });
  });
});
