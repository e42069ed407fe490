import { randomUUID } from 'node:crypto';
import {
  cebdDeliveryInfoAnswerSchema,
  cebdStatisticsSchema,
  completenessAnswerSchema,
  COMPLETENESS_MESSAGE,
  dashboardEventSchema,
  dashboardStatisticsItemSchema,
  offsetLagSchema,
  queueSizeSchema,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAllocatedRecord } from '../../modules/allocation/fixtures.js';
import { expectBadTokensRejected } from '../../test/access.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const RESPONSIBLE = 'settlement-area-responsible';
/** The range of the fixed-date data: one day long ago, so nothing of the recent data falls in it. */
const RANGE = 'timeRange=2026-01-10T00:00:00Z,2026-01-11T00:00:00Z';
const HOUR = 3_600_000;

/**
 * The statistics calls on small known data in Norway, with a few rows in Sweden that must never
 * show (area isolation). Every expected figure is counted by hand in the comments beside the data.
 */
describe('statistics', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const now = Date.now();
  const today = new Date(now - (now % (24 * HOUR))); // 00:00 UTC today
  const at = (ms: number) => new Date(ms).toISOString();
  // The latest records: CP1 two hours ago (recent), CP4 one hour ago; CP2 last in January.
  const cp1Latest = at(Math.floor((now - 2 * HOUR) / 300_000) * 300_000);
  const cp4Latest = at(Math.floor((now - HOUR) / 300_000) * 300_000);
  const cp2Latest = '2026-01-09T12:05:00Z';

  const q = (text: string, params: unknown[] = []) => t.allAreas.query(text, params);
  const addEntity = async (key: string, type: string, attributes: Record<string, unknown>, area = 'norway') => {
    const uuid = randomUUID();
    ids[key] = uuid;
    const tenant = t.areaUuid(area as 'norway');
    await q(`INSERT INTO entity (uuid, tenant, type, created_by) VALUES ($1, $2, $3, 'test')`, [uuid, tenant, type]);
    await q(
      `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
       VALUES ($1, $2, $3, tstzrange('2020-01-01', NULL), $4, $5::jsonb, 'test')`,
      [uuid, tenant, type, key, JSON.stringify(attributes)],
    );
    return uuid;
  };
  const dataLog = async (type: string, status: string, time: string, area = 'norway') => {
    const [row] = (await q(
      `INSERT INTO data_log (tenant, message_type, message_status, log_time_stamp) VALUES ($1, $2, $3, $4) RETURNING id`,
      [t.areaUuid(area as 'norway'), type, status, time],
    )) as [{ id: number }];
    return Number(row.id);
  };
  const position = (cp: string, periodEnd: string, dataLogId: number, area = 'norway') =>
    q(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, quality, traction_system, data_log_id)
       VALUES ($1, $2, $3, 46, '02', $4)`,
      [t.areaUuid(area as 'norway'), ids[cp], periodEnd, dataLogId],
    );
  const result = (procedure: string, status: string, started: string, period: string, area = 'norway') =>
    q(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, execute_start_time)
       VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz + interval '1 day', 'test', $5) RETURNING id`,
      [t.areaUuid(area as 'norway'), procedure, status, period, started],
    );
  const event = (code: string, severity: string, incidents: number, created: string, area = 'norway') =>
    q(
      `INSERT INTO processing_event (tenant, process_name, error_code, severity, incidents, event_time, created_at)
       VALUES ($1, 'combine', $2, $3, $4, $5, $5)`,
      [t.areaUuid(area as 'norway'), code, severity, incidents, created],
    );

  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
    const N = t.areaUuid('norway');
    // Organisations: VK1 and VK2 keep vehicles, RU1 is a railway undertaking that owns none.
    const vk1 = await addEntity('VK1', 'organisation', { orgId: 'VK1', organisationTypes: ['VEHICLE_KEEPER'] });
    const vk2 = await addEntity('VK2', 'organisation', { orgId: 'VK2', organisationTypes: ['VEHICLE_KEEPER'] });
    const ru1 = await addEntity('RU1', 'organisation', { orgId: 'RU1', organisationTypes: ['RAILWAY_UNDERTAKING'] });
    // Units: U1 (CP1, CP2) and U2 (CP3, never delivered) of VK1; U3 (CP4) of VK2.
    const u1 = await addEntity('U1', 'tractionunit', { evn: '917600100013', owner: vk1 });
    const u2 = await addEntity('U2', 'tractionunit', { evn: '917600100021', owner: vk1 });
    const u3 = await addEntity('U3', 'tractionunit', { evn: '917600100039', owner: vk2 });
    await addEntity('CP1', 'consumptionpoint', { cpid: 'CPID-1', tractionUnitRef: u1 });
    await addEntity('CP2', 'consumptionpoint', { cpid: 'CPID-2', tractionUnitRef: u1 });
    await addEntity('CP3', 'consumptionpoint', { cpid: 'CPID-3', tractionUnitRef: u2 });
    await addEntity('CP4', 'consumptionpoint', { cpid: 'CPID-4', tractionUnitRef: u3 });
    // Sweden: a unit that never delivered and a CEBD file with a record; Norway sees neither.
    const su = await addEntity('SU', 'tractionunit', { evn: '917600100047', owner: randomUUID() }, 'sweden');
    await addEntity('SCP', 'consumptionpoint', { cpid: 'CPID-S', tractionUnitRef: su }, 'sweden');

    // Files of 10 January 2026 (in RANGE): cebd-import OK, OK, ERROR (success 2, notSuccess 1, sum 3);
    // a train-run delete PARTLY_REJECTED (train-run-correction: other 1); a UTILTS upload PENDING
    // (uploads: initial 1); a domain workbook (no category). Sweden: one CEBD file (not counted).
    const fileA = await dataLog('CEBD_IMPORT', 'OK', '2026-01-10T06:00:00Z');
    const fileB = await dataLog('CEBD_IMPORT', 'OK', '2026-01-10T07:00:00Z');
    await dataLog('CEBD_IMPORT', 'ERROR', '2026-01-10T08:00:00Z');
    await dataLog('TRAIN_RUN_DELETE', 'PARTLY_REJECTED', '2026-01-10T09:00:00Z');
    await dataLog('UTILTS_IMPORT', 'PENDING', '2026-01-10T10:00:00Z');
    await dataLog('EXCEL_DOMAIN_IMPORT', 'OK', '2026-01-10T11:00:00Z');
    await dataLog('CEBD_IMPORT', 'OK', '2026-01-12T06:00:00Z'); // after RANGE
    const swedishFile = await dataLog('CEBD_IMPORT', 'OK', '2026-01-10T06:00:00Z', 'sweden');
    await position('SCP', '2026-01-09T10:05:00Z', swedishFile, 'sweden');
    // Records: file A has CP1 at 10:05, 10:10, 10:15 and CP2 at 12:05 (its latest); file B CP1 at 11:05.
    // cebd-import uniqueCPIDs in RANGE: CP1, CP2 = 2.
    for (const end of ['10:05', '10:10', '10:15']) await position('CP1', `2026-01-09T${end}:00Z`, fileA);
    await position('CP2', cp2Latest, fileA);
    await position('CP1', '2026-01-09T11:05:00Z', fileB);
    // Today's file C (00:01 UTC): CP1 at cp1Latest and 5 minutes before, CP4 at cp4Latest.
    // Yesterday's file D failed without records.
    const fileC = await dataLog('CEBD_IMPORT', 'OK', at(today.getTime() + 60_000));
    await dataLog('CEBD_IMPORT', 'FAILED', at(today.getTime() - 12 * HOUR));
    const cp1Before = at(Date.parse(cp1Latest) - 300_000);
    await position('CP1', cp1Before, fileC);
    await position('CP1', cp1Latest, fileC);
    await position('CP4', cp4Latest, fileC);
    // Preprocessed: CP1 10:05 and CP2 12:05 in RANGE (preprocessing uniqueCPIDs 2), both valid and
    // allocated in RANGE (combine 1: CP1's train run; shunting-and-stabling 1: CP2); today CP1's two
    // records, one valid (not allocated: combine waits for 1) and one with code 58.
    // cebd-preprocessing writes its decision onto the record's row (the file stays the record's).
    const pre = (cp: string, end: string, codes: string, processed: string, file: number) =>
      q(
        `UPDATE cebd_record SET traction_unit_uuid = $4, codes = $5::smallint[], checked_at = $6
          WHERE tenant = $1 AND consumption_point_uuid = $2 AND period_end = $3 AND data_log_id = $7`,
        [N, ids[cp], end, u1, codes, processed, file],
      );
    await pre('CP1', '2026-01-09T10:05:00Z', '{}', '2026-01-10T12:00:00Z', fileA);
    await pre('CP2', cp2Latest, '{}', '2026-01-10T12:00:00Z', fileA);
    await pre('CP1', cp1Before, '{}', at(now), fileC);
    await pre('CP1', cp1Latest, '{58}', at(now), fileC);
    const allocate = (cp: string, end: string, category: 'train-run' | 'shunting-and-stabling') =>
      insertAllocatedRecord(t.allAreas, {
        tenant: N,
        consumptionPoint: ids[cp]!,
        periodEnd: end,
        tractionUnit: u1,
        category,
        allocatedAt: '2026-01-10T13:00:00Z',
      });
    await allocate('CP1', '2026-01-09T10:05:00Z', 'train-run');
    await allocate('CP2', cp2Latest, 'shunting-and-stabling');

    // Runs started in RANGE: combine success, failure, running (combine: running 1, success 1,
    // notSuccess 1, sum 3); cebd-preprocessing approved and train-preprocessing initial
    // (preprocessing: initial 1, success 1, sum 2); settlement (no category). Outside: combine on the 12th.
    await result('combine', 'success', '2026-01-10T01:00:00Z', '2026-01-01');
    await result('combine', 'failure', '2026-01-10T02:00:00Z', '2026-01-02');
    await result('combine', 'running', '2026-01-10T03:00:00Z', '2026-01-03');
    await result('cebd-preprocessing', 'approved', '2026-01-10T04:00:00Z', '2026-01-01');
    await result('train-preprocessing', 'initial', '2026-01-10T05:00:00Z', '2026-01-01');
    await result('settlement', 'success', '2026-01-10T06:00:00Z', '2026-01-01');
    await result('combine', 'success', '2026-01-12T01:00:00Z', '2026-01-04');
    await result('combine', 'success', '2026-01-10T01:00:00Z', '2026-01-01', 'sweden');
    // Events recorded in RANGE: match-energy-failed HIGH 2 + 3 = 5, no-metered-data-received LOW 1;
    // one after RANGE and one in Sweden are not counted.
    await event('match-energy-failed', 'HIGH', 2, '2026-01-10T01:00:00Z');
    await event('match-energy-failed', 'HIGH', 3, '2026-01-10T02:00:00Z');
    await event('no-metered-data-received', 'LOW', 1, '2026-01-10T03:00:00Z');
    await event('match-energy-failed', 'HIGH', 7, '2026-01-12T01:00:00Z');
    await event('match-energy-failed', 'HIGH', 11, '2026-01-10T01:00:00Z', 'sweden');
    // Train runs of RU1: 5 January checked, 6 January not (waits), 4 January deleted (not counted).
    const tc = await addEntity('TC', 'trafficcategory', {});
    const run = async (train: string, day: string, deleted = false) => {
      const [row] = (await q(
        `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                gross_tonne_km, data_log_id, deleted)
         VALUES ($1, $2, $3, $4, $5, $3::timestamptz + interval '8 hours', $3::timestamptz + interval '9 hours', 100, $6, $7)
         RETURNING id`,
        [N, train, day, ru1, tc, fileA, deleted],
      )) as [{ id: number }];
      return Number(row.id);
    };
    const checked = await run('101', '2026-01-05');
    await run('102', '2026-01-06');
    await run('103', '2026-01-04', true);
    await q(`INSERT INTO train_run_check (tenant, train_run_id, operating_day) VALUES ($1, $2, '2026-01-05')`, [
      N,
      checked,
    ]);
  });
  afterAll(async () => t?.close());

  describe('GET /statistics/dashboardstatistics', () => {
    it('counts runs and files per category and status, their consumption points, in the range and the area', async () => {
      const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/statistics/dashboardstatistics?${RANGE}` });
      expect(res.statusCode, res.body).toBe(200);
      const items = dashboardStatisticsItemSchema.array().parse(res.json());
      const of = (type: string) => items.find((i) => i.type === type);
      expect(items).toHaveLength(17);
      const zero = { initial: 0, running: 0, success: 0, notSuccess: 0, other: 0, queue: 0 };
      expect(of('combine')).toEqual({
        type: 'combine',
        ...zero,
        running: 1,
        success: 1,
        notSuccess: 1,
        sum: 3,
        uniqueCPIDs: 1,
      });
      expect(of('preprocessing')).toEqual({
        type: 'preprocessing',
        ...zero,
        initial: 1,
        success: 1,
        sum: 2,
        uniqueCPIDs: 2,
      });
      expect(of('cebd-import')).toEqual({
        type: 'cebd-import',
        ...zero,
        success: 2,
        notSuccess: 1,
        sum: 3,
        uniqueCPIDs: 2,
      });
      expect(of('train-run-correction')).toEqual({
        type: 'train-run-correction',
        ...zero,
        other: 1,
        sum: 1,
        uniqueCPIDs: null,
      });
      expect(of('uploads')).toEqual({ type: 'uploads', ...zero, initial: 1, sum: 1, uniqueCPIDs: null });
      expect(of('shunting-and-stabling')).toEqual({ type: 'shunting-and-stabling', ...zero, sum: 0, uniqueCPIDs: 1 });
      expect(of('reports')).toEqual({ type: 'reports', ...zero, sum: 0, uniqueCPIDs: null });
    });

    it('refuses a range whose end is before its start, and an unknown zone', async () => {
      for (const url of [
        '/api/statistics/dashboardstatistics?timeRange=2026-01-11T00:00:00Z,2026-01-10T00:00:00Z',
        '/api/statistics/dashboardstatistics?zoneId=Mars/Olympus',
      ]) {
        const res = await t.callAs(RESPONSIBLE, { method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
      }
    });

    it('is refused without a valid token (401) and to the train-run data provider (403)', async () => {
      await expectBadTokensRejected(t, {
        method: 'GET',
        url: '/api/statistics/dashboardstatistics',
        username: RESPONSIBLE,
        tenant: t.areaUuid('norway'),
      });
      const res = await t.callAs('train-run-data-provider', {
        method: 'GET',
        url: '/api/statistics/dashboardstatistics',
      });
      expect(res.statusCode).toBe(403);
    });

    it("shows another area's own figures, not Norway's", async () => {
      const res = await t.callAs(
        RESPONSIBLE,
        { method: 'GET', url: `/api/statistics/dashboardstatistics?${RANGE}` },
        'sweden',
      );
      const items = dashboardStatisticsItemSchema.array().parse(res.json());
      expect(items.find((i) => i.type === 'combine')).toMatchObject({ success: 1, sum: 1 });
      expect(items.find((i) => i.type === 'cebd-import')).toMatchObject({ success: 1, sum: 1, uniqueCPIDs: 1 });
    });
  });

  it('GET /statistics/dashboardevents sums incidents per process, code and severity, HIGH first', async () => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/statistics/dashboardevents?${RANGE}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(dashboardEventSchema.array().parse(res.json())).toEqual([
      { processName: 'combine', errorCode: 'match-energy-failed', severity: 'HIGH', incidents: 5 },
      { processName: 'combine', errorCode: 'no-metered-data-received', severity: 'LOW', incidents: 1 },
    ]);
  });

  it('GET /statistics/cebd counts the files, records and their checks per day of the last seven', async () => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/statistics/cebd?zoneId=UTC' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = cebdStatisticsSchema.parse(res.json());
    expect(answer.zoneId).toBe('UTC');
    expect(answer.days.map((d) => d.day)).toEqual(
      Array.from({ length: 7 }, (_, i) => at(today.getTime() - (6 - i) * 24 * HOUR).slice(0, 10)),
    );
    const empty = {
      files: 0,
      failedFiles: 0,
      records: 0,
      consumptionPoints: 0,
      preprocessed: 0,
      valid: 0,
      withErrors: 0,
    };
    // Today: file C with 3 records (CP1 twice, CP4), 2 preprocessed (CP1: one valid, one with code 58).
    expect(answer.days[6]).toEqual({
      day: answer.days[6]!.day,
      files: 1,
      failedFiles: 0,
      records: 3,
      consumptionPoints: 2,
      preprocessed: 2,
      valid: 1,
      withErrors: 1,
    });
    // Yesterday: file D failed, no records.
    expect(answer.days[5]).toEqual({ day: answer.days[5]!.day, ...empty, files: 1, failedFiles: 1 });
    expect(answer.days.slice(0, 5).every((d) => d.files === 0 && d.records === 0)).toBe(true);
  });

  it('GET /statistics/offset-lag counts the work waiting per stage with its oldest item', async () => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/statistics/offset-lag' });
    expect(res.statusCode, res.body).toBe(200);
    // Not preprocessed: CP1 10:10 and 10:15 (file A), CP1 11:05 (file B), CP4 today = 4, oldest 10:10.
    // Valid, not allocated: CP1 today (cp1Before) = 1. Train runs not checked: the 6 January run.
    expect(offsetLagSchema.parse(res.json())).toEqual([
      { stage: 'cebd-preprocessing', waiting: 4, oldest: '2026-01-09T10:10:00.000Z' },
      { stage: 'combine', waiting: 1, oldest: new Date(Date.parse(cp1Latest) - 300_000).toISOString() },
      { stage: 'train-preprocessing', waiting: 1, oldest: '2026-01-06' },
    ]);
  });

  describe('GET /statistics/completenessverification/tractionunits', () => {
    it('lists the units with a point silent for longer than the threshold, never-delivered first', async () => {
      const before = Date.now();
      const res = await t.callAs(RESPONSIBLE, {
        method: 'GET',
        url: '/api/statistics/completenessverification/tractionunits?threshold=24',
      });
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(200);
      const rows = completenessAnswerSchema.parse(res.json());
      // U2 (CP3 never delivered), then U1 (CP2 last on 9 January; CP1 two hours ago). U3 delivered an hour ago.
      expect(rows.map((r) => r.name)).toEqual(['U2', 'U1']);
      expect(rows[0]).toMatchObject({ lastDelivery: null, hoursMissing: null, ownerName: 'VK1' });
      expect(rows[0]!.consumptionPoints).toEqual([
        { uuid: ids['CP3'], cpid: 'CPID-3', lastDelivery: null, hoursMissing: null, missing: true },
      ]);
      const u1 = rows[1]!;
      expect(u1.lastDelivery).toBe('2026-01-09T12:05:00.000Z');
      const hours = (ms: number) => Math.floor((ms - Date.parse(cp2Latest)) / HOUR);
      expect(u1.hoursMissing).toBeGreaterThanOrEqual(hours(before));
      expect(u1.hoursMissing).toBeLessThanOrEqual(hours(after));
      expect(u1.consumptionPoints.map((p) => [p.cpid, p.missing, p.lastDelivery])).toEqual([
        ['CPID-1', false, new Date(cp1Latest).toISOString()],
        ['CPID-2', true, '2026-01-09T12:05:00.000Z'],
      ]);
    });

    it('keeps only the never-delivered unit under a threshold of ten years', async () => {
      const res = await t.callAs(RESPONSIBLE, {
        method: 'GET',
        url: '/api/statistics/completenessverification/tractionunits?threshold=87600',
      });
      expect(completenessAnswerSchema.parse(res.json()).map((r) => r.name)).toEqual(['U2']);
    });

    it('refuses a threshold under 24 hours with the message of the spec', async () => {
      const res = await t.callAs(RESPONSIBLE, {
        method: 'GET',
        url: '/api/statistics/completenessverification/tractionunits?threshold=23',
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(COMPLETENESS_MESSAGE);
    });

    it('is open to the train-run data provider and the exchange roles, and lists only the area’s units', async () => {
      for (const [user, area] of [
        ['train-run-data-provider', 'norway'],
        ['cp-admin', 'norway'],
      ] as const) {
        const res = await t.callAs(
          user,
          { method: 'GET', url: '/api/statistics/completenessverification/tractionunits' },
          area,
        );
        expect(res.statusCode, user).toBe(200);
      }
      const swedish = await t.callAs(
        RESPONSIBLE,
        { method: 'GET', url: '/api/statistics/completenessverification/tractionunits' },
        'sweden',
      );
      expect(completenessAnswerSchema.parse(swedish.json()).map((r) => r.name)).toEqual(['SU']);
    });
  });

  it('GET /statistics/cebd-delivery-info answers per organisation of the type its units and latest delivery', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'GET',
      url: '/api/statistics/cebd-delivery-info?orgType=VEHICLE_KEEPER',
    });
    expect(res.statusCode, res.body).toBe(200);
    const todayFile = at(today.getTime() + 60_000);
    // VK1: U1, U2; CP1, CP2, CP3; CP1 delivered this week; latest CP1's (file C). VK2: U3 with CP4.
    expect(cebdDeliveryInfoAnswerSchema.parse(res.json())).toEqual([
      {
        organisationUuid: ids['VK1'],
        name: 'VK1',
        tractionUnits: 2,
        consumptionPoints: 3,
        deliveringConsumptionPoints: 1,
        lastDelivery: cp1Latest,
        lastReceived: todayFile,
      },
      {
        organisationUuid: ids['VK2'],
        name: 'VK2',
        tractionUnits: 1,
        consumptionPoints: 1,
        deliveringConsumptionPoints: 1,
        lastDelivery: cp4Latest,
        lastReceived: todayFile,
      },
    ]);
    const ru = await t.callAs(RESPONSIBLE, {
      method: 'GET',
      url: '/api/statistics/cebd-delivery-info?orgType=RAILWAY_UNDERTAKING',
    });
    expect(cebdDeliveryInfoAnswerSchema.parse(ru.json())).toEqual([
      {
        organisationUuid: ids['RU1'],
        name: 'RU1',
        tractionUnits: 0,
        consumptionPoints: 0,
        deliveringConsumptionPoints: 0,
        lastDelivery: null,
        lastReceived: null,
      },
    ]);
    const bad = await t.callAs(RESPONSIBLE, {
      method: 'GET',
      url: '/api/statistics/cebd-delivery-info?orgType=BRANCH',
    });
    expect(bad.statusCode).toBe(400);
  });

  it("GET /statistics/queue-size counts the area's jobs waiting in pg-boss per category", async () => {
    // Two combine runs and one CEBD file wait in Norway, one combine run in Sweden: pg-boss holds
    // them (startAfter an hour, so no worker takes them during the test); job_run names their area.
    const boss = t.app.jobs.boss!;
    const N = t.areaUuid('norway');
    const waitJob = async (
      area: string,
      queue: string,
      link: { procedure?: string; period?: string; dataLogId?: number },
    ) => {
      const id = randomUUID();
      await q(`INSERT INTO job_run (id, tenant, name, username, data_log_id) VALUES ($1, $2, $3, 'test', $4)`, [
        id,
        area,
        queue,
        link.dataLogId ?? null,
      ]);
      if (link.procedure)
        await q(
          `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, job_id)
           VALUES ($1, $2, 'initial', $3::timestamptz, $3::timestamptz + interval '1 day', 'test', $4)`,
          [area, link.procedure, link.period, id],
        );
      await boss.send(queue, { tenant: area, username: 'test', roles: [], payload: {} }, { id, startAfter: 3600 });
    };
    await waitJob(N, 'procedure-run', { procedure: 'combine', period: '2025-06-01' });
    await waitJob(N, 'procedure-run', { procedure: 'combine', period: '2025-06-02' });
    await waitJob(N, 'timeseries-import', {
      dataLogId: await dataLog('CEBD_IMPORT', 'RUNNING', '2025-06-01T00:00:00Z'),
    });
    await waitJob(t.areaUuid('sweden'), 'procedure-run', { procedure: 'combine', period: '2025-06-01' });
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/statistics/queue-size' });
    expect(res.statusCode, res.body).toBe(200);
    const queue = queueSizeSchema.parse(res.json());
    expect(queue).toMatchObject({ combine: 2, 'cebd-import': 1, preprocessing: 0 });
    expect(Object.values(queue).reduce((a, b) => a + b, 0)).toBe(3);
    const stats = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/statistics/dashboardstatistics?${RANGE}` });
    expect(
      dashboardStatisticsItemSchema
        .array()
        .parse(stats.json())
        .find((i) => i.type === 'combine')?.queue,
    ).toBe(2);
  });
});
