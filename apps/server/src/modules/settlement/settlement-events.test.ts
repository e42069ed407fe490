import { procedureResultSchema, type ProcessingEvent } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';

/**
 * Issue 18 item 5, through the procedure run: a settlement line whose organisation has no contract
 * valid in its price area is not billed silently; the run records a HIGH event naming the
 * organisation and the price area, and the warnings call lists the line.
 */
describe('settlement events', () => {
  let t: TestApp;
  const norway = () => t.areaUuid('norway');

  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
  });
  afterAll(async () => t?.close());

  it('records a HIGH contract-missing event naming the organisation and price area of a line without contract', async () => {
    const org = await insertEntity(t.allAreas, norway(), 'organisation', 'Events test RU', { orgId: 'EVT-RU' });
    const priceArea = await insertEntity(t.allAreas, norway(), 'pricearea', 'Events test NO9');
    const grid = await insertEntity(t.allAreas, norway(), 'gridarea', 'Events test grid', { priceAreaRef: priceArea });
    // Priced energy of 5 March 2024 (as price-and-supply writes it): 50 kWh at 500 NOK/MWh.
    await t.allAreas.query(
      `INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                  energy_kwh, price, cost)
       VALUES ($1, '2024-03-05T10:00:00Z', $2, $3, $4, 'metered', 50, 500, 25)`,
      [norway(), grid, priceArea, org],
    );
    const started = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/processing/tasks/settlement?year=2024&month=3&zoneId=Europe/Oslo',
      payload: { refs: [] },
    });
    expect(started.statusCode, started.body).toBe(200);
    const result = procedureResultSchema.parse(started.json());
    expect((await waitForRun(t.database, result.jobId!, { timeoutMs: 180_000 })).status).toBe('success');

    const events = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/eventlog/processingevent?size=50',
      payload: { procedureResultIds: [result.id] },
    });
    expect(events.statusCode, events.body).toBe(200);
    const missing = (events.json<{ content: ProcessingEvent[] }>().content ?? []).filter(
      (e) => e.errorCode === 'contract-missing',
    );
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ severity: 'HIGH', incidents: 1 });
    expect(missing[0]!.message).toBe(
      'No contract valid in the price area: Events test RU in Events test NO9 on 2024-03-05: energy billed without fees, tax and VAT',
    );

    const warnings = await t.callAs(RUNNER, {
      method: 'GET',
      url: `/api/timeseries/settlement/warnings?procedureResultId=${result.id}`,
    });
    expect(warnings.statusCode, warnings.body).toBe(200);
    expect(warnings.json()).toMatchObject({
      missingContracts: [
        {
          organisation: { uuid: org, name: 'Events test RU' },
          priceArea: { uuid: priceArea, name: 'Events test NO9' },
          days: 1,
        },
      ],
    });
  }, 300_000);
});
