import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The energycorrection report (docs/reports.md "energycorrection") ordered through POST
 * /processing/tasks/energycorrection on two settlement versions of October of known figures: the
 * approved version against the one it corrected, line by line (a line only one version has counts
 * 0 in the other); a month whose approved version corrected nothing has no rows; a consumer sees
 * its own organisation only.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const CONSUMER = 'consumer';
const OCTOBER = ['2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z'] as const;
const NOVEMBER = ['2026-10-31T23:00:00Z', '2026-11-30T23:00:00Z'] as const;

describe('energycorrection report', () => {
  let t: TestApp;
  let tenant = '';
  const versions = { corrected: 0, approved: 0, november: 0 };
  const org = { x: '', y: '', z: '' };

  const order = async (username: string, month: string): Promise<Record<string, string>[]> => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: `/api/processing/tasks/energycorrection?year=2026&month=${month}`,
      payload: { format: 'xml', zoneId: 'Europe/Oslo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(username, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    return [...file.body.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
      Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1]!, c[2]!])),
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    tenant = t.areaUuid('norway');
    org.x = await insertEntity(t.allAreas, tenant, 'organisation', 'Org X', { orgId: 'X1' });
    org.y = await insertEntity(t.allAreas, tenant, 'organisation', 'Org Y', { orgId: 'Y1' });
    org.z = await insertEntity(t.allAreas, tenant, 'organisation', 'Org Z', { orgId: 'Z1' });
    const east = await insertEntity(t.allAreas, tenant, 'pricearea', 'PA East');
    const west = await insertEntity(t.allAreas, tenant, 'pricearea', 'PA West');
    const result = async (status: string, [start, end]: readonly [string, string]) => {
      const [row] = await t.allAreas.query<{ id: number }>(
        `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
         VALUES ($1, 'settlement', $2, $3, $4, 'test') RETURNING id::int AS id`,
        [tenant, status, start, end],
      );
      return row!.id;
    };
    versions.corrected = await result('corrected', OCTOBER);
    versions.approved = await result('approved', OCTOBER);
    versions.november = await result('approved', NOVEMBER);
    // [result, day, organisation, price area, metered kWh, estimated kWh, metered cost, grid fee, VAT]
    const lines: [number, string, string, string, number, number, number, number, number][] = [
      [versions.corrected, '2026-10-05', org.x, east, 100, 0, 50, 4, 13.5],
      [versions.corrected, '2026-10-06', org.x, east, 20, 5, 10, 1, 2.75],
      [versions.corrected, '2026-10-05', org.y, east, 40, 0, 20, 2, 5.5],
      [versions.approved, '2026-10-05', org.x, east, 130, 0, 65, 5, 17.5],
      [versions.approved, '2026-10-06', org.x, east, 20, 5, 10, 1, 2.75],
      [versions.approved, '2026-10-07', org.z, west, 10, 0, 5, 0.5, 1.375],
      [versions.november, '2026-11-02', org.x, east, 1, 0, 1, 0, 0.25],
    ];
    for (const [id, day, organisation, priceArea, metered, estimated, cost, gridFee, vat] of lines)
      await t.allAreas.query(
        `INSERT INTO settlement_line (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid,
                                      metered_kwh, estimated_kwh, metered_cost, grid_fee_cost, vat_cost)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [tenant, id, day, organisation, priceArea, metered, estimated, cost, gridFee, vat],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('compares the approved version with the one it corrected, line by line', async () => {
    const rows = await order(RESPONSIBLE, 'OCTOBER');
    const version = { previousVersion: String(versions.corrected), settlementVersion: String(versions.approved) };
    expect(rows).toEqual([
      {
        organisation: 'Org X',
        organisationId: 'X1',
        priceArea: 'PA East',
        ...version,
        previousSupplyEnergy: '125.0000',
        supplyEnergy: '155.0000',
        supplyEnergyDifference: '30.0000',
        previousTotal: '81.2500',
        total: '101.2500',
        totalDifference: '20.0000',
      },
      {
        // Gone from the approved version.
        organisation: 'Org Y',
        organisationId: 'Y1',
        priceArea: 'PA East',
        ...version,
        previousSupplyEnergy: '40.0000',
        supplyEnergy: '0.0000',
        supplyEnergyDifference: '-40.0000',
        previousTotal: '27.5000',
        total: '0.0000',
        totalDifference: '-27.5000',
      },
      {
        // New in the approved version.
        organisation: 'Org Z',
        organisationId: 'Z1',
        priceArea: 'PA West',
        ...version,
        previousSupplyEnergy: '0.0000',
        supplyEnergy: '10.0000',
        supplyEnergyDifference: '10.0000',
        previousTotal: '0.0000',
        total: '6.8750',
        totalDifference: '6.8750',
      },
    ]);
  });

  it('has no rows for a month whose approved version corrected nothing', async () => {
    expect(await order(RESPONSIBLE, 'NOVEMBER')).toEqual([]);
  });

  it('shows a consumer its own organisation only', async () => {
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      tenant,
      CONSUMER,
      org.y,
    ]);
    const rows = await order(CONSUMER, 'OCTOBER');
    expect(rows.map((r) => [r['organisation'], r['totalDifference']])).toEqual([['Org Y', '-27.5000']]);
  });
});
