import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { openTestDatabase } from '../../test/database.js';
import {
  failInterruptedFiles,
  finishFile,
  INTERRUPTED_TEXT,
  listFiles,
  recordFile,
  startFile,
} from './datalog-service.js';
import { readFileBytes } from './file-store.js';

const TENANT = '00000000-0000-4000-8000-000000000001';

describe('data log', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('records a file with its outcome and keeps the original bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const id = await recordFile(database.db, {
      tenant: TENANT,
      username: 'keeper',
      messageType: 'EXCEL_DOMAIN_IMPORT',
      status: 'REJECTED',
      text: 'Row 7, column evn: must be exactly 12 digits',
      fileName: 'fleet.xlsx',
      bytes,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    const [entry] = await listFiles(database.db, TENANT);
    expect(entry).toMatchObject({
      id,
      messageType: 'EXCEL_DOMAIN_IMPORT',
      messageStatus: 'REJECTED',
      fileName: 'fleet.xlsx',
      username: 'keeper',
      fileSize: 5,
    });
    expect(await readFileBytes(database.db, TENANT, id)).toEqual(bytes);
    expect(await readFileBytes(database.db, '00000000-0000-4000-8000-000000000002', id)).toBeNull();
  });

  it('records a file as RUNNING before its outcome, and fails entries a stopped process left RUNNING', async () => {
    const file = { tenant: TENANT, username: 'keeper', messageType: 'EXCEL_DOMAIN_IMPORT', fileName: 'a.xlsx' };
    const done = await startFile(database.db, file);
    const interrupted = await startFile(database.db, { ...file, fileName: 'b.xlsx' });
    const elsewhere = await startFile(database.db, { ...file, tenant: '00000000-0000-4000-8000-000000000002' });
    const status = async (tenant = TENANT) =>
      Object.fromEntries((await listFiles(database.db, tenant)).map((e) => [e.id, [e.messageStatus, e.messageText]]));
    expect((await status())[done]).toEqual(['RUNNING', null]);
    await finishFile(database.db, TENANT, done, { status: 'OK', text: '3 rows read' });

    // Start-up after a crash: every area's RUNNING entries, and only those, become FAILED.
    expect(await failInterruptedFiles(database.db)).toBe(2);
    const after = await status();
    expect(after[done]).toEqual(['OK', '3 rows read']);
    expect(after[interrupted]).toEqual(['FAILED', INTERRUPTED_TEXT]);
    expect((await status('00000000-0000-4000-8000-000000000002'))[elsewhere]).toEqual(['FAILED', INTERRUPTED_TEXT]);
    expect(await failInterruptedFiles(database.db)).toBe(0);
  });
});
