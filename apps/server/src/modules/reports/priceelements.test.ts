import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The priceelements report (docs/reports.md "priceelements") ordered through POST
 * /processing/tasks/priceelements on price elements of known figures: a grid fee whose price changes
 * in the month (two versions), an energy fee in the area's currency, a tax rate and a VAT percentage,
 * a fee that ended before the month left out.
 */
const RESPONSIBLE = 'settlement-area-responsible';

describe('priceelements report', () => {
  let t: TestApp;
  let tenant = '';

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    tenant = t.areaUuid('norway');
    const from = '2000-01-01T00:00:00Z';
    const change = '2026-10-15T00:00:00Z';
    const grid = await insertEntity(
      t.allAreas,
      tenant,
      'gridfeetype',
      'Grid fee A',
      { price: 12.5 },
      { from, until: change },
    );
    await t.allAreas.query(
      `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
       VALUES ($1, $2, 'gridfeetype', tstzrange($3::timestamptz, NULL), 'Grid fee A', '{"price": 14}'::jsonb, 'test')`,
      [grid, tenant, change],
    );
    await insertEntity(t.allAreas, tenant, 'energyfeetype', 'Balancing', { price: 30, currency: 'NOK' }, { from });
    await insertEntity(t.allAreas, tenant, 'taxcategory', 'Rail tax', { rate: 8.91 }, { from });
    await insertEntity(t.allAreas, tenant, 'vatcategory', 'VAT 25 %', { percentage: 25 }, { from });
    await insertEntity(
      t.allAreas,
      tenant,
      'gridfeetype',
      'Old fee',
      { price: 99 },
      { from, until: '2026-09-01T00:00:00Z' },
    );
  }, 120_000);
  afterAll(async () => t?.close());

  it('lists the versions in force in the month with their prices, rates and percentages', async () => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/processing/tasks/priceelements?year=2026&month=OCTOBER',
      payload: { format: 'csv', zoneId: 'Europe/Oslo', language: 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    const [header, ...body] = file.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));
    expect(header).toEqual([
      'Price element',
      'Name',
      'Valid from',
      'Valid until',
      'Price (EUR/MWh)',
      'Price (NOK/MWh)',
      'VAT rate (%)',
    ]);
    expect(body.map((r) => [r[0], r[1], r[3], r[4], r[5], r[6]])).toEqual([
      ['Grid fee', 'Grid fee A', '2026-10-15T02:00:00+02:00', '12.5000', '', ''],
      ['Grid fee', 'Grid fee A', '', '14.0000', '', ''],
      ['Energy fee', 'Balancing', '', '', '30.0000', ''],
      ['Tax', 'Rail tax', '', '', '8.9100', ''],
      ['VAT', 'VAT 25 %', '', '', '', '25.0000'],
    ]);
    expect(body[1]![2]).toBe('2026-10-15T02:00:00+02:00');
  });
});
