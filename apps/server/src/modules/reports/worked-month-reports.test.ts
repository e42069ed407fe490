import type { DataLogPage, ReportDescription, SettlementLine } from '@railwatt/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';
import { RESPONSIBLE, workedMonth } from '../../test/worked-month.js';
import { offeredIn } from './define-report.js';
import { ALL_REPORTS } from './index.js';

/**
 * Issue 20 item 7, for the reports built so far: docs/settlement.md's worked month settled, then
 * ordered through POST /processing/tasks/{reportName} and downloaded; the figures equal the
 * settlement lines to the kWh and the cent, the invoice appendix sums to the invoice total with VAT,
 * and a consumer's report holds only its own organisation. Also: the calls' refusals (bad
 * parameters 400, another's organisation 403), an ERROR report and its re-order (calls.md §4), the
 * data log's `reports` fields.
 */
const CONSUMER = 'consumer';
const OPERATOR = 'erex-settlement-operator';
/** Cents of a number as the report writes it (4 decimals). */
const cents = (x: number | string) => Number(Number(x).toFixed(2));
const round4 = (x: number) => Number(x.toFixed(4));

describe('reports of the worked month (docs/settlement.md)', () => {
  let t: TestApp;
  const month = workedMonth(() => t);
  const { ids, norway, runForMonth, get } = month;
  let settlement = 0;
  let lines: SettlementLine[] = [];

  /** Orders a report as `username`; answers the entry once its job has finished. */
  const order = async (
    username: string,
    report: string,
    body: Record<string, unknown>,
    query = 'year=2026&month=OCTOBER',
  ): Promise<{ dataLogId: number; jobId: string; status: string; message: string | null }> => {
    const res = await t.callAs(username, {
      method: 'POST',
      url: `/api/processing/tasks/${report}?${query}`,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ dataLogId: number; jobId: string; fileName: string; reportName: string }>();
    expect(answer.reportName).toBe(report);
    const run = await waitForRun(t.database, answer.jobId, {
      until: ['success', 'failure', 'dead'],
      timeoutMs: 60_000,
    });
    return { ...answer, status: run.status, message: run.message ?? null };
  };
  const download = async (username: string, dataLogId: number) => {
    const res = await t.callAs(username, { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const csvRows = (text: string) =>
    text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));

  beforeAll(async () => {
    t = await createTestApp({
      seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
      jobs: {},
    });
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

  it('lists what each role may order, with the statuses it reads', async () => {
    const forResponsible = await get<ReportDescription[]>('/api/domain/reports?locale=nb');
    // The area responsible may order every report built.
    expect(forResponsible.map((r) => r.name).sort()).toEqual(
      ALL_REPORTS.filter((r) => offeredIn(r, 'norway'))
        .map((r) => r.name)
        .sort(),
    );
    const settlementReport = forResponsible.find((r) => r.name === 'settlement')!;
    expect(settlementReport.title).toBe('Avregning');
    expect(settlementReport.statuses).toEqual(['approved', 'success']);
    expect(settlementReport.columns.find((c) => c.key === 'total')!.header).toBe('Totalt (NOK)');
    const forConsumer = await get<ReportDescription[]>('/api/domain/reports', CONSUMER);
    expect(forConsumer.map((r) => r.name)).not.toContain('gridarea-settlement');
    expect(forConsumer.find((r) => r.name === 'settlement')!.statuses).toEqual(['approved', 'corrected']);
    const locales = await get<{ locales: Record<string, { title: string }> }>('/api/domain/reports/settlement');
    expect(Object.keys(locales.locales).sort()).toEqual(['da', 'en', 'es', 'fi', 'nb', 'sv']);
  });

  it('settlement: the lines of the result, to the kWh and the cent (csv)', async () => {
    const made = await order(RESPONSIBLE, 'settlement', { format: 'csv', zoneId: 'Europe/Oslo' });
    expect(made.status, made.message ?? '').toBe('success');
    const res = await download(RESPONSIBLE, made.dataLogId);
    const [header, ...body] = csvRows(res.body);
    const col = (name: string) => header!.indexOf(name);
    expect(header).toContain('Supply energy (kWh)');
    expect(header).toContain('Total (NOK)');
    expect(
      body.map((r) => [
        r[col('Price area')],
        r[col('Organisation')],
        Number(r[col('Supply energy (kWh)')]),
        cents(r[col('Energy cost (NOK)')]!),
        cents(r[col('Grid fee (NOK)')]!),
        cents(r[col('VAT (NOK)')]!),
        cents(r[col('Total (NOK)')]!),
        Number(r[col('Settlement version')]),
      ]),
    ).toEqual(
      lines.map((l) => [
        l.priceArea.name,
        l.organisation.name,
        l.supplyEnergy,
        cents(l.supplyCost),
        cents(l.gridFeeCost),
        cents(l.vatCost),
        cents(l.totalCost),
        settlement,
      ]),
    );
    // docs/settlement.md "The bill": 209.21, 104.60 and 57.17 NOK.
    expect(body.map((r) => r[col('Total (NOK)')])).toEqual(['104.6034', '209.2068', '57.1659']);
  });

  it('delivers an ordered report to its destinations: an e-mail address gets it, an FTP host without credentials is refused by name', async () => {
    const made = await order(RESPONSIBLE, 'settlement', {
      format: 'csv',
      zoneId: 'Europe/Oslo',
      destinations: [{ type: 'EmailAddress', address: 'invoices@vy.example' }, { host: 'ftp.vy.example' }],
    });
    // The file was made and mailed; the FTP host could not take it: ERROR with both outcomes.
    expect(made.status).toBe('failure');
    expect(made.message).toMatch(
      /^3 rows from result \d+; delivered: .*invoices@vy\.example.*; not delivered \(ftp\): FTP to ftp\.vy\.example needs a user and password/,
    );
    const file = await download(RESPONSIBLE, made.dataLogId);
    // Without SMTP_URL the message is kept and listed for the administrator, the file attached.
    const kept = await get<{ content: { id: number; recipients: string[]; fileNames: string[]; subject: string }[] }>(
      '/api/administration/sentmail?search=invoices%40vy.example',
      'erex-administrator',
    );
    expect(kept.content).toHaveLength(1);
    expect(kept.content[0]).toMatchObject({
      recipients: ['invoices@vy.example'],
      fileNames: ['settlement_2026-10.csv'],
      subject: 'Settlement 2026-10 (Norway)',
    });
    const eml = await t.callAs('erex-administrator', {
      method: 'GET',
      url: `/api/administration/sentmail/${kept.content[0]!.id}/download`,
    });
    expect(eml.statusCode).toBe(200);
    const attached = /\r\n\r\n([A-Za-z0-9+/=\r\n]+)\r\n--/.exec(
      eml.body.split('filename=settlement_2026-10.csv')[1]!,
    )![1]!;
    expect(Buffer.from(attached.replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe(file.body);
  });

  it('customerinvoicemonthappendix: each customer’s lines and a total line equal to the invoice total with VAT', async () => {
    const made = await order(RESPONSIBLE, 'customerinvoicemonthappendix', { format: 'csv', language: 'en' });
    expect(made.status, made.message ?? '').toBe('success');
    const [header, ...body] = csvRows((await download(RESPONSIBLE, made.dataLogId)).body);
    const col = (name: string) => header!.indexOf(name);
    const rows = body.map((r) => ({
      organisation: r[col('Organisation')],
      priceArea: r[col('Price area')],
      excl: Number(r[col('Amount excl. VAT (NOK)')]),
      vat: Number(r[col('VAT (NOK)')]),
      total: Number(r[col('Total (NOK)')]),
    }));
    expect(rows.map((r) => [r.organisation, r.priceArea, cents(r.total)])).toEqual([
      ['CargoNet AS', 'NO1', 104.6],
      ['CargoNet AS', 'NO5', 57.17],
      ['CargoNet AS', 'Total', 161.77],
      ['Vy Tog AS', 'NO1', 209.21],
      ['Vy Tog AS', 'Total', 209.21],
    ]);
    for (const organisation of ['CargoNet AS', 'Vy Tog AS']) {
      const own = rows.filter((r) => r.organisation === organisation);
      const total = own.find((r) => r.priceArea === 'Total')!;
      const invoiced = lines.filter((l) => l.organisation.name === organisation).reduce((s, l) => s + l.totalCost, 0);
      expect(round4(own.filter((r) => r !== total).reduce((s, r) => s + r.total, 0))).toBe(round4(total.total));
      expect(total.total).toBe(round4(invoiced));
      expect(round4(total.excl + total.vat)).toBe(total.total);
    }
  });

  it('supplier: hourly volumes per price area summing to the settlement lines (xlsx)', async () => {
    const made = await order(RESPONSIBLE, 'supplier', { format: 'xlsx' });
    expect(made.status, made.message ?? '').toBe('success');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download(RESPONSIBLE, made.dataLogId)).rawPayload as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const col = (name: string) => header.indexOf(name) + 1;
    const sums = new Map<
      string,
      { metered: number; estimated: number; losses: number; supply: number; hours: number }
    >();
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const pa = String(row.getCell(col('Price area')).value);
      const s = sums.get(pa) ?? { metered: 0, estimated: 0, losses: 0, supply: 0, hours: 0 };
      s.metered += Number(row.getCell(col('Metered energy (kWh)')).value);
      s.estimated += Number(row.getCell(col('Estimated energy (kWh)')).value);
      s.losses += Number(row.getCell(col('Losses (kWh)')).value);
      s.supply += Number(row.getCell(col('Supply energy (kWh)')).value);
      s.hours += 1;
      sums.set(pa, s);
    });
    expect(String(sheet.getRow(2).getCell(col('Hour')).value)).toBe('2026-10-01T10:00:00+02:00');
    for (const pa of ['NO1', 'NO5']) {
      const own = lines.filter((l) => l.priceArea.name === pa);
      const sum = (f: (l: SettlementLine) => number) => round4(own.reduce((s, l) => s + f(l), 0));
      expect(sums.get(pa)).toEqual({
        metered: sum((l) => l.meteredEnergy),
        estimated: sum((l) => l.estimatedEnergy),
        losses: sum((l) => l.lossesEnergy),
        supply: sum((l) => l.supplyEnergy),
        hours: 2,
      });
    }
  });

  it('gridarea-settlement: supply and what it went to per grid area and hour (xml)', async () => {
    const made = await order(RESPONSIBLE, 'gridarea-settlement', { format: 'xml' });
    expect(made.status, made.message ?? '').toBe('success');
    const xml = (await download(RESPONSIBLE, made.dataLogId)).body;
    const rows = [...xml.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
      Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1], c[2]])),
    );
    const by = (grid: string, key: string) =>
      round4(rows.filter((r) => r['gridArea'] === grid).reduce((s, r) => s + Number(r[key] ?? 0), 0));
    // docs/settlement.md "Price and supply, hour by hour", summed over the two hours.
    expect(
      ['supplyEnergy', 'meteredEnergy', 'estimatedEnergy', 'lossesEnergy'].map((k) => by('Elvia Viken', k)),
    ).toEqual([396, 240, 120, 36]);
    expect(
      ['supplyEnergy', 'meteredEnergy', 'estimatedEnergy', 'lossesEnergy'].map((k) => by('BKK Nett Hordaland', k)),
    ).toEqual([132, 0, 120, 12]);
    expect(rows.find((r) => r['gridArea'] === 'Elvia Viken')!['hour']).toBe('2026-10-01T10:00:00+02:00');
  });

  it('a consumer reads its own organisation only, from the approved settlement', async () => {
    await t.allAreas.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
      norway(),
      CONSUMER,
      ids['VY'],
    ]);
    // Not approved yet: a consumer reads approved (and corrected) results only.
    const early = await order(CONSUMER, 'settlement', { format: 'csv' });
    expect(early.status).toBe('failure');
    expect(early.message).toMatch(/No settlement result with status approved or corrected/);
    const approve = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [settlement],
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const made = await order(CONSUMER, 'settlement', { format: 'csv' });
    expect(made.status, made.message ?? '').toBe('success');
    const [, ...body] = csvRows((await download(CONSUMER, made.dataLogId)).body);
    expect(body.map((r) => r[0])).toEqual(['Vy Tog AS']);
    // Naming another organisation is refused; the responsible's report is not the consumer's to download.
    const other = await t.callAs(CONSUMER, {
      method: 'POST',
      url: '/api/processing/tasks/settlement?year=2026&month=10',
      payload: { format: 'csv', refs: [{ uuid: ids['CARGONET'], type: 'Organisation' }] },
    });
    expect(other.statusCode, other.body).toBe(403);
    const theirs = await order(RESPONSIBLE, 'supplier', { format: 'csv' });
    const refused = await t.callAs(CONSUMER, {
      method: 'GET',
      url: `/api/eventlog/datalog/reports/${theirs.dataLogId}/file`,
    });
    expect(refused.statusCode).toBe(404);
    // The consumer may not order a grid-area report.
    const grid = await t.callAs(CONSUMER, {
      method: 'POST',
      url: '/api/processing/tasks/gridarea-settlement?year=2026&month=10',
      payload: { format: 'csv' },
    });
    expect(grid.statusCode).toBe(403);
  });

  it('refuses bad parameters with the catalogue’s words', async () => {
    const post = (url: string, payload: Record<string, unknown>) =>
      t.callAs(RESPONSIBLE, { method: 'POST', url, payload });
    const format = await post('/api/processing/tasks/supplier?year=2026&month=10', { format: 'pdf' });
    expect(format.statusCode).toBe(400);
    expect(format.json()).toMatchObject({ code: 'invalid_input', message: 'Invalid input' });
    const noFormat = await post('/api/processing/tasks/supplier?year=2026&month=10', {});
    expect(noFormat.statusCode).toBe(400);
    expect(noFormat.json().errors).toEqual([
      expect.objectContaining({ field: 'body.format', message: 'The format field is required' }),
    ]);
    const month13 = await post('/api/processing/tasks/supplier?year=2026&month=13', { format: 'csv' });
    expect(month13.statusCode).toBe(400);
    const badRef = await post('/api/processing/tasks/supplier?year=2026&month=10', {
      format: 'csv',
      refs: [{ uuid: ids['VIKEN'], type: 'GridArea' }],
    });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.json().errors[0].message).toBe('The report supplier takes no GridArea ref');
    const unknown = await post('/api/processing/tasks/settlement?year=2026&month=10', {
      format: 'csv',
      refs: [{ uuid: ids['NO1'], type: 'Organisation' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].message).toBe('Unknown organisation');
    const badParameter = await post('/api/processing/tasks/settlement?year=2026&month=10', {
      format: 'csv',
      reportSpecificParameters: { colour: 'blue' },
    });
    expect(badParameter.statusCode).toBe(400);
    // A procedure's task keeps its own reading: no report fields, its runners only.
    const task = await post('/api/processing/tasks/combine?year=2026&month=10', { format: 'csv' });
    expect(task.statusCode).toBe(400);
  });

  it('an ERROR report is re-ordered by the settlement operator (calls.md §4), and the data log shows its reports fields', async () => {
    // November has no settlement result: the report fails with the reason.
    const failed = await order(RESPONSIBLE, 'settlement', { format: 'xml' }, 'year=2026&month=NOVEMBER');
    expect(failed.status).toBe('failure');
    const page = await get<DataLogPage>('/api/eventlog/datalog?typeName=ORDERED_REPORT&size=100');
    const entry = page.content.find((e) => e.id === failed.dataLogId)!;
    expect(entry.messageStatus).toBe('ERROR');
    expect(entry.messageText).toMatch(/No settlement result with status approved or success covers the period/);
    expect(entry.reports).toHaveLength(1);
    const reorder = await t.callAs(OPERATOR, {
      method: 'POST',
      url: '/api/eventlog/datalog/reorder',
      payload: { id: failed.dataLogId, messageType: 'ORDERED_REPORT' },
    });
    expect(reorder.statusCode, reorder.body).toBe(200);
    expect(reorder.json()).toMatchObject({ messageStatus: 'RETRIED' });
    const newId = Number(/entry (\d+)/.exec(reorder.json<{ messageText: string }>().messageText)![1]);
    expect(newId).toBeGreaterThan(failed.dataLogId);
    // The responsible may not re-order (administrator and settlement operator only).
    const refused = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/datalog/reorder',
      payload: { id: newId, messageType: 'ORDERED_REPORT' },
    });
    expect(refused.statusCode).toBe(403);

    const ok = await order(RESPONSIBLE, 'settlement', {
      format: 'csv',
      refs: [{ uuid: ids['VY'], type: 'Organisation' }],
    });
    const after = await get<DataLogPage>('/api/eventlog/datalog?typeName=ORDERED_REPORT&size=100');
    const done = after.content.find((e) => e.id === ok.dataLogId)!;
    expect(done.messageStatus).toBe('OK');
    expect(done.reports[0]).toMatchObject({ reportRefsNames: { organisation: 'Vy Tog AS' } });
    expect(done.reports[0]!.fileSize).toBeGreaterThan(0);
    expect(done.reports[0]!.runningTime).toBeGreaterThanOrEqual(0);
  });
});
