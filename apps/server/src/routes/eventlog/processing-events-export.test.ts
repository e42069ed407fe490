import {
  procedureResultPageSchema,
  procedureResultSchema,
  processingEventPageSchema,
  type ProcedureResult,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTableWorkbook } from '../../formats/xlsx/table-workbook.js';
import { EVENTS_SHEET } from '../../modules/processing/events-export.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { withProcedures } from '../../test/procedures.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';
const AUDIT = 'audit-settlement-area-responsible';
const PATHS = ['/api/eventlog/processingevent/export', '/api/excel/eventlog/export'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
// More than an export holds (PAGE_SIZES.exportFetch).
const FLOOD = 10_001;

/**
 * events.xlsx (issue 9 item 7 "event monitor"): both export paths write the filtered events in the
 * monitor's sort, times on the area's clock and codes with their text; more than the export limit is
 * refused. Also the process log's `ids` filter the result view reads one result with.
 */
describe('processing events export (events.xlsx)', () => {
  let t: TestApp;
  let run: ProcedureResult;

  const start = async (procedure: string, timeRange: { start: string; end: string }) => {
    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: `/api/processing/${procedure}/run?zoneId=Europe/Oslo`,
      payload: { timeRange },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = procedureResultSchema.parse(response.json());
    await waitForRun(t.database, result.jobId!, { timeoutMs: 60_000 });
    return result;
  };
  const exportAs = (path: string, filter: object, username = RUNNER, query = '') =>
    t.callAs(username, { method: 'POST', url: `${path}${query}`, payload: filter });

  beforeAll(async () => {
    // Two area days: 58 (HIGH) about a consumption point on the first, a coded train-run event on the second.
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        'calculate-consumption-factor': {
          events: ['58', 'unknown-evn'],
          async run(_ctx, scope, report) {
            report.event(
              scope.chunk.index === 0
                ? { errorCode: '58', time: scope.start, entityIdentifier: 'CP-1', message: '=SUM(A1)' }
                : { errorCode: 'unknown-evn', severity: 'LOW', incidents: 3, time: scope.start },
            );
          },
        },
        'freight-consumption-factor': {
          events: ['56'],
          async run(_ctx, scope, report) {
            for (let i = 0; i < FLOOD; i++) report.event({ errorCode: '56', severity: 'MEDIUM', time: scope.start });
          },
        },
      }),
    });
    // 1 and 2 January 2024 in Oslo.
    run = await start('calculate-consumption-factor', { start: '2023-12-31T23:00:00Z', end: '2024-01-02T23:00:00Z' });
    await start('freight-consumption-factor', { start: '2023-12-31T23:00:00Z', end: '2024-01-01T23:00:00Z' });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it.each(PATHS)('%s writes the filtered events, sorted, with local times and code texts', async (path) => {
    const response = await exportAs(
      path,
      { processNames: ['calculate-consumption-factor'] },
      RUNNER,
      '?sortBy=time&descendingOrder=false',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toContain('events.xlsx');
    const [sheet] = await readTableWorkbook(response.rawPayload);
    expect(sheet!.name).toBe(EVENTS_SHEET);
    expect(sheet!.rows.map((r) => r.cells)).toEqual([
      {
        id: expect.any(Number) as number,
        time: '01.01.2024',
        processName: 'calculate-consumption-factor',
        errorCode: '58',
        errorText: 'Value outside expected limits',
        severity: 'HIGH',
        incidents: 1,
        entityIdentifier: 'CP-1',
        // Written escaped, read back as the text it was: never run as a formula.
        message: '=SUM(A1)',
        procedureResultId: run.id,
      },
      {
        id: expect.any(Number) as number,
        time: '02.01.2024',
        processName: 'calculate-consumption-factor',
        errorCode: 'unknown-evn',
        errorText: 'Unknown EVN',
        severity: 'LOW',
        incidents: 3,
        procedureResultId: run.id,
      },
    ]);
  });

  it('narrows by severity and answers the audit roles; refuses roles outside the process readers and strangers', async () => {
    const high = await exportAs(
      PATHS[0]!,
      { processNames: ['calculate-consumption-factor'], severities: ['HIGH'] },
      AUDIT,
    );
    expect(high.statusCode, high.body).toBe(200);
    const [sheet] = await readTableWorkbook(high.rawPayload);
    expect(sheet!.rows.map((r) => r.cells['errorCode'])).toEqual(['58']);

    for (const path of PATHS) {
      expect((await exportAs(path, {}, 'exchange-operator')).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: path, payload: {} })).statusCode).toBe(401);
    }
  });

  it('refuses bad input in the contract’s words, and more events than an export holds as query_timeout', async () => {
    const bad = await exportAs(PATHS[0]!, { severities: ['SEVERE'] });
    expect(bad.statusCode).toBe(400);
    const badSort = await exportAs(PATHS[1]!, {}, RUNNER, '?sortBy=password');
    expect(badSort.statusCode).toBe(400);

    const flood = await exportAs(PATHS[0]!, { processNames: ['freight-consumption-factor'] });
    expect(flood.statusCode).toBe(400);
    expect(flood.json()).toMatchObject({ code: 'query_timeout' });
    expect(flood.json<{ message: string }>().message).toContain(`${FLOOD} events`);
  });

  it('finds one event by id (the event view’s read)', async () => {
    const all = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/eventlog/processingevent?sortBy=time&descendingOrder=false',
      payload: { procedureResultIds: [run.id] },
    });
    const [first, second] = processingEventPageSchema.parse(all.json()).content;
    const one = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/eventlog/processingevent',
      payload: { ids: [second!.id] },
    });
    expect(processingEventPageSchema.parse(one.json()).content).toEqual([second]);
    expect(first!.errorCode).toBe('58');
  });

  it('finds one result by id in the process log (the result view’s read)', async () => {
    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/findBy?size=1',
      payload: { ids: [run.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = procedureResultPageSchema.parse(response.json());
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({
      id: run.id,
      procedureName: 'calculate-consumption-factor',
      status: 'success',
    });
    const elsewhere = await t.callAs(
      RUNNER,
      { method: 'POST', url: '/api/eventlog/procedure-result/findBy', payload: { ids: [run.id] } },
      'sweden',
    );
    expect(procedureResultPageSchema.parse(elsewhere.json()).totalElements).toBe(0);
  });
});
