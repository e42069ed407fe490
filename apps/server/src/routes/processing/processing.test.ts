import {
  PROCEDURE_NAMES,
  procedureResultPageSchema,
  procedureResultSchema,
  processingEventPageSchema,
  type ProcedureResult,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { withProcedures } from '../../test/procedures.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';
const AUDIT = 'audit-settlement-area-responsible';
const month = (m: number) => ({
  start: `2024-${String(m).padStart(2, '0')}-01T00:00:00Z`,
  end: m === 12 ? '2025-01-01T00:00:00Z' : `2024-${String(m + 1).padStart(2, '0')}-01T00:00:00Z`,
});

describe('processing calls: run, process log, events', () => {
  let t: TestApp;
  const settlements: ProcedureResult[] = [];
  let factorRun: ProcedureResult;

  async function run(username: string, procedure: string, timeRange: { start: string; end: string }) {
    return t.callAs(username, {
      method: 'POST',
      url: `/api/processing/${procedure}/run?zoneId=Europe/Oslo`,
      payload: { timeRange },
    });
  }

  const post = (url: string, payload: unknown, username = RUNNER, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'POST', url, payload: payload as object }, kind);
  const get = (url: string, username = RUNNER) => t.callAs(username, { method: 'GET', url });

  beforeAll(async () => {
    // Per area day: a value outside limits (58, HIGH by default) on even chunks, too many missing
    // values (56, LOW, 2 incidents) on odd ones, about that day's consumption point.
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        'calculate-consumption-factor': {
          events: ['56', '58'],
          async run(_ctx, scope, report) {
            const even = scope.chunk.index % 2 === 0;
            report.event(
              even
                ? { errorCode: '58', time: scope.start, entityIdentifier: `CP-${scope.chunk.day}` }
                : { errorCode: '56', severity: 'LOW', incidents: 2, time: scope.start, message: 'Missing values' },
            );
          },
        },
      }),
    });
    for (const m of [1, 2, 3]) {
      const response = await run(RUNNER, 'settlement', month(m));
      expect(response.statusCode, response.body).toBe(200);
      const result = procedureResultSchema.parse(response.json());
      await waitForRun(t.database, result.jobId!);
      settlements.push(result);
    }
    const response = await run(RUNNER, 'calculate-consumption-factor', {
      // 1 to 4 January in Oslo: four area days.
      start: '2023-12-31T23:00:00Z',
      end: '2024-01-04T23:00:00Z',
    });
    expect(response.statusCode, response.body).toBe(200);
    factorRun = procedureResultSchema.parse(response.json());
    await waitForRun(t.database, factorRun.jobId!);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('POST /eventlog/procedure-result/findBy', () => {
    const findBy = async (query: string, filter: object = {}, username = RUNNER, kind?: 'sweden') => {
      const response = await post(`/api/eventlog/procedure-result/findBy?${query}`, filter, username, kind);
      expect(response.statusCode, response.body).toBe(200);
      return procedureResultPageSchema.parse(response.json());
    };

    it('pages a procedure’s results newest first (zero-based pages)', async () => {
      const first = await findBy('procedureName=settlement&size=2&page=0');
      expect(first).toMatchObject({ totalElements: 3, totalPages: 2 });
      expect(first.content.map((r) => r.id)).toEqual([settlements[2]!.id, settlements[1]!.id]);
      const second = await findBy('procedureName=settlement&size=2&page=1');
      expect(second.content.map((r) => r.id)).toEqual([settlements[0]!.id]);
      const ascending = await findBy('procedureName=settlement&descendingOrder=false&sortBy=executeStartTime');
      expect(ascending.content.map((r) => r.id)).toEqual(settlements.map((r) => r.id));
      expect(second.content[0]).toMatchObject({
        procedureName: 'settlement',
        status: 'success',
        progress: 1,
        // settlement is implemented (issue 10): "<n> of <n> days processed".
        message: expect.stringMatching(/^(\d+) of \1 days processed$/),
        username: RUNNER,
      });
    });

    it('filters by observation range, statuses, user and processing time', async () => {
      const february = month(2);
      const inFebruary = await findBy(
        `procedureName=settlement&observationTimeRange=${february.start},2024-02-15T00:00:00Z`,
      );
      expect(inFebruary.content.map((r) => r.id)).toEqual([settlements[1]!.id]);
      expect((await findBy('procedureName=settlement', { operatingDayTimeRange: month(3) })).totalElements).toBe(1);
      expect((await findBy('', { statuses: ['failure'] })).totalElements).toBe(0);
      expect((await findBy('', { statuses: ['success'] })).totalElements).toBe(4);
      expect((await findBy('', { userId: 'someone-else' })).totalElements).toBe(0);
      expect(
        (await findBy('', { processingTime: { start: '2020-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z' } }))
          .totalElements,
      ).toBe(0);
      expect((await findBy('procedureName=combine')).totalElements).toBe(0);
    });

    it('answers the audit roles and the consumer, and shows another area nothing', async () => {
      expect((await findBy('', {}, AUDIT)).totalElements).toBe(4);
      expect((await findBy('', {}, 'consumer')).totalElements).toBe(4);
      expect((await findBy('', {}, RUNNER, 'sweden')).totalElements).toBe(0);
      const keeper = await post('/api/eventlog/procedure-result/findBy', {}, 'vehicle-keeper');
      expect(keeper.statusCode).toBe(403);
    });
  });

  describe('running', () => {
    it('lets the audit roles read but not run or rerun', async () => {
      for (const role of [AUDIT, 'audit-erex-settlement-operator', 'consumer']) {
        expect((await run(role, 'combine', month(5))).statusCode).toBe(403);
        const rerun = await post('/api/processing/settlement/rerun', { rows: [settlements[0]!.id] }, role);
        expect(rerun.statusCode).toBe(403);
      }
      for (const role of ['erex-administrator', 'settlement-area-responsible']) {
        const response = await run(role, 'combine', month(6 + ['erex-administrator'].indexOf(role)));
        expect(response.statusCode, response.body).toBe(200);
        await waitForRun(t.database, response.json<ProcedureResult>().jobId!);
      }
    });

    it('refuses to run a log-only process and to rerun metered-energy-aggregation', async () => {
      const logOnly = await run(RUNNER, 'reported-train-consumption', month(1));
      expect(logOnly.statusCode).toBe(400);
      expect(logOnly.json()).toMatchObject({ code: 'invalid_input' });
      const aggregation = await post('/api/processing/metered-energy-aggregation/rerun', { rows: [1] });
      expect(aggregation.statusCode).toBe(400);
    });

    it('reruns a finished result as a new run of the same scope; another area cannot', async () => {
      const elsewhere = await post(
        '/api/processing/settlement/rerun',
        { rows: [settlements[0]!.id] },
        RUNNER,
        'sweden',
      );
      expect(elsewhere.statusCode).toBe(400);
      const response = await post('/api/processing/settlement/rerun', { rows: [settlements[0]!.id] });
      expect(response.statusCode, response.body).toBe(200);
      const [again] = response.json<ProcedureResult[]>();
      expect(again).toMatchObject({ procedureName: 'settlement', periodStart: settlements[0]!.periodStart });
      expect(again!.id).not.toBe(settlements[0]!.id);
      await waitForRun(t.database, again!.jobId!);
      settlements.push(again!);
    });

    it('checks status, existence and the latest result', async () => {
      const check = await get('/api/eventlog/procedure-result/checkStatus?procedureName=settlement');
      expect(check.json()).toMatchObject({ running: false, latest: { procedureName: 'settlement' } });
      const exists = (query: string, refs: object[] = []) =>
        post(`/api/eventlog/procedure-result/exists?${query}`, refs).then((r) => r.json<boolean>());
      expect(await exists('year=2024&month=2&procedureName=settlement&status=success')).toBe(true);
      expect(await exists('year=2024&month=2&procedureName=settlement&status=approved')).toBe(false);
      expect(await exists('year=2023&month=2&procedureName=settlement')).toBe(false);
      expect(
        await exists('year=2024&month=2&procedureName=settlement', [
          { uuid: '7d0e4b8e-3c4f-4a57-9d5e-2f1b8f0c0a11', type: 'Organisation' },
        ]),
      ).toBe(false);
      const latest = await post(
        `/api/eventlog/procedure-result/findLatest?procedureName=settlement&interval=${month(3).start},${month(3).end}`,
        [],
      );
      expect(latest.json()).toMatchObject({ id: settlements[2]!.id });
      const none = await post('/api/eventlog/procedure-result/findLatest?procedureName=profile', []);
      expect(none.json()).toBeNull();
      const statuses = await get('/api/eventlog/procedure-result/statuses?procedureName=combine');
      expect(statuses.json()).toEqual(['initial', 'running', 'success', 'failure']);
    });
  });

  describe('processing events', () => {
    const events = async (query: string, filter: object = {}, kind?: 'sweden') => {
      const response = await post(`/api/eventlog/processingevent?${query}`, filter, RUNNER, kind);
      expect(response.statusCode, response.body).toBe(200);
      return processingEventPageSchema.parse(response.json());
    };

    it('lists a run’s events with their code, severity (default HIGH) and incidents, paged', async () => {
      const page = await events('size=3&descendingOrder=false');
      expect(page).toMatchObject({ totalElements: 4, totalPages: 2 });
      expect(page.content[0]).toMatchObject({
        procedureResultId: factorRun.id,
        processName: 'calculate-consumption-factor',
        errorCode: '58',
        severity: 'HIGH',
        incidents: 1,
        entityIdentifier: 'CP-2024-01-01',
        message: null,
      });
      expect(page.content[1]).toMatchObject({ errorCode: '56', severity: 'LOW', incidents: 2 });
      expect((await events('size=3&page=1')).content).toHaveLength(1);
      expect((await events('', { errorCodes: ['58'] })).totalElements).toBe(2);
      expect((await events('', { severities: ['LOW'] })).totalElements).toBe(2);
      expect((await events('', { entityIdentifier: 'CP-2024-01-03' })).totalElements).toBe(1);
      expect((await events('', { processNames: ['combine'] })).totalElements).toBe(0);
      expect((await events('', {}, 'sweden')).totalElements).toBe(0);
    });

    it('counts them, names their results, codes and severities', async () => {
      expect((await post('/api/eventlog/processingevent/count', {})).json()).toBe(4);
      expect((await post('/api/eventlog/processingevent/count', { severities: ['HIGH'] })).json()).toBe(2);
      expect((await post('/api/eventlog/processingevent/count', {}, RUNNER, 'sweden')).json()).toBe(0);
      expect((await post('/api/eventlog/processingevent/procedure-result-ids', {})).json()).toEqual([factorRun.id]);
      expect((await get('/api/eventlog/processingevent/errorcodes')).json()).toEqual(['56', '58']);
      expect((await get('/api/eventlog/processingevent/severities', AUDIT)).json()).toEqual(['HIGH', 'MEDIUM', 'LOW']);
      const byProcess = await get('/api/eventlog/processingevent/calculate-consumption-factor/errorcodesByProcess');
      expect(byProcess.json()).toEqual(['56', '58']);
      expect((await get('/api/eventlog/processingevent/combine/errorcodesByProcess')).json()).toEqual([]);
    });

    it('lists the processes of the Monitor, and those with events', async () => {
      const all = (await get('/api/domain/processes', 'consumer')).json<{ name: string; runnable: boolean }[]>();
      expect(all.map((p) => p.name)).toEqual(PROCEDURE_NAMES);
      expect(all.find((p) => p.name === 'payload-with-trainprofile')).toMatchObject({ runnable: false });
      expect((await get('/api/domain/processes/with-events')).json()).toEqual([
        { name: 'calculate-consumption-factor', category: null, runnable: true },
      ]);
    });
  });
});
