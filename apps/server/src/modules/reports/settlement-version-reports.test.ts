import type { ReportDescription, SettlementLine } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';
import { RESPONSIBLE, workedMonth } from '../../test/worked-month.js';

/**
 * Issue 20 items 1, 2 and 7 for the second ten reports (branch reports-a), on docs/settlement.md's
 * worked month settled through the real calls: 15mindetailed, settlementsummary, settlementoverview,
 * erpsettlementtotal, agressoexportsettlement, and the two *settlementdependency reports, which read
 * approved settlement versions only. Their figures equal the settlement lines to the kWh and the
 * cent. The TPA and Portugal reports are not made in Norway (tpa-portugal-reports.test.ts makes them).
 */
const cents = (x: number | string) => Number(Number(x).toFixed(2));
const round4 = (x: number) => Number(x.toFixed(4));

describe('the second ten reports on the worked month (docs/settlement.md)', () => {
  let t: TestApp;
  const month = workedMonth(() => t);
  const { get, runForMonth } = month;
  let settlement = 0;
  let lines: SettlementLine[] = [];

  const order = async (report: string, body: Record<string, unknown>, query = 'year=2026&month=OCTOBER') => {
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: `/api/processing/tasks/${report}?${query}`,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ dataLogId: number; jobId: string }>();
    const run = await waitForRun(t.database, answer.jobId, {
      until: ['success', 'failure', 'dead'],
      timeoutMs: 60_000,
    });
    return { ...answer, status: run.status, message: run.message ?? '' };
  };
  /** A made report's csv as objects by header. */
  const csv = async (dataLogId: number) => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...body] = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));
    return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
  };
  const made = async (report: string, body: Record<string, unknown>, query?: string) => {
    const m = await order(report, { format: 'csv', ...body }, query);
    expect(m.status, m.message).toBe('success');
    return csv(m.dataLogId);
  };
  const linesOf = (organisation: string) => lines.filter((l) => l.organisation.name === organisation);
  const sum = (ls: SettlementLine[], f: (l: SettlementLine) => number) => round4(ls.reduce((s, l) => s + f(l), 0));

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'], jobs: {} });
    await month.setUp();
    await runForMonth('train-preprocessing');
    await runForMonth('cebd-preprocessing');
    const prices = await runForMonth('price-and-supply');
    const approve = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [prices],
    });
    expect(approve.statusCode, approve.body).toBe(200);
    settlement = await runForMonth('settlement');
    lines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${settlement}`);
    expect(lines).toHaveLength(3);
  }, 400_000);
  afterAll(async () => t?.close());

  it('lists the ten for the responsible, except the TPA and Portugal ones, which Norway does not make', async () => {
    const names = (await get<ReportDescription[]>('/api/domain/reports')).map((r) => r.name);
    for (const name of [
      '15mindetailed',
      'trainrunenergysettlementdependency',
      'accumulatedenergysettlementdependency',
      'settlementsummary',
      'settlementoverview',
      'erpsettlementtotal',
      'agressoexportsettlement',
    ])
      expect(names).toContain(name);
    for (const name of ['tpa-settlement', 'tpa-supplier', 'portugal-settlementoverview']) {
      expect(names).not.toContain(name);
      const res = await t.callAs(RESPONSIBLE, {
        method: 'POST',
        url: `/api/processing/tasks/${name}?year=2026&month=10`,
        payload: { format: 'csv' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: `The report ${name} is not available` });
    }
    const dependency = (await get<ReportDescription[]>('/api/domain/reports')).find(
      (r) => r.name === 'trainrunenergysettlementdependency',
    )!;
    expect(dependency.statuses).toEqual(['approved']);
  });

  it('15mindetailed: the quarter hours of the metered unit where they were placed, 30 kWh allocatable each', async () => {
    const rows = await made('15mindetailed', { zoneId: 'UTC' });
    // 24 records from 08:05 to 10:00 UTC: eight quarters of three.
    expect(rows.map((r) => r['Period end'])).toEqual([
      '2026-10-01T08:15:00+00:00',
      '2026-10-01T08:30:00+00:00',
      '2026-10-01T08:45:00+00:00',
      '2026-10-01T09:00:00+00:00',
      '2026-10-01T09:15:00+00:00',
      '2026-10-01T09:30:00+00:00',
      '2026-10-01T09:45:00+00:00',
      '2026-10-01T10:00:00+00:00',
    ]);
    for (const r of rows)
      expect([
        r['Grid area'],
        r['Price area'],
        r['Active energy consumed (kWh)'],
        r['Active energy regenerated (kWh)'],
        r['Allocatable net energy (kWh)'],
        r['Records'],
        r['Rejected records'],
        r['Unchecked records'],
      ]).toEqual(['Elvia Viken', 'NO1', '33.0000', '3.0000', '30.0000', '3', '0', '0']);
    // Their allocatable energy is Vy's metered energy of the settlement.
    expect(round4(rows.reduce((s, r) => s + Number(r['Allocatable net energy (kWh)']), 0))).toBe(
      sum(lines, (l) => l.meteredEnergy),
    );
  });

  it('settlementsummary: each price area and the area’s total, to the cent', async () => {
    const rows = await made('settlementsummary', { language: 'en' });
    expect(
      rows.map((r) => [
        r['Price area'],
        r['Organisations'],
        Number(r['Supply energy (kWh)']),
        cents(r['Total (NOK)']!),
      ]),
    ).toEqual([
      ['NO1', '2', 396, 313.81],
      ['NO5', '1', 132, 57.17],
      ['Total', '2', 528, 370.98],
    ]);
    expect(Number(rows[2]!['Total (NOK)'])).toBe(sum(lines, (l) => l.totalCost));
    expect(rows.every((r) => Number(r['Settlement version']) === settlement)).toBe(true);
  });

  it('erpsettlementtotal: one invoice line per customer with its invoice total', async () => {
    const rows = await made('erpsettlementtotal', {});
    expect(rows.map((r) => r['Organisation']).sort()).toEqual(['CargoNet AS', 'Vy Tog AS']);
    for (const r of rows) {
      const own = linesOf(r['Organisation']!);
      expect(r['Month']).toBe('2026-10');
      expect(Number(r['Supply energy (kWh)'])).toBe(sum(own, (l) => l.supplyEnergy));
      expect(Number(r['Total (NOK)'])).toBe(sum(own, (l) => l.totalCost));
      expect(Number(r['Due (NOK)'])).toBe(sum(own, (l) => l.totalCost));
    }
    // docs/settlement.md "The bill": 209.21 for Vy, 104.60 + 57.17 for CargoNet.
    expect(Object.fromEntries(rows.map((r) => [r['Organisation'], r['Total (NOK)']]))).toEqual({
      'Vy Tog AS': '209.2068',
      'CargoNet AS': '161.7693',
    });
  });

  it('agressoexportsettlement: the articles of each line, summing to the invoice total', async () => {
    const rows = await made('agressoexportsettlement', { language: 'nb' });
    const vy = rows.filter((r) => r['Organisasjon'] === 'Vy Tog AS');
    expect(vy.map((r) => [r['Periode'], r['Prisområde'], r['Artikkel'], r['Mengde (kWh)'], r['Beløp (NOK)']])).toEqual([
      ['202610', 'NO1', 'ENERGY', '264.0000', '151.8000'],
      ['202610', 'NO1', 'GRIDFEE', '264.0000', '11.8800'],
      ['202610', 'NO1', 'ENERGYFEE', '264.0000', '2.2440'],
      ['202610', 'NO1', 'TAX', '264.0000', '1.4414'],
      ['202610', 'NO1', 'VAT', '', '41.8414'],
    ]);
    expect(vy[0]!['Beskrivelse']).toBe('Energikostnad');
    for (const organisation of ['Vy Tog AS', 'CargoNet AS'])
      expect(
        round4(
          rows.filter((r) => r['Organisasjon'] === organisation).reduce((s, r) => s + Number(r['Beløp (NOK)']), 0),
        ),
      ).toBe(sum(linesOf(organisation), (l) => l.totalCost));
  });

  it('settlementoverview: each month of a range from its own version; a month without one has no rows', async () => {
    const rows = await made('settlementoverview', { reportSpecificParameters: { toYear: 2026, toMonth: 11 } });
    expect(
      rows.map((r) => [r['Month'], r['Organisation'], r['Price area'], r['Total (NOK)'], r['Version status']]),
    ).toEqual([
      ['2026-10', 'CargoNet AS', 'NO1', '104.6034', 'success'],
      ['2026-10', 'CargoNet AS', 'NO5', '57.1659', 'success'],
      ['2026-10', 'Vy Tog AS', 'NO1', '209.2068', 'success'],
    ]);
    expect(rows.every((r) => Number(r['Settlement version']) === settlement)).toBe(true);
  });

  it('the settlement-dependency reports read approved versions only, and name them', async () => {
    // Not approved yet: the month's report fails and says why; the range has no month to show.
    const early = await order('trainrunenergysettlementdependency', { format: 'csv' });
    expect(early.status).toBe('failure');
    expect(early.message).toMatch(/No settlement result with status approved covers the period/);
    expect(
      await made('accumulatedenergysettlementdependency', { reportSpecificParameters: { toYear: 2026, toMonth: 11 } }),
    ).toEqual([]);

    const approve = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [settlement],
    });
    expect(approve.statusCode, approve.body).toBe(200);

    const runs = await made('trainrunenergysettlementdependency', { zoneId: 'Europe/Oslo' });
    // Run 101 of Vy: 24 records of 11 kWh consumed and 1 regenerated (CargoNet's 202 has no meter).
    expect(
      runs.map((r) => [
        r['Operating day'],
        r['Train number'],
        r['Organisation'],
        r['Active energy consumed (kWh)'],
        r['Active energy regenerated (kWh)'],
        r['Net energy (kWh)'],
        r['Records'],
        Number(r['Settlement version']),
      ]),
    ).toEqual([['2026-10-01', '101', 'Vy Tog AS', '264.0000', '24.0000', '240.0000', '24', settlement]]);

    const units = await made('accumulatedenergysettlementdependency', {
      reportSpecificParameters: { toYear: 2026, toMonth: 11 },
    });
    expect(
      units.map((r) => [
        r['Month'],
        r['Net energy (kWh)'],
        r['Accumulated net energy (kWh)'],
        Number(r['Settlement version']),
      ]),
    ).toEqual([['2026-10', '240.0000', '240.0000', settlement]]);
    // The version's metered energy, to the kWh.
    expect(Number(units[0]!['Net energy (kWh)'])).toBe(sum(lines, (l) => l.meteredEnergy));

    // The overview now reads the approved version.
    const overview = await made('settlementoverview', {});
    expect(overview.map((r) => r['Version status'])).toEqual(['approved', 'approved', 'approved']);

    // A consumer of Vy reads Vy's own lines and runs only.
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      month.norway(),
      'consumer',
      month.ids['VY'],
    ]);
    const asConsumer = async (report: string) => {
      const res = await t.callAs('consumer', {
        method: 'POST',
        url: `/api/processing/tasks/${report}?year=2026&month=10`,
        payload: { format: 'csv' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
      const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
      expect(run.status, run.message ?? '').toBe('success');
      const file = await t.callAs('consumer', {
        method: 'GET',
        url: `/api/eventlog/datalog/reports/${dataLogId}/file`,
      });
      return file.body
        .split('\r\n')
        .slice(1)
        .filter((l) => l !== '');
    };
    const own = await asConsumer('settlementoverview');
    expect(own).toHaveLength(1);
    expect(own[0]).toContain('Vy Tog AS');
    expect(await asConsumer('trainrunenergysettlementdependency')).toHaveLength(1);
    // The summary of the whole area is not the consumer's to order.
    const summary = await t.callAs('consumer', {
      method: 'POST',
      url: '/api/processing/tasks/settlementsummary?year=2026&month=10',
      payload: { format: 'csv' },
    });
    expect(summary.statusCode).toBe(403);
  });
});
