import { MESSAGES } from '@railwatt/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../modules/datalog/datalog-service.js';
import { fixtureWorkbook, multipartBody, ORGANISATION_ROWS, TYPE_ROWS } from '../../modules/excel/fixtures.js';
import { seedUuid } from '../../seed/fleet.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';
const IMPORT = '/api/excel/domain/import-org';
const EXPORT = '/api/excel/domain/export-org';

/** POST /excel/domain/import-org and the organisations export (exportedorganisations.xlsx). */
describe('organisation workbooks (/api/excel/domain/import-org, /export-org)', () => {
  let t: TestApp;
  let tenant: string;

  const upload = async (files: { fileName: string; bytes: Buffer }[], username = ADMIN) => {
    const body = multipartBody(files);
    return t.app.inject({
      method: 'POST',
      url: IMPORT,
      headers: { ...(await t.headersFor(username)), ...body.headers },
      payload: body.payload,
    });
  };
  const exportOrgs = async (payload: Record<string, unknown>, username = ADMIN) =>
    t.app.inject({ method: 'POST', url: EXPORT, headers: await t.headersFor(username), payload });
  const orgCount = async () =>
    Number(
      (
        await t.allAreas.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM entity WHERE tenant = $1 AND type = 'organisation'`,
          [tenant],
        )
      )[0]!.n,
    );
  const logOf = async (messageType: string) =>
    (await listFiles(t.allAreas.db, tenant)).filter((f) => f.messageType === messageType);

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'] });
    tenant = t.areaUuid('norway');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses roles outside the policies', async () => {
    const bytes = await fixtureWorkbook([{ name: 'Organisation', rows: ORGANISATION_ROWS }]);
    // Organisations are written by the Administration writers: not the cp-admin nor the consumer.
    expect((await upload([{ fileName: 'orgs.xlsx', bytes }], 'cp-admin')).statusCode).toBe(403);
    expect((await upload([{ fileName: 'orgs.xlsx', bytes }], 'consumer')).statusCode).toBe(403);
    expect((await exportOrgs({ uuids: [seedUuid('norway:org:vy')] }, 'consumer')).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: EXPORT, payload: { uuids: [seedUuid('norway:org:vy')] } })).statusCode,
    ).toBe(401);
  });

  it('imports organisations, all or nothing, with a data-log entry per file', async () => {
    const before = await orgCount();
    const good = await fixtureWorkbook([{ name: 'Organisation', rows: ORGANISATION_ROWS }]);
    const missingEmail = await fixtureWorkbook([
      {
        name: 'Organisation',
        rows: [{ ...ORGANISATION_ROWS[0]!, name: 'No Mail AS', orgId: 'NOMAIL', emails: ';' }],
      },
    ]);
    const refused = await upload([
      { fileName: 'good.xlsx', bytes: good },
      { fileName: 'bad.xlsx', bytes: missingEmail },
    ]);
    expect(refused.statusCode).toBe(200);
    expect(refused.json().success).toBe(false);
    expect(JSON.stringify(refused.json())).toContain('At least one notification e-mail is required');
    expect(await orgCount()).toBe(before);

    const accepted = await upload([{ fileName: 'good.xlsx', bytes: good }], 'settlement-area-responsible');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      success: true,
      sheetParseResults: [{ type: 'Organisation', failures: [] }],
    });
    expect(await orgCount()).toBe(before + 1);

    const log = await logOf('EXCEL_ORGANISATION_IMPORT');
    expect(log.map((l) => [l.fileName, l.messageStatus])).toEqual(
      expect.arrayContaining([
        ['good.xlsx', 'OK'],
        ['bad.xlsx', 'REJECTED'],
      ]),
    );
  });

  it('accepts Organisation sheets only', async () => {
    const bytes = await fixtureWorkbook([{ name: 'TractionUnitType', rows: TYPE_ROWS }]);
    const res = await upload([{ fileName: 'types.xlsx', bytes }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(false);
    expect(res.json().sheetParseResults[0].failures[0].errorMessage).toContain(
      'Only Organisation sheets can be imported here',
    );
  });

  it('refuses a request that is not multipart, and a broken file, with a data-log entry', async () => {
    const notMultipart = await t.callAs(ADMIN, { method: 'POST', url: IMPORT, payload: {} });
    expect(notMultipart.statusCode).toBe(400);
    const broken = await upload([{ fileName: 'broken.xlsx', bytes: Buffer.from('not a workbook') }]);
    expect(broken.statusCode).toBe(400);
    expect((await logOf('EXCEL_ORGANISATION_IMPORT')).some((l) => l.fileName === 'broken.xlsx')).toBe(true);
  });

  it('exports the selected organisations as exportedorganisations.xlsx, which imports back unchanged', async () => {
    const none = await exportOrgs({ uuids: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(MESSAGES.noEntitiesSelected);

    const vy = seedUuid('norway:org:vy');
    const res = await exportOrgs({ uuids: [vy, seedUuid('norway:org:banenor')] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('exportedorganisations.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Organisation']);
    expect(workbook.worksheets[0]!.rowCount).toBeGreaterThanOrEqual(3);
    expect((await logOf('EXCEL_ORGANISATION_EXPORT'))[0]?.fileName).toBe('exportedorganisations.xlsx');

    const before = await orgCount();
    const again = await upload([{ fileName: 'exportedorganisations.xlsx', bytes: res.rawPayload }]);
    expect(again.json()).toMatchObject({ success: true });
    expect(await orgCount()).toBe(before);
  });
});
