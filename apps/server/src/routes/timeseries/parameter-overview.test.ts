import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';

const RESPONSIBLE = 'settlement-area-responsible';
const AUDITOR = 'audit-settlement-area-responsible';
/** October to December 2026 in Oslo. */
const Q3 = { start: '2026-09-30T22:00:00.000Z', end: '2026-12-31T23:00:00.000Z' };

/**
 * The parameter overview's calls (issue 10 item 1): monthly values per entity kept as time series,
 * with their history; the audit roles read and cannot write.
 */
describe('parameter overview', () => {
  let t: TestApp;
  let profile = '';

  const overview = async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'GET',
      url: `/api/timeseries/parameterOverview?typeName=consumption_factor_trainprofile&start=${Q3.start}&end=${Q3.end}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{
      periods: { start: string }[];
      rows: { ref: { name: string }; values: (number | null)[] }[];
    }>();
    return { periods: answer.periods, heavy: answer.rows.find((r) => r.ref.name === 'Heavy freight')!.values };
  };
  const write = (username: string, path: '' | '/invalidate', body: Record<string, unknown>) =>
    t.callAs(username, { method: 'POST', url: `/api/timeseries/parameterOverview${path}`, payload: body });

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'administration'] });
    [{ uuid: profile }] = (await t.allAreas.query<{ uuid: string }>(
      `SELECT entity_uuid::text AS uuid FROM entity_latest WHERE tenant = $1 AND type = 'trainprofile' AND name = 'Heavy freight'`,
      [t.areaUuid('norway')],
    )) as [{ uuid: string }];
  });
  afterAll(async () => t?.close());

  it('lists the parameter types', async () => {
    const res = await t.callAs(AUDITOR, { method: 'GET', url: '/api/timeseries/parameterOverview/types' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ typeName: string; refKind: string }[]>().map((p) => `${p.typeName}:${p.refKind}`)).toEqual([
      'consumption_factor_trainprofile:trainprofile',
      'consumption_factor_trafficcategory:trafficcategory',
      'on_account_energy:organisation',
    ]);
  });

  it('saves a value for every month of the range, changes one, removes one, and keeps what it replaced', async () => {
    const refs = [{ uuid: profile, type: 'TrainProfile' }];
    const saved = await write(RESPONSIBLE, '', {
      typeName: 'consumption_factor_trainprofile',
      refs,
      timeRange: { start: Q3.start, end: '2026-11-30T23:00:00.000Z' },
      value: 0.02,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ months: 2, values: 2 });
    const first = await overview();
    expect(first.periods.map((p) => p.start)).toEqual([
      '2026-09-30T22:00:00.000Z',
      '2026-10-31T23:00:00.000Z',
      '2026-11-30T23:00:00.000Z',
    ]);
    expect(first.heavy).toEqual([0.02, 0.02, null]);

    // November changed, October removed.
    const november = { start: '2026-10-31T23:00:00.000Z', end: '2026-11-30T23:00:00.000Z' };
    expect(
      (
        await write(RESPONSIBLE, '', {
          typeName: 'consumption_factor_trainprofile',
          refs,
          timeRange: november,
          value: 0.025,
        })
      ).statusCode,
    ).toBe(200);
    const removed = await write(RESPONSIBLE, '/invalidate', {
      typeName: 'consumption_factor_trainprofile',
      refs,
      timeRange: { start: Q3.start, end: november.start },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await overview()).heavy).toEqual([null, 0.025, null]);
    const history = await t.allAreas.query<{ value: string; by: string }>(
      `SELECT h.value::text AS value, h.superseded_by AS by FROM time_series_value_superseded h
         JOIN time_series s ON s.id = h.series_id WHERE s.type_name = 'consumption_factor_trainprofile' ORDER BY h.start_time`,
    );
    expect(history).toEqual([
      { value: '0.02', by: RESPONSIBLE },
      { value: '0.02', by: RESPONSIBLE },
    ]);
  });

  it('refuses the audit role, an entity of another kind and a reversed range', async () => {
    const body = {
      typeName: 'consumption_factor_trainprofile',
      refs: [{ uuid: profile, type: 'TrainProfile' }],
      timeRange: Q3,
      value: 1,
    };
    expect((await write(AUDITOR, '', body)).statusCode).toBe(403);
    const [org] = await t.allAreas.query<{ uuid: string }>(
      `SELECT entity_uuid::text AS uuid FROM entity_latest WHERE tenant = $1 AND type = 'vatcategory' LIMIT 1`,
      [t.areaUuid('norway')],
    );
    const wrongKind = await write(RESPONSIBLE, '', { ...body, refs: [{ uuid: org!.uuid, type: 'VatCategory' }] });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json<{ message: string }>().message).toContain('Not a trainprofile of the area');
    const reversed = await write(RESPONSIBLE, '', { ...body, timeRange: { start: Q3.end, end: Q3.start } });
    expect(reversed.statusCode).toBe(400);
  });
});
