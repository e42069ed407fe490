import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { openTestDatabase } from '../../test/database.js';
import { fileBytes, listFiles, recordFile } from './datalog-service.js';

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
    const id = await recordFile(database, {
      tenant: TENANT,
      username: 'keeper',
      messageType: 'EXCEL_DOMAIN_IMPORT',
      status: 'REJECTED',
      text: 'Row 7, column evn: must be exactly 12 digits',
      fileName: 'fleet.xlsx',
      bytes,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    const [entry] = await listFiles(database, TENANT);
    expect(entry).toMatchObject({
      id,
      messageType: 'EXCEL_DOMAIN_IMPORT',
      messageStatus: 'REJECTED',
      fileName: 'fleet.xlsx',
      username: 'keeper',
      fileSize: 5,
    });
    expect(await fileBytes(database, TENANT, id)).toEqual(bytes);
    expect(await fileBytes(database, '00000000-0000-4000-8000-000000000002', id)).toBeNull();
  });
});
