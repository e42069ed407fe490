import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { MAX_UPLOAD_FILES, MESSAGE_TYPES, type DataLogPage, type TimeSeriesUploadResult } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES } from '../../modules/datalog/file-store.js';
import { multipartBody } from '../../modules/excel/fixtures.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const RESPONSIBLE = 'settlement-area-responsible';
const LIMIT = 100 * 1024 * 1024;
const CSV_IMPORT = '/api/excel/timeseries/csv-import';

/** `size` bytes that are not one repeated part (a part written twice or out of order would show). */
function bigFile(size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  for (let offset = 0; offset + 4 <= size; offset += 4) bytes.writeUInt32LE(offset, offset);
  bytes.fill(7, size - (size % 4));
  return bytes;
}
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Uploads at the limit (issue 17 item 2): a 100 MB time-series file is streamed into the data log
 * part by part and downloads byte-identical; one byte over the limit, or a body longer than any
 * upload can be, is refused with a data-log entry and no bytes kept.
 */
describe('time-series uploads at the size limit (100 MB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { timeSeriesImportMaxFileBytes: LIMIT } });
  });
  afterAll(async () => t?.close());

  const upload = (fileName: string, bytes: Buffer) => {
    const body = multipartBody([{ fileName, bytes, contentType: 'application/octet-stream' }]);
    return t.callAs(RESPONSIBLE, { method: 'POST', url: CSV_IMPORT, headers: body.headers, payload: body.payload });
  };
  const entry = async (id: number) => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=100' });
    return res.json<DataLogPage>().content.find((e) => e.id === id);
  };
  const storedParts = async (fileName: string) =>
    t.allAreas.query<{ id: number; size: number | null; parts: number; status: string; text: string | null }>(
      `SELECT d.id::int, d.file_size::int AS size, d.message_status AS status, d.message_text AS text,
              (SELECT count(*)::int FROM data_log_part p WHERE p.data_log_id = d.id) AS parts
         FROM data_log d WHERE d.file_name = $1 ORDER BY d.id`,
      [fileName],
    );

  it('stores a 100 MB file in 1 MB parts and downloads it byte-identical', async () => {
    const bytes = bigFile(LIMIT);
    // Not a csv file by its name: refused by the format check after it was stored, so no import
    // job runs, and its stored bytes stay downloadable like any refused file's.
    const res = await upload('big.bin', bytes);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    expect(answer).toMatchObject({ success: false, async: false });
    const id = answer.dataLogIds![0]!;
    expect(await entry(id)).toMatchObject({ fileName: 'big.bin', messageStatus: 'REJECTED' });
    expect(await storedParts('big.bin')).toEqual([
      { id, size: LIMIT, parts: LIMIT / PART_BYTES, status: 'REJECTED', text: expect.stringMatching(/not a csv file/) },
    ]);

    const download = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/datalog/download',
      payload: { id, messageType: MESSAGE_TYPES.csvTimeSeriesImport },
    });
    expect(download.statusCode, download.body.slice(0, 300)).toBe(200);
    expect(download.headers['content-length']).toBe(String(LIMIT));
    expect(sha(download.rawPayload)).toBe(sha(bytes));
  }, 300_000);

  it('refuses a file one byte over the limit when the limit is reached, keeping its entry and no bytes', async () => {
    const res = await upload('over.csv', bigFile(LIMIT + 1));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_input', message: 'The file over.csv is larger than 104.9 MB' });
    expect(await storedParts('over.csv')).toEqual([
      {
        id: expect.any(Number),
        size: null,
        parts: 0,
        status: 'REJECTED',
        text: 'The file over.csv is larger than 104.9 MB',
      },
    ]);
  }, 300_000);

  it('refuses a body longer than any upload from its Content-Length, before reading it', async () => {
    const body = multipartBody([{ fileName: 'huge.csv', bytes: Buffer.from('a;b\n') }]);
    let read = 0;
    const payload = new Readable({
      read() {
        read += 1;
        this.push(body.payload);
        this.push(null);
      },
    });
    const res = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: CSV_IMPORT,
      headers: { ...body.headers, 'content-length': String(MAX_UPLOAD_FILES * (LIMIT + 65_536) + 1) },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`The upload is larger than ${MAX_UPLOAD_FILES} files of 104.9 MB`);
    // One entry for the refusal; no file name, since nothing of the body was read.
    const [refusal] = await t.allAreas.query<{ name: string | null; status: string; size: number | null }>(
      `SELECT file_name AS name, message_status AS status, file_size AS size FROM data_log
        WHERE message_text = $1`,
      [`The upload is larger than ${MAX_UPLOAD_FILES} files of 104.9 MB`],
    );
    expect(refusal).toEqual({ name: null, status: 'REJECTED', size: null });
    expect(await storedParts('huge.csv')).toEqual([]);
    expect(read).toBeLessThanOrEqual(1);
  });
});
