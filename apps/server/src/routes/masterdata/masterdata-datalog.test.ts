import { gzipSync } from 'node:zlib';
import { MESSAGE_TYPES as T, type MasterDataLogPage } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFile } from '../../modules/datalog/datalog-service.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';

/** calls.md §7 "Master-data data log": transfers of the administrator's areas, paged; downloads. */
describe('master-data data log (/api/masterdata/datalog)', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const workbook = Buffer.from([0x50, 0x4b, 3, 4, 0, 255, 1]);

  beforeAll(async () => {
    t = await createTestApp();
    const base = { username: 'erex-administrator', text: null, contentType: 'application/octet-stream' };
    ids.import = await recordFile(t.allAreas.db, {
      ...base,
      tenant: t.areaUuid('norway'),
      messageType: T.excelDomainImport,
      status: 'REJECTED',
      fileName: 'fleet.xlsx',
      bytes: workbook,
    });
    ids.export = await recordFile(t.allAreas.db, {
      ...base,
      tenant: t.areaUuid('sweden'),
      messageType: T.masterdataExport,
      status: 'OK',
      fileName: 'masterdata.csv.gz',
      bytes: gzipSync(Buffer.from('evn;vkm\n123;X\n')),
      response: { fileName: 'receipt.xml', bytes: Buffer.from('<ok/>') },
      mode: 'SUBSCRIPTION',
    });
    ids.internal = await recordFile(t.allAreas.db, {
      ...base,
      tenant: t.areaUuid('sweden'),
      messageType: T.masterDataTransferInternal,
      status: 'ERROR',
      fileName: 'internal.json',
      bytes: Buffer.from('{}'),
    });
    // Not a master-data transfer: never listed here.
    ids.sdv = await recordFile(t.allAreas.db, {
      ...base,
      tenant: t.areaUuid('norway'),
      messageType: T.sdvImport,
      status: 'OK',
      fileName: 'a.sdv',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, query: Record<string, string> = {}, username = ADMIN) =>
    t.callAs(username, { method: 'GET', url, query }, 'administration');

  it('lists the transfers of every area the administrator holds, with type, status and mode', async () => {
    const response = await get('/api/masterdata/datalog');
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<MasterDataLogPage>();
    expect(page.page).toMatchObject({ totalPages: 1, totalElements: 3 });
    expect(page.content.map((e) => e.id)).toEqual([ids.internal, ids.export, ids.import]);
    expect(page.content[1]).toMatchObject({
      type: 'MASTER_DATA_TRANSFER_OUT',
      status: 'OK',
      mode: 'SUBSCRIPTION',
      fileName: 'masterdata.csv.gz',
      fileNameResponse: 'receipt.xml',
      areaName: 'Sweden',
    });
    expect(page.content[0]).toMatchObject({ type: 'MASTER_DATA_TRANSFER_INTERNAL', status: 'FAILED' });
    expect(page.content[2]).toMatchObject({ type: 'MASTER_DATA_TRANSFER_IN', status: 'REJECTED', mode: 'MANUAL' });
    const filtered = await get('/api/masterdata/datalog', { typeName: 'MASTER_DATA_TRANSFER_IN', size: '1' });
    expect(filtered.json<MasterDataLogPage>().content.map((e) => e.id)).toEqual([ids.import]);
    const second = await get('/api/masterdata/datalog', {
      size: '2',
      page: '1',
      sortBy: 'id',
      descendingOrder: 'false',
    });
    expect(second.json<MasterDataLogPage>()).toMatchObject({ page: { totalPages: 2, number: 1 } });
    expect(second.json<MasterDataLogPage>().content.map((e) => e.id)).toEqual([ids.internal]);
  });

  it('is the administrator’s alone', async () => {
    expect((await get('/api/masterdata/datalog', {}, 'settlement-area-responsible')).statusCode).toBe(403);
    expect((await get('/api/masterdata/datalog/types')).json()).toEqual([
      'MASTER_DATA_TRANSFER_OUT',
      'MASTER_DATA_TRANSFER_IN',
      'MASTER_DATA_TRANSFER_INTERNAL',
    ]);
    expect((await get('/api/masterdata/datalog/statuses')).json()).toEqual(['OK', 'FAILED', 'REJECTED']);
  });

  it('downloads the stored transfer, its decompressed form, its response and internal files', async () => {
    const download = (id: number, downloadContentType: string) =>
      get('/api/masterdata/datalog/download', { id: String(id), downloadContentType });
    const transfer = await download(ids.import!, 'TRANSFER');
    expect(transfer.statusCode).toBe(200);
    expect(transfer.rawPayload).toEqual(workbook);
    expect(transfer.headers['content-disposition']).toContain('filename="fleet.xlsx"');
    const decompressed = await download(ids.export!, 'TRANSFER_DECOMPRESSED');
    expect(decompressed.body).toBe('evn;vkm\n123;X\n');
    expect(decompressed.headers['content-disposition']).toContain('filename="masterdata.csv"');
    expect((await download(ids.export!, 'RESPONSE')).body).toBe('<ok/>');
    expect((await download(ids.import!, 'RESPONSE')).statusCode).toBe(404);
    expect((await download(ids.internal!, 'INTERNAL')).body).toBe('{}');
    expect((await download(ids.internal!, 'TRANSFER')).statusCode).toBe(400);
    expect((await download(ids.sdv!, 'TRANSFER')).statusCode).toBe(404);
  });
});
