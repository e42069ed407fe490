import {
  ROLES,
  SECOND_AGGREGATION_MESSAGE,
  defaultConfig,
  type ProcessingConfigList,
  type Segment,
  type TuSettlementList,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../../db/tenant.js';
import { currentConfig, currentTuSettlementConfig, nearestSegment } from '../../modules/processing-config/service.js';
import { createTestApp, type TestApp } from '../../test/app.js';

// Processing configurations (calls.md §3, §7; issue 9 item 2) through the API.
const READERS: readonly string[] = ROLES.filter(
  (r) => r !== 'train-run-data-provider' && r !== 'exchange-operator' && r !== 'cp-admin' && r !== 'vehicle-keeper',
);
const WRITERS: readonly string[] = ['erex-administrator', 'settlement-area-responsible', 'erex-settlement-operator'];

describe('processing configuration', () => {
  let t: TestApp;
  const get = (username: string, url: string, area: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'GET', url: `/api/domain/processing-config/${url}` }, area);
  const post = (
    username: string,
    url: string,
    payload: Record<string, unknown>,
    area: 'norway' | 'sweden' | 'exchange' = 'norway',
  ) => t.callAs(username, { method: 'POST', url: `/api/domain/processing-config/${url}`, payload }, area);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the code defaults as version 0 when nothing is stored', async () => {
    const response = await get('erex-administrator', 'combine');
    expect(response.statusCode).toBe(200);
    const list = response.json<ProcessingConfigList>();
    expect(list).toMatchObject({ uuid: null, procedure: 'combine', tpa: false, segments: [] });
    expect(list.current).toMatchObject({ id: 0, value: { timeToleranceMinutes: 5 } });
    expect(list.current.timeRange).toEqual({ start: '1970-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' });
  });

  it('lets readers read and only writers write; audit roles read and cannot write', async () => {
    for (const role of ROLES) {
      const read = await get(role, 'cebd-preprocessing');
      expect([role, read.statusCode]).toEqual([role, READERS.includes(role) ? 200 : 403]);
      const write = await post(role, 'cebd-preprocessing', {
        validFrom: '2024-01-01T00:00:00Z',
        value: { maxMissingValuesPerHour: 3 },
      });
      expect([role, write.statusCode]).toEqual([role, WRITERS.includes(role) ? 200 : 403]);
    }
    expect(READERS).toContain('audit-settlement-area-responsible');
    expect(READERS).toContain('consumer');
  });

  it('refuses second aggregation days not above the first with the spec message', async () => {
    const response = await post('erex-administrator', 'metered-energy-aggregation', {
      name: 'MeteredEnergyAggregationConfig',
      type: 'MeteredEnergyAggregationConfig',
      validFrom: '2025-01-01T00:00:00Z',
      value: { daysBackFirstAggregation: 10, daysBackSecondAggregation: 10 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'invalid_input',
      errors: [{ field: 'value.daysBackSecondAggregation', message: SECOND_AGGREGATION_MESSAGE }],
    });
    const ok = await post('erex-administrator', 'metered-energy-aggregation', {
      validFrom: '2025-01-01T00:00:00Z',
      value: { daysBackFirstAggregation: 10, daysBackSecondAggregation: 11 },
    });
    expect(ok.statusCode).toBe(200);
    // The procedure option defaults to the second aggregation (calls.md §7).
    expect(ok.json<ProcessingConfigList>().current.value).toMatchObject({ defaultAggregation: 'SECOND' });
  });

  it('splits a version at a changed date and keeps the replaced version as history', async () => {
    const first = await post('settlement-area-responsible', 'shunting-and-stabling', {
      validFrom: '1970-01-01T00:00:00Z',
      value: { timeLimitAfterRunMinutes: 30 },
      comments: 'initial',
    });
    expect(first.statusCode).toBe(200);
    const second = await post('erex-settlement-operator', 'shunting-stabling', {
      validFrom: '2026-03-01T00:00:00Z',
      validTo: '2026-06-01T00:00:00Z',
      value: { timeLimitAfterRunMinutes: 90 },
      comments: 'spring',
    });
    expect(second.statusCode).toBe(200);
    const list = second.json<ProcessingConfigList>();
    expect(
      list.segments.map((s) => [s.timeRange.start, s.timeRange.end, s.value['timeLimitAfterRunMinutes'], s.comments]),
    ).toEqual([
      ['1970-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 30, 'initial'],
      ['2026-03-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', 90, 'spring'],
      ['2026-06-01T00:00:00.000Z', '2070-01-01T00:00:00.000Z', 30, 'initial'],
    ]);
    // The first remainder keeps who made it; the new version names its author.
    expect(list.segments[0]!.lastModifiedBy).toBe('settlement-area-responsible');
    expect(list.segments[1]!.lastModifiedBy).toBe('erex-settlement-operator');

    const history = await t.callAs('audit-settlement-area-responsible', {
      method: 'GET',
      url: `/api/domain/settlementconfiguration/versions/${list.uuid}`,
    });
    expect(history.statusCode).toBe(200);
    const versions = history.json<Segment[]>();
    expect(versions).toHaveLength(4);
    expect(versions.filter((v) => v.supersededAt)).toHaveLength(1);
    expect(versions.find((v) => v.supersededAt)?.timeRange).toEqual({
      start: '1970-01-01T00:00:00.000Z',
      end: '2070-01-01T00:00:00.000Z',
    });

    // The version in use is the one at refTime; currentConfig answers the same.
    const at = await get('consumer', 'shunting-and-stabling?refTime=2026-04-01T00:00:00Z');
    expect(at.json<ProcessingConfigList>().current.value).toEqual({ timeLimitAfterRunMinutes: 90 });
    const ctx = { db: tenantExecutor(t.database, t.areaUuid('norway')), tenant: { uuid: t.areaUuid('norway') } };
    expect(await currentConfig(ctx, 'shunting-and-stabling', '2026-04-01T00:00:00Z')).toEqual({
      timeLimitAfterRunMinutes: 90,
    });
    expect(await currentConfig(ctx, 'shunting-and-stabling', '2030-01-01T00:00:00Z')).toEqual({
      timeLimitAfterRunMinutes: 30,
    });
    expect(await currentConfig(ctx, 'price-and-supply')).toEqual(defaultConfig('price-and-supply'));
  });

  it('keeps the tpa twins of settlement and train-preprocessing apart', async () => {
    await post('erex-administrator', 'settlement', {
      tpa: true,
      validFrom: '2024-01-01T00:00:00Z',
      value: { approvalDeadlineDays: 3 },
    });
    const tpa = (await get('erex-administrator', 'settlement?tpa=true')).json<ProcessingConfigList>();
    const plain = (await get('erex-administrator', 'settlement')).json<ProcessingConfigList>();
    expect(tpa.current.value).toMatchObject({ tpa: true, approvalDeadlineDays: 3 });
    expect(plain.current).toMatchObject({ id: 0, value: { tpa: false, approvalDeadlineDays: 10 } });
    const train = (await get('erex-administrator', 'train-preprocessing?tpa=true')).json<ProcessingConfigList>();
    expect(train.tpa).toBe(true);
  });

  it('names the failing field, refuses the read-only configuration and an unknown procedure', async () => {
    const bad = await post('erex-administrator', 'train-preprocessing', {
      validFrom: '2024-01-01T00:00:00Z',
      value: { minGrossWeightPerVehicleTonnes: 'heavy' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('value.minGrossWeightPerVehicleTonnes');
    const readOnly = await post('erex-administrator', 'energy-outside-train-run', {
      validFrom: '2024-01-01T00:00:00Z',
      value: {},
    });
    expect(readOnly.statusCode).toBe(400);
    expect((await get('erex-administrator', 'nonsense')).statusCode).toBe(400);
    const reversed = await post('erex-administrator', 'combine', {
      validFrom: '2025-01-01T00:00:00Z',
      validTo: '2024-01-01T00:00:00Z',
      value: {},
    });
    expect(reversed.statusCode).toBe(400);
  });

  it('keeps configurations inside their area (row-level security)', async () => {
    const norway = (await get('erex-administrator', 'shunting-and-stabling')).json<ProcessingConfigList>();
    expect(norway.uuid).not.toBeNull();
    const sweden = (await get('erex-administrator', 'shunting-and-stabling', 'sweden')).json<ProcessingConfigList>();
    expect(sweden).toMatchObject({ uuid: null, segments: [] });
    const foreign = await t.callAs(
      'erex-administrator',
      { method: 'GET', url: `/api/domain/settlementconfiguration/versions/${norway.uuid}` },
      'sweden',
    );
    expect(foreign.statusCode).toBe(404);
    const seen = await tenantExecutor(t.database, t.areaUuid('sweden')).execute(
      sql`SELECT count(*)::int AS n FROM processing_config_segment`,
    );
    expect(seen.rows[0]).toEqual({ n: 0 });
    // Writing into another area is refused by the policy, and overlapping current versions by the EXCLUDE.
    const failure = (work: Promise<unknown>) =>
      work.then(
        () => 'stored',
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(
      await failure(
        tenantExecutor(t.database, t.areaUuid('sweden')).execute(
          sql`INSERT INTO processing_config (uuid, tenant, procedure) VALUES ('30000000-0000-4000-8000-000000000001'::uuid, ${t.areaUuid('norway')}::uuid, 'combine')`,
        ),
      ),
    ).toMatch(/row-level security/);
    expect(
      await failure(
        tenantExecutor(t.database, t.areaUuid('norway')).execute(
          sql`INSERT INTO processing_config_segment (config_uuid, tenant, valid, last_modified_by)
            VALUES (${norway.uuid}::uuid, ${t.areaUuid('norway')}::uuid, tstzrange('2026-04-01', '2026-05-01'), 'test')`,
        ),
      ),
    ).toMatch(/no_overlap/);
  });

  it('configures the transmission-unit settlement in each named area', async () => {
    const list = (
      await t.callAs('erex-administrator', { method: 'GET', url: '/api/domain/processing-config/tu-settlement' })
    ).json<TuSettlementList>();
    expect(list.map((a) => a.settlementAreaId).sort()).toEqual(
      [t.areaUuid('denmark'), t.areaUuid('norway'), t.areaUuid('sweden')].sort(),
    );
    const norway = t.areaUuid('norway');
    expect(list.find((a) => a.settlementAreaId === norway)?.current).toMatchObject({
      id: 0,
      value: { settleByTransmissionUnit: true, transmissionLossPercent: 0 },
    });
    // Saved from the exchange area, stored in (and read by) the norway area.
    const saved = await post(
      'erex-administrator',
      `tu-settlement/${norway}`,
      { validFrom: '2024-01-01T00:00:00Z', value: { settleByTransmissionUnit: false, transmissionLossPercent: 2.5 } },
      'exchange',
    );
    expect(saved.statusCode).toBe(200);
    const after = saved.json<TuSettlementList>().find((a) => a.settlementAreaId === norway)!;
    expect(after.current.value).toEqual({ settleByTransmissionUnit: false, transmissionLossPercent: 2.5 });
    const ctx = { db: tenantExecutor(t.database, norway), tenant: { uuid: norway } };
    expect(await currentTuSettlementConfig(ctx)).toEqual({
      settleByTransmissionUnit: false,
      transmissionLossPercent: 2.5,
    });
    const stored = await t.allAreas.query<{ tenant: string }>(
      `SELECT s.tenant::text AS tenant FROM processing_config_segment s
         JOIN processing_config c ON c.uuid = s.config_uuid WHERE c.procedure = 'tu-settlement'`,
    );
    expect(stored.map((r) => r.tenant)).toEqual([norway]);

    const audit = await post('audit-erex-settlement-operator', `tu-settlement/${norway}`, {
      validFrom: '2024-01-01T00:00:00Z',
      value: {},
    });
    expect(audit.statusCode).toBe(403);
    const other = await post('erex-administrator', `tu-settlement/${t.areaUuid('exchange')}`, {
      validFrom: '2024-01-01T00:00:00Z',
      value: {},
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('nearestSegment', () => {
  const s = (start: string, end: string) => ({ start, end });
  it('picks the containing version, else the nearest', () => {
    const list = [s('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'), s('2024-06-01T00:00:00Z', '2024-07-01T00:00:00Z')];
    expect(nearestSegment(list, '2024-01-15T00:00:00Z')).toBe(list[0]);
    expect(nearestSegment(list, '2024-05-20T00:00:00Z')).toBe(list[1]);
    expect(nearestSegment(list, '2024-02-05T00:00:00Z')).toBe(list[0]);
    expect(nearestSegment([], '2024-02-05T00:00:00Z')).toBeUndefined();
  });
});
