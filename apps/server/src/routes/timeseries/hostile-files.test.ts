import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMITS, type DataLogEntry, type DataLogPage, type TimeSeriesUploadResult } from '@railwatt/contracts';
import { findPgError } from '../../db/constraints.js';
import { cebdXml } from '../../formats/cebd/generate.js';
import { seededRandom } from '../../formats/timeseries/seeded-random.js';
import { writeUtilts } from '../../formats/utilts/utilts-writer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { consumptionPointCpids } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

const RESPONSIBLE = 'settlement-area-responsible';
const ADMINISTRATOR = 'erex-administrator';
/** What must never reach a user's message: a database error's words. */
const SQL_WORDS = /Failed query|INSERT INTO|SELECT |params:|violates|duplicate key/i;

/**
 * Issue 17 items 4 and 6: what a file says (its name, its bytes, its duplicates) never breaks the
 * data log. Each file goes through the real upload route and the import job; then the area's data-log
 * list answers 200 and the entry has its final status, never RUNNING.
 */
describe('hostile files: every upload ends with an outcome and the data log still lists', () => {
  let t: TestApp;
  let cpid = '';
  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure'], jobs: {} });
    [cpid] = (await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 1)) as [string];
  });
  afterAll(async () => t?.close());

  /** Uploads one file, waits for its import job, and answers its data-log entry from the list (which must answer 200). */
  const imported = async (
    url: string,
    fileName: string,
    bytes: Buffer,
    username = RESPONSIBLE,
  ): Promise<{ entry: DataLogEntry; runMessage: string | null }> => {
    const res = await t.uploadAs(username, url, [{ fileName, bytes }]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    let runMessage: string | null = null;
    if (answer.jobIds?.[0]) {
      const run = await waitForRun(t.database, answer.jobIds[0], { until: ['success', 'failure', 'dead'] });
      runMessage = run.message;
    }
    const list = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=1000' });
    expect(list.statusCode, list.body).toBe(200);
    const entry = list.json<DataLogPage>().content.find((e) => e.id === answer.dataLogIds![0]);
    expect(entry).toBeDefined();
    return { entry: entry!, runMessage };
  };

  const start = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 11) + '00:00:00Z';
  const cebdFile = () =>
    [
      ...cebdXml({
        seed: 7,
        points: [{ cpid, route: [{ lat: 59.91, lon: 10.75 }], start: start(), periods: 3 }],
      }),
    ].join('');

  it('cuts a file name over the contract’s 200 characters, keeping its extension, and imports the file', async () => {
    const { entry } = await imported('/api/cebd/import', `${'a'.repeat(300)}.xml`, Buffer.from(cebdFile()));
    expect(entry.messageStatus).toBe('OK');
    expect(entry.fileName).toHaveLength(TEXT_LIMITS.name);
    expect(entry.fileName!.endsWith('….xml')).toBe(true);
  });

  it('makes the bound the table’s rule: a writer that forgets it fails at its write, not the list', async () => {
    const insert = t.allAreas.query(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name) VALUES ($1, 'CEBD_IMPORT', 'OK', $2)`,
      [t.areaUuid('norway'), 'x'.repeat(201)],
    );
    const error = await insert.then(
      () => null,
      (e: unknown) => e,
    );
    expect(findPgError(error)).toMatchObject({ code: '23514', constraint: 'data_log_file_name_length' });
  });

  it('escapes NUL and other control characters in a file name', async () => {
    const { entry } = await imported('/api/cebd/import', 'day\u0000\u0001\u007f.xml', Buffer.from(cebdFile()));
    expect(entry).toMatchObject({ messageStatus: 'OK', fileName: 'day\\x00\\x01\\x7f.xml' });
  });

  it('rejects a CEBD file with one CPID in two blocks of the same periods as a duplicate, storing nothing', async () => {
    const one = cebdFile();
    const block = /<CEBDBlock[\s\S]*<\/CEBDBlock>/.exec(one)![0];
    const { entry, runMessage } = await imported(
      '/api/cebd/import',
      'twice.xml',
      Buffer.from(one.replace(block, `${block}\n${block}`)),
    );
    expect(entry.messageStatus).toBe('REJECTED');
    expect(entry.messageText).toMatch(
      new RegExp(`CEBDBlock\\[2\\]/Record\\[1\\].*: Duplicate detected: Records of CPID ${cpid} state the 3 periods`),
    );
    expect(entry.messageText).not.toMatch(SQL_WORDS);
    expect(runMessage).not.toMatch(SQL_WORDS);
    const [stored] = await t.allAreas.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM time_series_value WHERE data_log_id = $1)
            + (SELECT count(*) FROM cebd_record WHERE data_log_id = $1) AS n`,
      [entry.id],
    );
    expect(Number(stored!.n)).toBe(0);
  });

  it('rejects a UTILTS file with NUL and bytes of no text, quoting them escaped', async () => {
    const bytes = Buffer.from("UNB+UNOC:3+a\u0000b+c'UNH+1+UTILTS\u0000'\u00ff\u00fe", 'latin1');
    const { entry, runMessage } = await imported('/api/timeseries/import/edi', 'nul.edi', bytes);
    expect(entry.messageStatus).toBe('REJECTED');
    expect(entry.messageText).toContain('Message type UTILTS\\x00 is not supported');
    expect(runMessage).toContain('UTILTS\\x00');
  });

  it('rejects a UTILTS file whose metering point holds NUL, naming it, instead of failing the database query', async () => {
    const utilts = writeUtilts({
      sender: '7080000000001',
      receiver: '7080000000002',
      reference: 'REF1',
      created: '2026-10-02T06:00:00Z',
      series: [{ meteringPoint: 'SMP\u0000X', start: '2026-10-01T00:00:00Z', resolution: 'PT1H', values: [1, 2] }],
    });
    const { entry } = await imported('/api/timeseries/import/edi', 'nul-id.edi', Buffer.from(utilts, 'latin1'));
    expect(entry.messageStatus).toBe('REJECTED');
    expect(entry.messageText).toMatch(
      /segment \d+ \(\w+\), line \d+: Identifier SMP\\x00X holds characters that are not text/,
    );
  });

  it('rejects a UTILTS file declared UTF-8 whose bytes are not, and one written in UTF-16', async () => {
    const invalid = Buffer.concat([
      Buffer.from("UNB+UNOY:3+a+b'UNH+1+UTILTS:D:02B:UN:E5NO1B'BGM+"),
      Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from("'"),
    ]);
    const first = await imported('/api/timeseries/import/edi', 'not-utf8.edi', invalid);
    expect(first.entry.messageStatus).toBe('REJECTED');
    const surrogates = Buffer.from("UNB+UNOY:3+a+b'UNH+1+UTILTS\ud800'", 'utf16le');
    const second = await imported('/api/timeseries/import/edi', 'utf16.edi', surrogates);
    expect(second.entry.messageStatus).toBe('REJECTED');
  });

  /** Random bytes behind the first bytes each format's detection wants, so the import job reads them. */
  const FORMATS: { url: string; name: string; head: string; username?: string }[] = [
    { url: '/api/cebd/import', name: 'r.xml', head: '<CEBDFile xmlns="urn:railwatt:cebd:1" ' },
    { url: '/api/timeseries/import/edi', name: 'r.edi', head: 'UNB+UNOC:3+' },
    { url: '/api/timeseries/import/sdv', name: 'r.sdv', head: '<ValidatedMeteredData ' },
    { url: '/api/excel/timeseries/import', name: 'r.xlsx', head: 'PK\u0003\u0004' },
    { url: '/api/excel/timeseries/csv-import', name: 'r.csv', head: 'type;spot_price\r\n' },
    {
      url: '/api/automaticfileimport/importnordpool',
      name: 'r.csv',
      head: 'Delivery day;Hours;NO1\r\n',
      username: ADMINISTRATOR,
    },
    { url: '/api/timeseries/import/trainrun', name: 'r.xml', head: '<TrainRuns xmlns="urn:railwatt:trainrun:1" ' },
  ];

  it('rejects random bytes in every intake format: REJECTED with a message, never RUNNING, never a 500', async () => {
    const random = seededRandom(17);
    for (const format of FORMATS) {
      for (let i = 0; i < 3; i++) {
        const noise = Buffer.from(
          Array.from({ length: 200 + Math.floor(random() * 2000) }, () => Math.floor(random() * 256)),
        );
        // Every third file is mostly NUL: the bytes PostgreSQL text cannot hold.
        if (i === 2) noise.fill(0, 0, noise.length >> 1);
        const { entry } = await imported(
          format.url,
          format.name,
          Buffer.concat([Buffer.from(format.head, 'latin1'), noise]),
          format.username,
        );
        expect([entry.messageStatus, format.url]).toEqual(['REJECTED', format.url]);
        expect(entry.messageText).toBeTruthy();
        expect(entry.messageText).not.toMatch(SQL_WORDS);
      }
    }
  });
});
