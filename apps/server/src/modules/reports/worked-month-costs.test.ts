import type { SettlementLine } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvTable } from '../../formats/csv/csv-table.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';
import { HIRED_EVN, RESPONSIBLE, workedMonth } from '../../test/worked-month.js';

/**
 * The on-account, cost, area and non-metered reports on docs/settlement.md's worked month:
 * October settled and approved, then November invoiced on account (Vy 100 % of October, CargoNet's
 * 300 kWh set by hand) and settled, which reconciles it. Each report is ordered through POST
 * /processing/tasks/{reportName}, downloaded, and its figures compared with the settlement lines
 * and the document, to the kWh and the cent; the invoice reports sum to the invoice total with VAT;
 * a consumer sees its own organisation only.
 */
const CONSUMER = 'consumer';
const NOVEMBER = { start: '2026-10-31T23:00:00Z', end: '2026-11-30T23:00:00Z' };
const cents = (x: number | string | undefined) => Number(Number(x).toFixed(2));
const round4 = (x: number) => Number(x.toFixed(4));

describe('on-account, cost and area reports of the worked month (docs/settlement.md)', () => {
  let t: TestApp;
  const month = workedMonth(() => t);
  const { ids, norway, runForMonth, get } = month;
  let october = 0;
  let november = 0;
  let octoberLines: SettlementLine[] = [];
  let novemberLines: SettlementLine[] = [];

  /** Orders a report as `username` and answers its rows as objects by header (csv) or by key (xml). */
  const order = async (
    username: string,
    report: string,
    body: Record<string, unknown>,
    query = 'year=2026&month=OCTOBER',
  ): Promise<Record<string, string>[]> => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: `/api/processing/tasks/${report}?${query}`,
      payload: { language: 'en', zoneId: 'Europe/Oslo', ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(username, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(file.statusCode, file.body).toBe(200);
    if (body['format'] === 'xml')
      return [...file.body.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
        Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1]!, c[2]!])),
      );
    // The house CSV's reader (quoted fields such as "Elavgift, redusert sats (bane)"); an empty cell as ''.
    const table = readCsvTable(file.body);
    return table.rows.map((r) => Object.fromEntries(table.columns.map((c) => [c, r.cells[c] ?? ''])));
  };
  const approve = async (id: number) => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [id],
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({
      seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
      jobs: {},
    });
    await month.setUp();
    await runForMonth('train-preprocessing');
    await runForMonth('cebd-preprocessing');
    await approve(await runForMonth('price-and-supply'));
    october = await runForMonth('settlement');
    await approve(october);
    octoberLines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${october}`);
    expect(octoberLines).toHaveLength(3);
    // November: CargoNet's on-account energy set by hand to 300 kWh; Vy takes 100 % of October.
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
    november = await runForMonth('settlement', NOVEMBER);
    await approve(november);
    novemberLines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${november}`);
    expect(novemberLines).toHaveLength(3);
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      norway(),
      CONSUMER,
      ids['VY'],
    ]);
  }, 900_000);
  afterAll(async () => t?.close());

  it('onaccountappendix: the on-account lines per price area and a total equal to the on-account invoice with VAT', async () => {
    const rows = await order(RESPONSIBLE, 'onaccountappendix', { format: 'csv' }, 'year=2026&month=NOVEMBER');
    // docs/settlement.md "The next month: on account": Vy 264 kWh and 209.2068 NOK; CargoNet 150 kWh
    // per price area at 118.8675 and 64.96125 NOK. The VAT is that of October's bills: 25 % on top,
    // so a fifth of each amount.
    expect(
      rows.map((r) => [
        r['Organisation'],
        r['Price area'],
        Number(r['On-account energy (kWh)']),
        cents(r['Amount excl. VAT (NOK)']),
        cents(r['VAT (NOK)']),
        cents(r['Total (NOK)']),
        r['Basis'],
      ]),
    ).toEqual([
      ['CargoNet AS', 'NO1', 150, 95.09, 23.77, 118.87, 'On-account energy set'],
      ['CargoNet AS', 'NO5', 150, 51.97, 12.99, 64.96, 'On-account energy set'],
      ['CargoNet AS', 'Total', 300, 147.06, 36.77, 183.83, ''],
      ['Vy Tog AS', 'NO1', 264, 167.37, 41.84, 209.21, 'Share of the month before'],
      ['Vy Tog AS', 'Total', 264, 167.37, 41.84, 209.21, ''],
    ]);
    for (const organisation of ['CargoNet AS', 'Vy Tog AS']) {
      const own = rows.filter((r) => r['Organisation'] === organisation);
      const total = own.find((r) => r['Price area'] === 'Total')!;
      // The total is what November's settlement carries as invoiced on account, and excl. + VAT.
      const invoiced = novemberLines
        .filter((l) => l.organisation.name === organisation)
        .reduce((s, l) => s + l.onAccountCost, 0);
      expect(Number(total['Total (NOK)'])).toBe(round4(invoiced));
      expect(round4(own.filter((r) => r !== total).reduce((s, r) => s + Number(r['Total (NOK)']), 0))).toBe(
        Number(total['Total (NOK)']),
      );
      expect(cents(Number(total['Amount excl. VAT (NOK)']) + Number(total['VAT (NOK)']))).toBe(
        cents(total['Total (NOK)']),
      );
      expect(Number(total['Based on settlement version'])).toBe(october);
    }
    // A consumer: its own organisation only.
    const own = await order(CONSUMER, 'onaccountappendix', { format: 'csv' }, 'year=2026&month=NOVEMBER');
    expect(own.map((r) => r['Organisation'])).toEqual(['Vy Tog AS', 'Vy Tog AS']);
  });

  it('agressoonaccount: one ERP line per customer and price area, summing to the on-account invoices (xml)', async () => {
    const rows = await order(RESPONSIBLE, 'agressoonaccount', { format: 'xml' }, 'year=2026&month=NOVEMBER');
    const orgIds = await t.allAreas.query<{ uuid: string; id: string }>(
      `SELECT entity_uuid::text AS uuid, attributes->>'orgId' AS id FROM entity_latest WHERE entity_uuid = ANY($1::uuid[])`,
      [[ids['VY'], ids['CARGONET']]],
    );
    const idOf = (key: string) => orgIds.find((o) => o.uuid === ids[key])!.id;
    expect(
      rows.map((r) => [r['accountingPeriod'], r['customerId'], r['description'], r['total'], r['currency']]),
    ).toEqual(
      [
        ['202611', idOf('CARGONET'), 'On account 2026-11 NO1', '118.8675', 'NOK'],
        ['202611', idOf('CARGONET'), 'On account 2026-11 NO5', expect.stringMatching(/^64\.961[23]$/), 'NOK'],
        ['202611', idOf('VY'), 'On account 2026-11 NO1', '209.2068', 'NOK'],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    );
    const total = rows.reduce((s, r) => s + Number(r['total']), 0);
    expect(cents(total)).toBe(cents(novemberLines.reduce((s, l) => s + l.onAccountCost, 0)));
    for (const r of rows) expect(cents(Number(r['amountExclVat']) + Number(r['vat']))).toBe(cents(r['total']));
    // Not a consumer's to order.
    const refused = await t.callAs(CONSUMER, {
      method: 'POST',
      url: '/api/processing/tasks/agressoonaccount?year=2026&month=11',
      payload: { format: 'csv' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('settlementoverviewonaccount: November’s settlement reconciles the on-account amounts', async () => {
    const rows = await order(RESPONSIBLE, 'settlementoverviewonaccount', { format: 'csv' }, 'year=2026&month=NOVEMBER');
    expect(
      rows.map((r) => [
        r['Organisation'],
        r['Price area'],
        Number(r['Supply energy (kWh)']),
        Number(r['On-account energy (kWh)']),
        Number(r['Energy difference (kWh)']),
        cents(r['Total (NOK)']),
        cents(r['Invoiced on account (NOK)']),
        cents(r['Due (NOK)']),
        Number(r['Settlement version']),
        Number(r['Based on settlement version']),
      ]),
    ).toEqual([
      ['CargoNet AS', 'NO1', 0, 150, -150, 0, 118.87, -118.87, november, october],
      ['CargoNet AS', 'NO5', 0, 150, -150, 0, 64.96, -64.96, november, october],
      ['Vy Tog AS', 'NO1', 0, 264, -264, 0, 209.21, -209.21, november, october],
    ]);
    // The same figures as the settlement lines.
    for (const line of novemberLines) {
      const row = rows.find(
        (r) => r['Organisation'] === line.organisation.name && r['Price area'] === line.priceArea.name,
      )!;
      expect(Number(row['Due (NOK)'])).toBe(round4(line.dueCost));
    }
  });

  it('expense: each line split into its price elements, summing to the invoice total with VAT', async () => {
    const rows = await order(RESPONSIBLE, 'expense', { format: 'csv' });
    const vy = rows.filter((r) => r['Organisation'] === 'Vy Tog AS');
    // docs/settlement.md "The bill", Vy NO1 (0.264 MWh): energy 151.80 (575 NOK/MWh), grid fee 45,
    // energy fee 8.5, tax 5.46 NOK/MWh, VAT 41.84136.
    expect(
      vy.map((r) => [r['Price element'], r['Name'], cents(r['Price (NOK/MWh)']), cents(r['Amount (NOK)'])]),
    ).toEqual([
      ['Energy cost', '', 575, 151.8],
      ['Grid fee', 'Grid energy fee', 45, 11.88],
      ['Energy fee', 'Balancing cost', 8.5, 2.24],
      ['Tax', 'Elavgift, redusert sats (bane)', 5.46, 1.44],
      ['VAT', 'Merverdiavgift 25 %', 0, 41.84],
    ]);
    for (const organisation of ['CargoNet AS', 'Vy Tog AS']) {
      const invoiced = octoberLines
        .filter((l) => l.organisation.name === organisation)
        .reduce((s, l) => s + l.totalCost, 0);
      const sum = rows
        .filter((r) => r['Organisation'] === organisation)
        .reduce((s, r) => s + Number(r['Amount (NOK)']), 0);
      expect(cents(sum)).toBe(cents(invoiced));
    }
    expect(rows.every((r) => Number(r['Settlement version']) === october)).toBe(true);
  });

  it('overviewofinvoicedcost: each month’s approved invoice, what was paid on account and what remained due', async () => {
    const rows = await order(
      RESPONSIBLE,
      'overviewofinvoicedcost',
      { format: 'csv', reportSpecificParameters: { toYear: 2026, toMonth: 11 } },
      'year=2026&month=OCTOBER',
    );
    expect(
      rows.map((r) => [
        r['Organisation'],
        r['Month'],
        cents(r['Total (NOK)']),
        cents(r['Invoiced on account (NOK)']),
        cents(r['Due (NOK)']),
        r['Settlement version'] === '' ? null : Number(r['Settlement version']),
      ]),
    ).toEqual([
      ['CargoNet AS', '2026-10', 161.77, 0, 161.77, october],
      ['CargoNet AS', '2026-11', 0, 183.83, -183.83, november],
      ['CargoNet AS', 'Total', 161.77, 183.83, -22.06, null],
      ['Vy Tog AS', '2026-10', 209.21, 0, 209.21, october],
      ['Vy Tog AS', '2026-11', 0, 209.21, -209.21, november],
      ['Vy Tog AS', 'Total', 209.21, 209.21, 0, null],
    ]);
    // October's invoice totals are the settlement lines' totals with VAT.
    for (const organisation of ['CargoNet AS', 'Vy Tog AS']) {
      const row = rows.find((r) => r['Organisation'] === organisation && r['Month'] === '2026-10')!;
      const invoiced = octoberLines
        .filter((l) => l.organisation.name === organisation)
        .reduce((s, l) => s + l.totalCost, 0);
      expect(Number(row['Total (NOK)'])).toBe(round4(invoiced));
      expect(cents(Number(row['Amount excl. VAT (NOK)']) + Number(row['VAT (NOK)']))).toBe(cents(row['Total (NOK)']));
    }
  });

  it('energysupplyandcost: supply per grid area at the spot price, and what was charged for it', async () => {
    const rows = await order(RESPONSIBLE, 'energysupplyandcost', { format: 'xml' });
    // docs/settlement.md "Price and supply": Elvia Viken 2 x 198 kWh at 460 and 690 NOK/MWh = 227.70
    // NOK (575 on average), billed as Vy's 151.80 and CargoNet's 75.90; BKK 2 x 66 kWh at 230 and
    // 345 = 37.95 NOK (287.5), CargoNet's NO5 line. The losses are billed whole: nothing is left.
    expect(
      rows.map((r) => [
        r['priceArea'],
        r['gridArea'],
        Number(r['supplyEnergy']),
        Number(r['allocatedEnergy']),
        Number(r['lossesEnergy']),
        cents(r['supplyCost']),
        cents(r['averagePrice']),
        cents(r['chargedCost']),
        cents(r['costDifference']),
      ]),
    ).toEqual([
      ['NO1', 'Elvia Viken', 396, 360, 36, 227.7, 575, 227.7, 0],
      ['NO5', 'BKK Nett Hordaland', 132, 120, 12, 37.95, 287.5, 37.95, 0],
    ]);
  });

  it('accumulatedmeteredtrainenergyintaxarea: Vy’s metered train energy in Norway’s tax area', async () => {
    const rows = await order(
      RESPONSIBLE,
      'accumulatedmeteredtrainenergyintaxarea',
      { format: 'csv', reportSpecificParameters: { toYear: 2026, toMonth: 11 } },
      'year=2026&month=OCTOBER',
    );
    // 24 records of 11 kWh consumed and 1 regenerated, all in train 101 in Elvia Viken.
    expect(rows).toEqual([
      {
        'Tax area': 'Norway tax area',
        Organisation: 'Vy Tog AS',
        Month: '2026-10',
        'Active energy consumed (kWh)': '264.0000',
        'Active energy regenerated (kWh)': '24.0000',
        'Net energy (kWh)': '240.0000',
        'Accumulated net energy (kWh)': '240.0000',
      },
    ]);
  });

  it('surveillancearea: the records measured inside NO1’s surveillance area, by their position', async () => {
    const rows = await order(RESPONSIBLE, 'surveillancearea', { format: 'csv' });
    expect(rows).toEqual([
      {
        'Surveillance area': 'NO1 surveillance area',
        Day: '2026-10-01',
        'Active energy consumed (kWh)': '264.0000',
        'Active energy regenerated (kWh)': '24.0000',
        'Net energy (kWh)': '240.0000',
        Records: '24',
        'Traction units': '1',
      },
    ]);
  });

  it('nonmeteredtractionunits: CargoNet’s train 202 and its estimate; Vy’s consumer sees none of it', async () => {
    const rows = await order(RESPONSIBLE, 'nonmeteredtractionunits', { format: 'csv' });
    // docs/settlement.md step 5: 0.015 kWh per gross tonne-km x 16,000 = 240 kWh.
    expect(rows).toEqual([
      {
        'Operating day': '2026-10-01',
        'Train number': '202',
        'Railway undertaking': 'CargoNet AS',
        Departure: '2026-10-01T10:30:00+02:00',
        Arrival: '2026-10-01T11:30:00+02:00',
        EVNs: `${HIRED_EVN} 318000000014`,
        'Gross tonne-km': '16000.0000',
        'Factor (kWh per gross tonne-km)': '0.0150',
        'Factor from': 'trafficcategory',
        Method: 'reported-train-consumption',
        'Estimated energy (kWh)': '240.0000',
      },
    ]);
    expect(await order(CONSUMER, 'nonmeteredtractionunits', { format: 'csv' })).toEqual([]);
  });
});
