import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataLogPage, TimeSeriesUploadResult } from '@railwatt/contracts';
import { tenantExecutor } from '../../db/tenant.js';
import { cebdXml } from '../../formats/cebd/generate.js';
import { writeUtilts } from '../../formats/utilts/utilts-writer.js';
import { saveEntities } from '../../modules/domain/service.js';
import { seedUuid } from '../../seed/entity-rows.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { consumptionPointCpids } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';
import { ADMIN_ACTOR } from '../../test/records.js';

const ADMIN = 'erex-administrator';
const RESPONSIBLE = 'settlement-area-responsible';
const PROVIDER = 'train-run-data-provider';

/**
 * The intake end to end through the API: upload, the import job on pg-boss, the data log, and the
 * data log's re-import after the master data is fixed (issue 8 items 2, 4, 6).
 */
describe('time-series upload and import', () => {
  let t: TestApp;
  let cpid = '';
  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure'], jobs: {} });
    [cpid] = (await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 1)) as [string];
  });
  afterAll(async () => t?.close());

  const upload = async (
    username: string,
    url: string,
    fileName: string,
    text: string,
    headers: Record<string, string> = {},
  ) => t.uploadAs(username, url, [{ fileName, bytes: text }], { headers });
  const entry = async (id: number) => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=1000' });
    expect(res.statusCode).toBe(200);
    return res.json<DataLogPage>().content.find((e) => e.id === id)!;
  };
  const cebdFile = (periods: number) =>
    [
      ...cebdXml({
        seed: 7,
        points: [
          {
            cpid,
            route: [
              { lat: 59.91, lon: 10.75 },
              { lat: 60.39, lon: 5.32 },
            ],
            start: new Date(Date.now() - 86_400_000).toISOString().slice(0, 11) + '00:00:00Z',
            periods,
          },
        ],
      }),
    ].join('');

  it('stores a CEBD upload with a job: the answer is async, the data log shows OK and the four series', async () => {
    const res = await upload(RESPONSIBLE, '/api/cebd/import', 'day.xml', cebdFile(12), { 'tenant-name': 'Norway' });
    expect(res.statusCode).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    expect(answer).toMatchObject({ success: true, async: true });
    const run = await waitForRun(t.database, answer.jobIds![0]!);
    expect(run).toMatchObject({ status: 'success', progress: 1 });
    expect(run.message).toMatch(/^Imported 48 values of 4 time series/);
    const logged = await entry(answer.dataLogIds![0]!);
    expect(logged).toMatchObject({ messageType: 'CEBD_IMPORT', messageStatus: 'OK', fileName: 'day.xml' });
    expect(
      logged.messageLogTimeSeries.map((s) => [s.timeSeriesType, s.entityIdentifier, s.valuesCount]).sort(),
    ).toEqual([
      ['cebd_active_energy_consumed', cpid, 12],
      ['cebd_active_energy_regenerated', cpid, 12],
      ['cebd_reactive_energy_consumed', cpid, 12],
      ['cebd_reactive_energy_regenerated', cpid, 12],
    ]);
  });

  it('refuses a tenant-name header that names another area', async () => {
    const res = await upload(RESPONSIBLE, '/api/cebd/import', 'day.xml', cebdFile(1), { 'tenant-name': 'Belgium' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a file of another format at once, with a REJECTED entry', async () => {
    const res = await upload(RESPONSIBLE, '/api/timeseries/import/edi', 'day.xml', cebdFile(1));
    const answer = res.json<TimeSeriesUploadResult>();
    expect(answer.success).toBe(false);
    expect(answer.sheetParseResults[0]!.failures[0]!.errorMessage).toMatch(/^Something is wrong with uploaded data/);
    expect((await entry(answer.dataLogIds![0]!)).messageStatus).toBe('REJECTED');
  });

  it('rejects a UTILTS file naming an unknown metering point, then re-imports it once the point exists', async () => {
    const utilts = writeUtilts({
      sender: '7080000000001',
      receiver: '7080000000002',
      reference: 'REF1',
      created: '2026-10-02T06:00:00Z',
      series: [
        { meteringPoint: 'SMP-NEW-1', start: '2026-10-01T00:00:00Z', resolution: 'PT1H', values: [100, 110, 120] },
      ],
    });
    const res = await upload(PROVIDER, '/api/timeseries/import/edi', 'supply.edi', utilts);
    const answer = res.json<TimeSeriesUploadResult>();
    const run = await waitForRun(t.database, answer.jobIds![0]!, { until: ['failure', 'success', 'dead'] });
    expect(run.status).toBe('failure');
    const rejected = await entry(answer.dataLogIds![0]!);
    expect(rejected.messageStatus).toBe('REJECTED');
    expect(rejected.messageText).toMatch(/segment \d+ \(LOC\), line \d+: Unknown metering point SMP-NEW-1/);

    const norway = t.areaUuid('norway');
    await tenantExecutor(t.database, norway).transaction((tx) =>
      saveEntities(tx, norway, ADMIN_ACTOR, [
        {
          type: 'SupplyMeteringPoint',
          name: 'SMP-NEW-1',
          supplyMeteringPointTypeRef: seedUuid('norway:supplymeteringpointtype:main'),
          gridAreaRef: seedUuid('norway:grid:NO1'),
        },
      ]),
    );
    // Re-import is the administrator's (product.md §6).
    const again = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/eventlog/datalog/reimport',
      payload: { id: rejected.id, messageType: rejected.messageType },
    });
    expect(again.statusCode).toBe(200);
    const original = await entry(rejected.id);
    expect(original.messageStatus).toBe('RETRIED');
    const newId = Number(/entry (\d+)/.exec(original.messageText ?? '')![1]);
    await expect.poll(async () => (await entry(newId))?.messageStatus, { timeout: 15_000 }).toBe('OK');
    const ok = await entry(newId);
    expect(ok.messageLogTimeSeries).toMatchObject([
      { timeSeriesType: 'supply_energy', entityIdentifier: 'SMP-NEW-1', valuesCount: 3 },
    ]);
  });

  it('stores a Nordic Ediel file: E66 monthly readings (MKS, LOC+239, DTM+597, SEQ numbering the readings) and an hourly series', async () => {
    const norway = t.areaUuid('norway');
    await tenantExecutor(t.database, norway).transaction((tx) =>
      saveEntities(
        tx,
        norway,
        ADMIN_ACTOR,
        ['SMP-EDIEL-1', 'SMP-EDIEL-2'].map((name) => ({
          type: 'SupplyMeteringPoint',
          name,
          supplyMeteringPointTypeRef: seedUuid('norway:supplymeteringpointtype:main'),
          gridAreaRef: seedUuid('norway:grid:NO1'),
        })),
      ),
    );
    const utilts = writeUtilts({
      sender: '91100',
      receiver: '92165',
      reference: 'E66REF1',
      created: '2026-11-02T06:00:00Z',
      offsetHours: 1,
      ediel: { gridArea: 'NO1' },
      series: [{ meteringPoint: 'SMP-EDIEL-2', start: '2026-09-30T23:00:00Z', resolution: 'PT1H', values: [4, 5, 6] }],
      monthly: [
        {
          meteringPoint: 'SMP-EDIEL-1',
          start: '2026-09-30T23:00:00Z',
          end: '2026-10-31T23:00:00Z',
          startReading: 10000,
          endReading: 11000.5,
          consumption: 1000.5,
        },
      ],
    });
    expect(utilts).toContain("LOC+239+NO1:SVK:260'");
    const res = await upload(PROVIDER, '/api/timeseries/import/edi', 'e66.edi', utilts);
    const answer = res.json<TimeSeriesUploadResult>();
    const run = await waitForRun(t.database, answer.jobIds![0]!, { until: ['failure', 'success', 'dead'] });
    expect(run.status).toBe('success');
    const ok = await entry(answer.dataLogIds![0]!);
    expect(ok.messageStatus).toBe('OK');
    expect(ok.messageLogTimeSeries?.map((s) => [s.timeSeriesType, s.entityIdentifier, s.valuesCount]).sort()).toEqual([
      ['supply_energy', 'SMP-EDIEL-1', 1],
      ['supply_energy', 'SMP-EDIEL-2', 3],
    ]);
  });

  it('exports the stored values as exportedtimeseries.xlsx, and answers No timeseries to download for none', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/excel/timeseries/export',
      payload: { typeName: 'supply_energy', timeRange: { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('exportedtimeseries.xlsx');
    const none = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/excel/timeseries/export',
      payload: { typeName: 'spot_price', timeRange: { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' } },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('No timeseries to download');
    // A CEBD type's values come from the records (cebd_record), one per period of the uploaded day.
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 11) + '00:00:00Z';
    const cebd = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/excel/timeseries/export',
      payload: {
        typeName: 'cebd_active_energy_consumed',
        timeRange: { start: day, end: new Date(Date.parse(day) + 86_400_000).toISOString() },
      },
    });
    expect(cebd.statusCode).toBe(200);
    const [logged] = await t.allAreas.query<{ text: string }>(
      `SELECT message_text AS text FROM data_log WHERE file_name = 'exportedtimeseries.xlsx' ORDER BY id DESC LIMIT 1`,
    );
    expect(logged?.text).toBe('Exported 12 values of 1 time series (cebd_active_energy_consumed)');
  });

  it('lists the types and keeps the maximum days since observation per area', async () => {
    const types = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/timeseries/types' });
    expect(types.json<{ typeName: string }[]>().map((x) => x.typeName)).toContain('spot_price');
    expect(
      (await t.callAs('erex-administrator', { method: 'GET', url: '/api/exchange/cebdinput/getmaxdays' })).json(),
    ).toEqual({
      maxDaysSinceObservation: 60,
    });
    const saved = await t.callAs('erex-administrator', {
      method: 'POST',
      url: '/api/exchange/cebdinput/save',
      payload: { maxDaysSinceObservation: 30 },
    });
    expect(saved.json()).toEqual({ maxDaysSinceObservation: 30 });
    expect(
      (
        await t.callAs('erex-administrator', { method: 'GET', url: '/api/exchange/cebdinput/getmaxdays' }, 'belgium')
      ).json(),
    ).toEqual({
      maxDaysSinceObservation: 60,
    });
  });
});
