import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The energymarket report (docs/reports.md "energymarket") ordered through POST
 * /processing/tasks/energymarket on a supply balance of known figures: two grid areas of one price
 * area summed per hour, another price area apart, hours of another month left out; a consumer may
 * not order it.
 */
const RESPONSIBLE = 'settlement-area-responsible';

describe('energymarket report', () => {
  let t: TestApp;
  let tenant = '';

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    tenant = t.areaUuid('norway');
    const east = await insertEntity(t.allAreas, tenant, 'pricearea', 'PA East');
    const west = await insertEntity(t.allAreas, tenant, 'pricearea', 'PA West');
    const [g1, g2, g3] = [
      await insertEntity(t.allAreas, tenant, 'gridarea', 'Grid 1', { priceAreaRef: east }),
      await insertEntity(t.allAreas, tenant, 'gridarea', 'Grid 2', { priceAreaRef: east }),
      await insertEntity(t.allAreas, tenant, 'gridarea', 'Grid 3', { priceAreaRef: west }),
    ];
    await t.allAreas.query(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username)
       VALUES ($1, 'price-and-supply', 'approved', '2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z', 'test')`,
      [tenant],
    );
    // [hour start (UTC), grid area, price area, supply, allocated, losses, spot price]
    const balance: [string, string, string, number, number, number, number][] = [
      ['2026-10-01T08:00:00Z', g1, east, 100, 90, 10, 40.5],
      ['2026-10-01T08:00:00Z', g2, east, 50, 48, 2, 40.5],
      ['2026-10-01T09:00:00Z', g1, east, 80, 75, 5, 42],
      ['2026-10-01T08:00:00Z', g3, west, 30, 27.5, 2.5, 12.25],
      ['2026-09-30T21:00:00Z', g1, east, 999, 999, 0, 1],
    ];
    for (const [hour, grid, price, supply, allocated, losses, spot] of balance)
      await t.allAreas.query(
        `INSERT INTO supply_balance (tenant, hour_start, grid_area_uuid, price_area_uuid, supply_kwh, allocated_kwh,
                                     losses_kwh, spot_price_eur_mwh)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tenant, hour, grid, price, supply, allocated, losses, spot],
      );
  }, 120_000);
  afterAll(async () => t?.close());

  it('sums supply, consumption and losses per price area and hour, with the spot price', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/tasks/energymarket?year=2026&month=OCTOBER',
      payload: { format: 'xml', zoneId: 'Europe/Oslo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    const rows = [...file.body.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
      Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1], c[2]])),
    );
    expect(rows).toEqual([
      {
        priceArea: 'PA East',
        hour: '2026-10-01T10:00:00+02:00',
        supplyEnergy: '150.0000',
        consumptionEnergy: '138.0000',
        lossesEnergy: '12.0000',
        spotPrice: '40.5000',
      },
      {
        priceArea: 'PA East',
        hour: '2026-10-01T11:00:00+02:00',
        supplyEnergy: '80.0000',
        consumptionEnergy: '75.0000',
        lossesEnergy: '5.0000',
        spotPrice: '42.0000',
      },
      {
        priceArea: 'PA West',
        hour: '2026-10-01T10:00:00+02:00',
        supplyEnergy: '30.0000',
        consumptionEnergy: '27.5000',
        lossesEnergy: '2.5000',
        spotPrice: '12.2500',
      },
    ]);
  });

  it('is not the consumer’s to order', async () => {
    const res = await t.callAs('consumer', {
      method: 'POST',
      url: '/api/processing/tasks/energymarket?year=2026&month=10',
      payload: { format: 'csv' },
    });
    expect(res.statusCode).toBe(403);
  });
});
