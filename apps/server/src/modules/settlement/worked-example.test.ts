import type { SettlementLine } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { RESPONSIBLE, workedMonth } from '../../test/worked-month.js';

/**
 * docs/settlement.md, run: the worked example's month from files to an approved settlement, through
 * the real calls (uploads, runs, reads), asserting every number the document shows. If a number
 * changes here, the document is wrong (or the code is): change both together.
 *
 * Norway (Europe/Oslo, UTC+2 on 1 October 2026), with the demo master data (seeded fleet,
 * infrastructure and administration kinds). Times below are UTC.
 */
describe('the worked example of docs/settlement.md', () => {
  let t: TestApp;
  const month = workedMonth(() => t);
  const { ids, norway, runForMonth, get } = month;
  /** Money to the cent, as the document shows it. */
  const cents = (x: number) => Number(x.toFixed(2));

  beforeAll(async () => {
    t = await createTestApp({
      seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
      jobs: {},
    });
    await month.setUp();
  }, 240_000);
  afterAll(async () => t?.close());

  it('runs the chain for the month and settles it as the document says, to the kWh and the cent', async () => {
    // Steps 1-5: train runs checked (then combine and the estimate, by the chain), CEBD checked
    // (then combine, shunting and stabling, energy outside train runs, by the chain).
    await runForMonth('train-preprocessing');
    await runForMonth('cebd-preprocessing');
    const byName = await t.allAreas.query<{ name: string; n: number }>(
      `SELECT procedure_name AS name, count(*)::int AS n FROM procedure_result
        WHERE tenant = $1 AND status = 'success' GROUP BY 1 ORDER BY 1`,
      [norway()],
    );
    expect(Object.fromEntries(byName.map((r) => [r.name, r.n]))).toMatchObject({
      'train-preprocessing': 1,
      // The file's check on arrival and the month's run.
      'cebd-preprocessing': 2,
      'reported-train-consumption': 1,
      'shunting-and-stabling': expect.any(Number),
      'energy-outside-train-run': expect.any(Number),
    });
    // Step 6-7: prices and supply, approved; then the settlement.
    const prices = await runForMonth('price-and-supply');
    const approvePrices = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [prices],
    });
    expect(approvePrices.statusCode, approvePrices.body).toBe(200);
    const settlement = await runForMonth('settlement');

    // The base verification (docs/settlement.md, "The month's balance").
    const q = 'startYear=2026&startMonth=10';
    type Row = {
      organisation: { name: string };
      priceArea: { name: string };
      supplyEnergy: number;
      meteredEnergy: number;
      estimatedEnergy: number;
      lossesEnergy: number;
      supplyCost: number;
    };
    const rows = await get<Row[]>(`/api/timeseries/settlement/settlementbaseverification?${q}`);
    expect(
      rows.map((r) => [
        r.priceArea.name,
        r.organisation.name,
        r.meteredEnergy,
        r.estimatedEnergy,
        r.lossesEnergy,
        r.supplyEnergy,
        Number(r.supplyCost.toFixed(2)),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 0, 120, 12, 132, 75.9],
      ['NO1', 'Vy Tog AS', 240, 0, 24, 264, 151.8],
      ['NO5', 'CargoNet AS', 0, 120, 12, 132, 37.95],
    ]);
    const balances = await get<{ priceArea: { name: string }; supplyEnergy: number; difference: number }[]>(
      `/api/timeseries/settlement/settlementbaseverification/balance?${q}`,
    );
    expect(balances.map((b) => [b.priceArea.name, b.supplyEnergy, b.difference])).toEqual([
      ['NO1', 396, 0],
      ['NO5', 132, 0],
    ]);

    // The settlement's lines with fees, tax and VAT ("The bill").
    const lines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${settlement}`);
    expect(
      lines.map((l) => [
        l.priceArea.name,
        l.organisation.name,
        l.supplyEnergy,
        cents(l.supplyCost),
        cents(l.gridFeeCost),
        cents(l.energyFeeCost),
        cents(l.taxCost),
        cents(l.vatCost),
        cents(l.totalCost),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 132, 75.9, 5.94, 1.12, 0.72, 20.92, 104.6],
      ['NO1', 'Vy Tog AS', 264, 151.8, 11.88, 2.24, 1.44, 41.84, 209.21],
      ['NO5', 'CargoNet AS', 132, 37.95, 5.94, 1.12, 0.72, 11.43, 57.17],
    ]);

    // Nothing to warn about: every line has its contract, and supply and prices are as priced.
    expect(await get(`/api/timeseries/settlement/warnings?procedureResultId=${settlement}`)).toEqual({
      procedureResultId: settlement,
      missingContracts: [],
      supplyChanged: null,
      repricedAfterSettlement: null,
      allocatedAfterPricing: null,
    });

    // Traceable: Vy's 240 kWh in NO1 are two hours of 120, each twelve records of 10 kWh from the file.
    const hours = await get<{ hourStart: string; gridArea: { uuid: string }; energy: number }[]>(
      `/api/timeseries/settlement/hourly?${q}&organisation=${ids['VY']}&priceArea=${ids['NO1']}&category=metered`,
    );
    expect(hours.map((h) => [h.hourStart, h.energy])).toEqual([
      ['2026-10-01T08:00:00.000Z', 120],
      ['2026-10-01T09:00:00.000Z', 120],
    ]);
    const behind = await get<{ activeConsumed: number; activeRegenerated: number; fileName: string }[]>(
      `/api/timeseries/settlement/records?organisation=${ids['VY']}&gridArea=${hours[0]!.gridArea.uuid}&hourStart=${hours[0]!.hourStart}`,
    );
    expect(behind).toHaveLength(12);
    expect(
      behind.every((r) => r.activeConsumed - r.activeRegenerated === 10 && r.fileName === 'cebd-2026-10-01.xml'),
    ).toBe(true);

    // Approved: the month's bill.
    const approve = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [settlement],
    });
    expect(approve.statusCode, approve.body).toBe(200);
  }, 300_000);

  it('invoices the next month on account from the approved settlement, and the next settlement reconciles it', async () => {
    // November 2026 in Oslo. CargoNet's on-account energy is set by hand to 300 kWh (parameter
    // overview); Vy takes 100 % (onAccountSharePercent) of October.
    const NOVEMBER = { start: '2026-10-31T23:00:00Z', end: '2026-11-30T23:00:00Z' };
    const set = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/timeseries/parameterOverview',
      payload: {
        typeName: 'on_account_energy',
        refs: [{ uuid: ids['CARGONET'], type: 'Organisation' }],
        timeRange: NOVEMBER,
        value: 300,
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    await runForMonth('on-account', NOVEMBER);
    const settlement = await runForMonth('settlement', NOVEMBER);
    const lines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${settlement}`);
    // Vy: October's 264 kWh and its whole bill, 209.2068. CargoNet: 300 kWh over its price areas as
    // in October (132 : 132, so 150 each) at October's price per kWh: NO1 104.6034 / 132 x 150 =
    // 118.8675, NO5 57.1659 / 132 x 150 = 64.96125. November has no energy: all of it is due back.
    expect(
      lines.map((l) => [
        l.priceArea.name,
        l.organisation.name,
        Number(l.onAccountEnergy.toFixed(4)),
        cents(l.onAccountCost),
        cents(l.totalCost),
        cents(l.dueCost),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 150, 118.87, 0, -118.87],
      ['NO1', 'Vy Tog AS', 264, 209.21, 0, -209.21],
      ['NO5', 'CargoNet AS', 150, 64.96, 0, -64.96],
    ]);
  }, 300_000);
});
