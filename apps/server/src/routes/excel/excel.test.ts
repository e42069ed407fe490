import { randomBytes, randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../../db/tenant.js';
import { craftZip, repeatedDeflate } from '../../formats/fixtures/crafted-zip.js';
import { readMasterdataCsv } from '../../formats/csv/masterdata-csv.js';
import { listFiles } from '../../modules/datalog/datalog-service.js';
import {
  evnFor,
  fixtureWorkbook,
  multipartBody,
  ORGANISATION_ROWS,
  tractionUnitRows,
  TYPE_ROWS,
} from '../../modules/excel/fixtures.js';
import { importDomainFiles } from '../../modules/excel/import-service.js';
import { serviceContext } from '../../test/context.js';
import { readDomainWorkbook } from '../../workers/read-domain-workbook.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectBadTokensRejected } from '../../test/access.js';

const ADMIN = 'erex-administrator';

describe('/api/excel', () => {
  let t: TestApp;
  let tenant: string;

  const upload = async (files: { fileName: string; bytes: Buffer }[], username = ADMIN) => {
    const body = multipartBody(files);
    return t.app.inject({
      method: 'POST',
      url: '/api/excel/domain/import',
      headers: { ...(await t.headersFor(username)), ...body.headers },
      payload: body.payload,
    });
  };
  const exportEntities = async (payload: Record<string, unknown>, username = ADMIN) =>
    t.app.inject({ method: 'POST', url: '/api/excel/domain/export', headers: await t.headersFor(username), payload });

  /** Every segment of the tenant, current and superseded, as stored (ids and timestamps included). */
  const allSegments = () =>
    t.allAreas.query<Record<string, unknown>>(
      `SELECT id::text, entity_uuid, type, valid::text, name, active, state, comments, attributes,
              last_modified::text, last_modified_by, superseded_at::text
         FROM entity_segment WHERE tenant = $1 ORDER BY id`,
      [tenant],
    );
  const countOf = async (type: string) =>
    Number(
      (
        await t.allAreas.query<{ n: number }>('SELECT count(*)::int AS n FROM entity WHERE tenant = $1 AND type = $2', [
          tenant,
          type,
        ])
      )[0]!.n,
    );

  beforeAll(async () => {
    t = await createTestApp({ config: { excelImportMaxFileBytes: 1_000_000 } });
    tenant = t.areaUuid('norway');
    // Start the workbook worker thread (tsx and exceljs load in it) before the tests: on a loaded
    // machine that start alone can take many seconds, which a test's own timeout should not measure.
    // The upload is refused (cp-admin does not write organisations), so it stores nothing.
    await upload(
      [{ fileName: 'warm-up.xlsx', bytes: await fixtureWorkbook([{ name: 'Organisation', rows: ORGANISATION_ROWS }]) }],
      'cp-admin',
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  describe('access', () => {
    it('answers 401 without a valid token on every route', async () => {
      for (const url of ['/api/excel/domain/import', '/api/excel/domain/export', '/api/excel/masterdata/export']) {
        await expectBadTokensRejected(t, { method: 'POST', url, username: ADMIN, tenant, payload: {} });
      }
    });

    it('answers 403 to roles that may not import or export', async () => {
      const body = multipartBody([{ fileName: 'a.xlsx', bytes: await fixtureWorkbook([]) }]);
      const consumer = await t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/import',
        headers: { ...(await t.headersFor('consumer')), ...body.headers },
        payload: body.payload,
      });
      expect(consumer.statusCode).toBe(403);
      expect((await exportEntities({ type: 'TractionUnit' }, 'train-run-data-provider')).statusCode).toBe(403);
      const masterdata = await t.app.inject({
        method: 'POST',
        url: '/api/excel/masterdata/export',
        headers: await t.headersFor('consumer'),
        payload: {},
      });
      expect(masterdata.statusCode).toBe(403);
      // A role held in another area does not count here.
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/export',
        headers: await t.headersFor('exchange-operator', 'norway'),
        payload: { type: 'TractionUnit' },
      });
      expect(elsewhere.statusCode).toBe(403);
    });

    it('refuses sheets of kinds the role may not write', async () => {
      const bytes = await fixtureWorkbook([{ name: 'Organisation', rows: ORGANISATION_ROWS }]);
      // cp-admin may import fleet sheets but not organisations (Administration writers only).
      const res = await upload([{ fileName: 'orgs.xlsx', bytes }], 'cp-admin');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: false,
        sheetParseResults: [{ failures: [{ errorMessage: 'Not authorized to change data of type: Organisation' }] }],
      });
    });
  });

  describe('POST /api/excel/domain/import', () => {
    it('answers 400 to a request that is not multipart', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/import',
        headers: await t.headersFor(ADMIN),
        payload: { files: [] },
      });
      expect(res.statusCode).toBe(400);
    });

    it('stores nothing when one row of 500 is bad, names that row, and logs the refusal', async () => {
      const master = await fixtureWorkbook([
        { name: 'Organisation', rows: ORGANISATION_ROWS },
        { name: 'TractionUnitType', rows: TYPE_ROWS },
      ]);
      const units = tractionUnitRows(500);
      units[5]!.evn = '12345678901'; // spreadsheet row 7
      const fleet = await fixtureWorkbook([{ name: 'TractionUnit', rows: units }]);
      const res = await upload([
        { fileName: 'master.xlsx', bytes: master },
        { fileName: 'fleet.xlsx', bytes: fleet },
      ]);
      expect(res.statusCode).toBe(200);
      const answer = res.json();
      expect(answer.success).toBe(false);
      expect(answer.sheetParseResults).toEqual([
        { sheetName: 'Organisation', type: 'Organisation', rowsRead: 1, failures: [] },
        { sheetName: 'TractionUnitType', type: 'TractionUnitType', rowsRead: 1, failures: [] },
        {
          sheetName: 'TractionUnit',
          type: 'TractionUnit',
          rowsRead: 500,
          failures: [
            { errorMessage: 'Row 7, column evn: The EVN field must be exactly 12 digits', type: 'TractionUnit' },
          ],
        },
      ]);
      expect(await countOf('tractionunit')).toBe(0);
      expect(await countOf('organisation')).toBe(0);

      const log = await listFiles(t.allAreas.db, tenant);
      expect(log.slice(0, 2).map((e) => [e.fileName, e.messageStatus])).toEqual(
        expect.arrayContaining([
          ['fleet.xlsx', 'REJECTED'],
          ['master.xlsx', 'REJECTED'],
        ]),
      );
      expect(log.find((e) => e.fileName === 'fleet.xlsx')!.messageText).toContain('Row 7, column evn');
      expect(log.find((e) => e.fileName === 'fleet.xlsx')!.fileSize).toBe(fleet.length);
    });

    it('gives the spec messages for missing dates, bad values and unknown sheets', async () => {
      const bytes = await fixtureWorkbook([
        {
          name: 'TractionUnitType',
          rows: [
            { name: 'A', validTo: '2070-01-01T00:00:00Z' },
            { name: 'B', validFrom: '2024-01-01T00:00:00Z' },
            { name: 'C', validFrom: 'soon', validTo: '2070-01-01', maxSpeed: 'fast' },
          ],
        },
        { name: 'Spaceship', rows: [{ name: 'X' }] },
      ]);
      const res = await upload([{ fileName: 'bad.xlsx', bytes }]);
      const messages = res
        .json()
        .sheetParseResults.flatMap((r: { failures: { errorMessage: string }[] }) =>
          r.failures.map((f) => f.errorMessage),
        );
      expect(messages).toEqual([
        'Row 2, column validFrom: Start date missing',
        'Row 3, column validTo: End date missing',
        'Row 4, column validFrom: Value soon is invalid',
        'Row 4, column maxSpeed: Value fast is invalid',
        'Something is wrong with data of type: Spaceship. The sheet name must be an entity type',
      ]);
    });

    it('stores a valid upload in one go, resolving references by name, and logs it', async () => {
      const master = await fixtureWorkbook([
        { name: 'Organisation', rows: ORGANISATION_ROWS },
        { name: 'TractionUnitType', rows: TYPE_ROWS },
      ]);
      const fleet = await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(500) }]);
      const res = await upload([
        { fileName: 'master.xlsx', bytes: master },
        { fileName: 'fleet.xlsx', bytes: fleet },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect(await countOf('tractionunit')).toBe(500);
      const [unit] = await t.allAreas.query<{ attributes: Record<string, unknown> }>(
        `SELECT s.attributes FROM entity_segment s WHERE s.tenant = $1 AND s.type = 'tractionunit' AND s.name = $2`,
        [tenant, `TU ${evnFor(1)}`],
      );
      const [org] = await t.allAreas.query<{ entity_uuid: string }>(
        `SELECT entity_uuid FROM entity_segment WHERE tenant = $1 AND type = 'organisation'`,
        [tenant],
      );
      expect(unit!.attributes).toMatchObject({ evn: evnFor(1), owner: org!.entity_uuid });
      const log = await listFiles(t.allAreas.db, tenant);
      expect(log.slice(0, 2).map((e) => e.messageStatus)).toEqual(['OK', 'OK']);
    });

    it('refuses a name that belongs to another entity and a duplicate EVN', async () => {
      const rows = tractionUnitRows(2, 1000);
      // A new entity (its own uuid) with the name of a stored unit. Without a uuid the row would
      // address that stored unit by its name.
      rows[0]!.uuid = randomUUID();
      rows[0]!.name = `TU ${evnFor(1)}`;
      rows[1]!.evn = evnFor(2); // the EVN of a stored unit
      const res = await upload([
        { fileName: 'dup.xlsx', bytes: await fixtureWorkbook([{ name: 'TractionUnit', rows }]) },
      ]);
      expect(res.json().sheetParseResults[0].failures.map((f: { errorMessage: string }) => f.errorMessage)).toEqual([
        'Row 2, column name: The chosen name already exists for another entity. Please choose a new name',
        `Row 3, column evn: Property must be unique: ${evnFor(2)} belongs to another TractionUnit`,
      ]);
    });

    it('export then import of the same file changes nothing', async () => {
      const before = await allSegments();
      const exported = await exportEntities({ type: 'TractionUnit' });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-disposition']).toBe('attachment; filename="exportedentities.xlsx"');
      const orgs = await exportEntities({ type: 'Organisation' });
      const res = await upload([
        { fileName: 'orgs.xlsx', bytes: orgs.rawPayload },
        { fileName: 'exportedentities.xlsx', bytes: exported.rawPayload },
      ]);
      expect(res.json()).toMatchObject({ success: true });
      expect(await allSegments()).toEqual(before);
    });

    it('a changed row in an exported file becomes a new version from its date, keeping history', async () => {
      const exported = await exportEntities({ type: 'TractionUnit' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('TractionUnit')!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const col = (name: string) => header.indexOf(name);
      sheet.getRow(2).getCell(col('Description')).value = 'Renamed';
      sheet.getRow(2).getCell(col('Valid from')).value = '2025-01-01T00:00:00Z';
      const uuid = String(sheet.getRow(2).getCell(col('UUID')).value);
      const res = await upload([{ fileName: 'change.xlsx', bytes: Buffer.from(await workbook.xlsx.writeBuffer()) }]);
      expect(res.json()).toMatchObject({ success: true });
      const segments = await t.allAreas.query<{ valid: string; description: string; superseded: boolean }>(
        `SELECT valid::text, attributes->>'description' AS description, superseded_at IS NOT NULL AS superseded
           FROM entity_segment WHERE entity_uuid = $1 ORDER BY superseded_at NULLS FIRST, lower(valid)`,
        [uuid],
      );
      expect(segments.map((s) => [s.description, s.superseded])).toEqual([
        [expect.stringMatching(/^Locomotive/), false],
        ['Renamed', false],
        [expect.stringMatching(/^Locomotive/), true],
      ]);
    });

    it('escapes formula-like text on export and reads it back unchanged', async () => {
      const evil = '=HYPERLINK("http://evil.example","click")';
      const rows = tractionUnitRows(1, 2000);
      rows[0]!.comments = `'${evil}`; // as our export writes it
      rows[0]!.description = '+47 22 00 00 00';
      const first = await upload([
        { fileName: 'f.xlsx', bytes: await fixtureWorkbook([{ name: 'TractionUnit', rows }]) },
      ]);
      expect(first.json()).toMatchObject({ success: true });
      const [stored] = await t.allAreas.query<{ entity_uuid: string; comments: string; description: string }>(
        `SELECT entity_uuid, comments, attributes->>'description' AS description FROM entity_segment
          WHERE tenant = $1 AND name = $2`,
        [tenant, `TU ${evnFor(2000)}`],
      );
      expect(stored).toMatchObject({ comments: evil, description: '+47 22 00 00 00' });

      const exported = await exportEntities({ uuids: [stored!.entity_uuid] });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('TractionUnit')!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      expect(sheet.getRow(2).getCell(header.indexOf('Comments')).value).toBe(`'${evil}`);
      expect(sheet.getRow(2).getCell(header.indexOf('Description')).value).toBe(`'+47 22 00 00 00`);
      expect(sheet.getRow(2).getCell(header.indexOf('Comments')).formula).toBeUndefined();

      const before = await allSegments();
      const again = await upload([{ fileName: 'again.xlsx', bytes: exported.rawPayload }]);
      expect(again.json()).toMatchObject({ success: true });
      expect(await allSegments()).toEqual(before);
    });

    it('exports readable headers and dd.MM.yyyy in the area time zone (Norway), and imports exactly that back', async () => {
      const [row] = tractionUnitRows(1, 3000);
      // Typed as people type dates: midnight in Norway.
      const typed = { ...row, validFrom: '15.03.2024', validTo: '01.01.2070', comments: 'Tromsø depot' };
      const first = await upload([
        { fileName: 'typed.xlsx', bytes: await fixtureWorkbook([{ name: 'TractionUnit', rows: [typed] }]) },
      ]);
      expect(first.json()).toMatchObject({ success: true });
      const [stored] = await t.allAreas.query<{ entity_uuid: string; lower: string; upper: string }>(
        `SELECT entity_uuid, to_char(lower(valid) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS lower,
                to_char(upper(valid) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS upper
           FROM entity_segment WHERE tenant = $1 AND name = $2 AND superseded_at IS NULL`,
        [tenant, row!.name],
      );
      expect(stored!.lower).toBe('2024-03-14T23:00');
      // 01.01.2070 typed as the end is the open end, not midnight in Oslo (2069-12-31T23:00Z).
      expect(stored!.upper).toBe('2070-01-01T00:00');

      const exported = await exportEntities({ uuids: [stored!.entity_uuid] });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('TractionUnit')!;
      const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
      expect(header.slice(0, 7)).toEqual(['UUID', 'Name', 'Valid from', 'Valid to', 'State', 'Active', 'Comments']);
      expect(header).toEqual(
        expect.arrayContaining(['EVN', 'Description', 'Owner', 'Traction unit type', 'Consumption points']),
      );
      const cell = (label: string) => sheet.getRow(2).getCell(header.indexOf(label) + 1).value;
      expect([cell('Valid from'), cell('Valid to')]).toEqual(['15.03.2024', '01.01.2070']);
      expect(cell('Traction unit type')).toBe('Vectron');

      const before = await allSegments();
      const again = await upload([{ fileName: 'again.xlsx', bytes: exported.rawPayload }]);
      expect(again.json()).toMatchObject({ success: true });
      expect(await allSegments()).toEqual(before);

      const csv = await t.app.inject({
        method: 'POST',
        url: '/api/excel/masterdata/export',
        headers: await t.headersFor(ADMIN),
        payload: { evn: row!.evn },
      });
      expect(csv.rawPayload.toString('utf8').split('\r\n')[0]).toBe(
        '\uFEFFEVN;VKM;NVR;Description;Traction unit name;Type;Responsible;EMS type;EMS id;CPID;Valid from;Valid to;Status',
      );
      expect(readMasterdataCsv(csv.rawPayload)[0]!.row).toMatchObject({
        'Valid from': '15.03.2024',
        'Valid to': '01.01.2070',
      });
    });

    it('rejects six files', async () => {
      const bytes = await fixtureWorkbook([{ name: 'TractionUnitType', rows: TYPE_ROWS }]);
      const res = await upload(Array.from({ length: 6 }, (_, i) => ({ fileName: `f${i}.xlsx`, bytes })));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('At most 5 files');
    });

    it('rejects a file above the size limit', async () => {
      const res = await upload([{ fileName: 'huge.xlsx', bytes: randomBytes(1_200_000) }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('larger than');
      const [entry] = await listFiles(t.allAreas.db, tenant);
      expect(entry).toMatchObject({ fileName: 'huge.xlsx', messageStatus: 'REJECTED', fileSize: null });
    });

    it('rejects a zip bomb before inflating it', async () => {
      const bomb = craftZip([
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(50 * 1024 * 1024, 0x20) },
      ]);
      expect(bomb.length).toBeLessThan(1_000_000);
      const res = await upload([{ fileName: 'bomb.xlsx', bytes: bomb }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/bomb.xlsx: .*compression ratio/);
      const [entry] = await listFiles(t.allAreas.db, tenant);
      expect(entry).toMatchObject({ fileName: 'bomb.xlsx', messageStatus: 'REJECTED' });
    });
  });

  describe('hostile uploads', () => {
    const raw = async (payload: Buffer | string, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/import',
        headers: { ...(await t.headersFor(ADMIN)), 'content-type': contentType },
        payload,
      });

    it('refuses an entry the central directory does not list (890 MB of rows) with 400 and a data-log entry, under 1 GB of memory', async () => {
      const workbook = await fixtureWorkbook([{ name: 'TractionUnitType', rows: TYPE_ROWS }]);
      // 850 rows of one 1 MB inline string each: about 1,000:1, so the file stays under the 1 MB upload limit.
      const rows = repeatedDeflate(
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
        `<row><c t="inlineStr"><is><t>${'B'.repeat(1024 * 1024)}</t></is></c></row>`,
        850,
        '</sheetData></worksheet>',
      );
      // The real workbook's central directory stays valid: the hidden entry sits in front of it.
      const hidden = craftZip([
        { name: 'xl/worksheets/sheet2.xml', data: Buffer.alloc(0), deflated: rows.body, declaredSize: rows.size },
      ]);
      const hiddenLocal = hidden.subarray(0, hidden.readUInt32LE(hidden.length - 6));
      const cdOffset = workbook.readUInt32LE(workbook.length - 6);
      const bomb = Buffer.concat([workbook.subarray(0, cdOffset), hiddenLocal, workbook.subarray(cdOffset)]);
      bomb.writeUInt32LE(cdOffset + hiddenLocal.length, bomb.length - 6);
      expect(rows.size).toBeGreaterThan(890_000_000);
      expect(bomb.length).toBeLessThan(1_000_000);

      // Growth, not absolute RSS: test files share a worker (isolate: false), each with its own
      // embedded database, so the process is already large. Inflating the entry would add 890 MB.
      const rssBefore = process.memoryUsage().rss;
      const res = await upload([{ fileName: 'hidden.xlsx', bytes: bomb }]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'invalid_input' });
      expect(res.json().message).toMatch(/hidden.xlsx: The archive holds data its directory does not list/);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
      const [entry] = await listFiles(t.allAreas.db, tenant);
      expect(entry).toMatchObject({ fileName: 'hidden.xlsx', messageStatus: 'REJECTED', fileSize: bomb.length });
    });

    it('logs every file as RUNNING before it is read, and its outcome after', async () => {
      const bytes = await fixtureWorkbook([{ name: 'TractionUnitType', rows: [{ ...TYPE_ROWS[0], name: 'Logged' }] }]);
      const seenWhileReading: string[] = [];
      // Another area, so the other tests of this file see none of it.
      const sweden = t.areaUuid('sweden');
      const ctx = serviceContext(
        tenantExecutor(t.database, sweden),
        sweden,
        { username: ADMIN, roles: [ADMIN] },
        { timeZone: 'Europe/Stockholm' },
      );
      const answer = await importDomainFiles(ctx, [{ fileName: 'logged.xlsx', bytes }], {
        readWorkbook: async (task) => {
          const [entry] = await listFiles(t.allAreas.db, sweden);
          seenWhileReading.push(`${entry!.fileName} ${entry!.messageStatus}`);
          return readDomainWorkbook(task);
        },
      });
      expect(answer.success).toBe(true);
      expect(seenWhileReading).toEqual(['logged.xlsx RUNNING']);
      const [entry] = await listFiles(t.allAreas.db, sweden);
      expect(entry).toMatchObject({ fileName: 'logged.xlsx', messageStatus: 'OK', fileSize: bytes.length });

      // A reader that dies (a crashed worker) leaves no entry RUNNING.
      await expect(
        importDomainFiles(ctx, [{ fileName: 'dies.xlsx', bytes }], {
          readWorkbook: () => Promise.reject(new Error('worker exited')),
        }),
      ).rejects.toThrow('worker exited');
      const [died] = await listFiles(t.allAreas.db, sweden);
      expect(died).toMatchObject({ fileName: 'dies.xlsx', messageStatus: 'ERROR' });
    });

    it('round-trips Finnish, Norwegian and Danish names byte-identical through import, export and import (shared and inline strings; 20,000 rows at the reader level in table-workbook.test.ts)', async () => {
      // Another area, so the other tests of this file see none of it.
      const finland = t.areaUuid('finland');
      const names = ['Jyväskylä Äänekoski', 'Tromsø Bodø Ålesund', 'Ærøskøbing Næstved Øster', 'Säynätsalo Pääskylä'];
      const rows = Array.from({ length: 2_000 }, (_, i) => ({
        name: `${names[i % names.length]} ${i}`,
        validFrom: '01.01.2024',
        validTo: '01.01.2070',
        description: `${names[(i + 1) % names.length]} ø æ å ä ö`,
      }));
      const call = async (url: string, payload: Buffer | Record<string, unknown>, extra: Record<string, string> = {}) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { ...(await t.headersFor(ADMIN, 'finland')), ...extra },
          payload,
        });
      const send = async (fileName: string, bytes: Buffer) => {
        const body = multipartBody([{ fileName, bytes }]);
        return call('/api/excel/domain/import', body.payload, body.headers);
      };
      // Shared strings (exceljs's default) in, ...
      const first = await send('names.xlsx', await fixtureWorkbook([{ name: 'TrafficCategoryType', rows }]));
      expect(first.json()).toMatchObject({ success: true });
      const stored = await t.allAreas.query<{ name: string; description: string }>(
        `SELECT name, attributes->>'description' AS description FROM entity_segment
          WHERE tenant = $1 AND type = 'trafficcategorytype'`,
        [finland],
      );
      const number = (name: string) => Number(name.slice(name.lastIndexOf(' ') + 1));
      stored.sort((a, b) => number(a.name) - number(b.name));
      expect(stored.map((r) => Buffer.from(`${r.name}|${r.description}`))).toEqual(
        rows.map((r) => Buffer.from(`${r.name}|${r.description}`)),
      );

      // ... exported and imported back: nothing changes.
      const exported = await call('/api/excel/domain/export', { type: 'TrafficCategoryType' });
      const before = await t.allAreas.query('SELECT id FROM entity_segment WHERE tenant = $1 ORDER BY id', [finland]);
      const again = await send('exportedentities.xlsx', exported.rawPayload);
      expect(again.json()).toMatchObject({ success: true });
      expect(await t.allAreas.query('SELECT id FROM entity_segment WHERE tenant = $1 ORDER BY id', [finland])).toEqual(
        before,
      );

      // Inline strings: the same names as a new description on every row reach the database intact.
      const inline = new ExcelJS.Workbook();
      const sheet = inline.addWorksheet('TrafficCategoryType');
      sheet.addRow(['Name', 'Valid from', 'Valid to', 'Description']);
      for (const r of rows) sheet.addRow([r.name, r.validFrom, r.validTo, `${r.name} inline`]);
      const bytes = Buffer.from(await inline.xlsx.writeBuffer({ useSharedStrings: false } as ExcelJS.XlsxWriteOptions));
      expect((await send('inline.xlsx', bytes)).json()).toMatchObject({ success: true });
      const descriptions = await t.allAreas.query<{ d: string }>(
        `SELECT attributes->>'description' AS d FROM entity_segment
          WHERE tenant = $1 AND type = 'trafficcategorytype' AND superseded_at IS NULL`,
        [finland],
      );
      expect(new Set(descriptions.map((r) => r.d))).toEqual(new Set(rows.map((r) => `${r.name} inline`)));
    }, 180_000);

    it('names the reason when the file is not a workbook at all', async () => {
      const res = await upload([{ fileName: 'notes.xlsx', bytes: Buffer.from('name;EVN\nA;123') }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'Something is wrong with uploaded data. notes.xlsx: The file is not a valid xlsx workbook',
      );
      // A well-formed zip whose parts are broken XML is refused the same way, never a 500.
      const broken = craftZip([
        { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="A" sheetId="1" r:id="rId1"/>') },
        { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet><sheetData><row><c><<</row>') },
      ]);
      const res2 = await upload([{ fileName: 'broken.xlsx', bytes: broken }]);
      expect(res2.statusCode).toBe(400);
      expect(res2.json().message).toMatch(
        /^Something is wrong with uploaded data. broken.xlsx: The file is not a valid xlsx workbook/,
      );
      const [entry] = await listFiles(t.allAreas.db, tenant);
      expect(entry).toMatchObject({ fileName: 'broken.xlsx', messageStatus: 'REJECTED' });
    });

    it('answers malformed multipart bodies with 400 and the envelope, never 500', async () => {
      const file = await fixtureWorkbook([{ name: 'TractionUnitType', rows: TYPE_ROWS }]);
      const good = multipartBody([{ fileName: 'a.xlsx', bytes: file }]);
      const boundary = /boundary=(.*)$/.exec(good.headers['content-type']!)![1]!;
      const cases: [string, Buffer | string, string][] = [
        ['no boundary', good.payload, 'multipart/form-data'],
        ['a boundary the body does not use', good.payload, 'multipart/form-data; boundary=something-else'],
        ['a truncated part', good.payload.subarray(0, good.payload.length / 2), good.headers['content-type']!],
        [
          'a broken part header',
          `--${boundary}\r\nContent-Disposition form-data name files\r\n\r\nxx\r\n--${boundary}--\r\n`,
          good.headers['content-type']!,
        ],
        [
          'a file under another field',
          good.payload.toString('latin1').replace('name="files"', 'name="upload"'),
          good.headers['content-type']!,
        ],
      ];
      for (const [what, payload, contentType] of cases) {
        const res = await raw(typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload, contentType);
        expect(res.statusCode, what).toBe(400);
        expect(res.json(), what).toMatchObject({ status: 400, code: 'invalid_input' });
      }
    });
  });

  describe('POST /api/excel/domain/export', () => {
    it("answers 400 'No entities selected' to an empty selection", async () => {
      const res = await exportEntities({ uuids: [] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: 'No entities selected' });
    });

    it('answers 400 to an unknown type', async () => {
      expect((await exportEntities({ type: 'Spaceship' })).statusCode).toBe(400);
    });

    it('writes one sheet per type with readable column labels in row 1', async () => {
      const res = await exportEntities({ type: 'TractionUnitType' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('TractionUnitType')!;
      expect((sheet.getRow(1).values as unknown[]).slice(1, 9)).toEqual([
        'UUID',
        'Name',
        'Valid from',
        'Valid to',
        'State',
        'Active',
        'Comments',
        'Max speed',
      ]);
      expect(sheet.getRow(2).getCell(2).value).toBe('Vectron');
    });
  });

  describe('POST /api/excel/masterdata/export', () => {
    it('writes masterdata.csv with a line per traction unit', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/excel/masterdata/export',
        headers: await t.headersFor('vehicle-keeper'),
        payload: {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="masterdata.csv"');
      const lines = readMasterdataCsv(res.rawPayload);
      expect(lines.length).toBeGreaterThanOrEqual(500);
      expect(lines[0]!.row).toMatchObject({
        EVN: evnFor(1),
        'Traction unit name': `TU ${evnFor(1)}`,
        Type: 'Vectron',
        Responsible: 'Nordic Rail Keeper',
        // 2024-01-01T00:00:00Z on the wall clock of Norway.
        'Valid from': '01.01.2024 01:00',
        Status: 'ACTIVE',
      });
    });

    const exportMasterdata = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/excel/masterdata/export',
        headers: await t.headersFor(ADMIN),
        payload,
      });
      expect(res.statusCode).toBe(200);
      return readMasterdataCsv(res.rawPayload).map((l) => l.row);
    };

    it('exports what the fleet overview lists for a filter (EVN), as POST /domain/fleet takes it', async () => {
      const filter = { searchMode: 'ALL_READ_ONLY', evn: evnFor(12) };
      const overview = await t.app.inject({
        method: 'POST',
        url: '/api/domain/fleet?page=0&size=10',
        headers: await t.headersFor(ADMIN),
        payload: filter,
      });
      expect(overview.json().content.map((e: { evn: string }) => e.evn)).toEqual([evnFor(12)]);
      const rows = await exportMasterdata(filter);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.EVN))).toEqual(new Set([evnFor(12)]));
      expect(rows[0]).toMatchObject({ 'Traction unit name': `TU ${evnFor(12)}`, Type: 'Vectron' });
      // The overview's EVN filter ignores spaces and dashes; so does the export.
      const spaced = `${evnFor(12).slice(0, 4)} ${evnFor(12).slice(4, 8)}-${evnFor(12).slice(8)}`;
      expect(await exportMasterdata({ evn: spaced })).toEqual(rows);
      // Nothing matches: the header line alone.
      expect(await exportMasterdata({ evn: '0000000000000' })).toEqual([]);
    });

    it('exports only the selected uuids, within the filter sent with them', async () => {
      const overview = await t.app.inject({
        method: 'POST',
        url: '/api/domain/fleet?page=0&size=3',
        headers: await t.headersFor(ADMIN),
        payload: { sortBy: 'evn', descendingOrder: true },
      });
      const entries = overview.json<{ content: { uuid: string; evn: string }[] }>().content;
      const rows = await exportMasterdata({ uuids: entries.slice(0, 2).map((e) => e.uuid), descendingOrder: true });
      expect([...new Set(rows.map((r) => r.EVN))]).toEqual(entries.slice(0, 2).map((e) => e.evn));
    });
  });
});
