import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import type { IntakeFormat, ParseItem } from '../../formats/timeseries/format.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { importParsedStream } from './intake.js';
import { VALUE_BATCH } from './store.js';

const NORWAY = areaUuid('norway');
const BELGIUM = areaUuid('belgium');

/**
 * The intake's own rules, independent of any file format: items come from a list (each format
 * module has its own tests, and the import job runs the real parsers end to end).
 */
const listFormat = (items: ParseItem[]): IntakeFormat => ({
  name: 'csv',
  detect: () => true,
  async *parse() {
    yield* items;
  },
});
const noBytes = (async function* () {})();

describe('time-series intake', () => {
  let database: Database;
  let cpid = '';
  let meteringPoint = '';
  const ctx = () =>
    serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, { timeZone: 'Europe/Oslo', kind: 'norway' });
  const count = async (table: string) =>
    Number(
      (await rows<{ n: string }>(tenantExecutor(database, NORWAY), sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!
        .n,
    );

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas', 'users', 'fleet', 'infrastructure'] });
    [{ cpid }] = (await database.query<{ cpid: string }>(
      `SELECT attributes->>'cpid' AS cpid FROM entity_latest WHERE tenant = $1 AND type = 'consumptionpoint' LIMIT 1`,
      [NORWAY],
    )) as [{ cpid: string }];
    [{ name: meteringPoint }] = (await database.query<{ name: string }>(
      `SELECT name FROM entity_latest WHERE tenant = $1 AND type = 'supplymeteringpoint' LIMIT 1`,
      [NORWAY],
    )) as [{ name: string }];
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  const supply = (values: number[], start = '2026-10-01T00:00:00Z'): ParseItem => ({
    kind: 'series',
    series: {
      typeName: 'supply_energy',
      identifier: meteringPoint,
      resolution: 'PT1H',
      points: values.map((value, i) => ({
        start: new Date(Date.parse(start) + i * 3_600_000).toISOString(),
        value,
        quality: 127,
      })),
      location: { line: 2 },
    },
  });

  it('stores a series, summarises it, and keeps a correction’s old value with who replaced it', async () => {
    const first = await importParsedStream(ctx(), listFormat([supply([1, 2, 3])]), noBytes, { dataLogId: 1 });
    expect(first).toMatchObject({ status: 'OK', counts: { inserted: 3, superseded: 0, unchanged: 0 } });
    expect(first.summaries).toEqual([
      {
        startTime: '2026-10-01T00:00:00.000Z',
        endTime: '2026-10-01T03:00:00.000Z',
        timeSeriesType: 'supply_energy',
        entityIdentifier: meteringPoint,
        valuesCount: 3,
        message: null,
      },
    ]);
    const again = await importParsedStream(ctx(), listFormat([supply([1, 5, 3])]), noBytes, { dataLogId: 2 });
    expect(again.counts).toEqual({ inserted: 0, superseded: 1, unchanged: 2 });
    const old = await rows<{
      value: string;
      data_log_id: string;
      superseded_by_data_log_id: string;
      superseded_by: string;
    }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT value::text AS value, data_log_id::text AS data_log_id,
                 superseded_by_data_log_id::text AS superseded_by_data_log_id, superseded_by
            FROM time_series_value_superseded`,
    );
    expect(old).toEqual([
      { value: '2', data_log_id: '1', superseded_by_data_log_id: '2', superseded_by: 'erex-administrator' },
    ]);
    expect(await count('time_series_value')).toBe(3);
  });

  it('stores each CEBD record as one row (four 5-minute series summarised, none of their values in the generic store)', async () => {
    const before = await count('time_series_value');
    const block: ParseItem = {
      kind: 'cebd',
      block: {
        cpid,
        blockType: 'CEBDBlock',
        location: { line: 3 },
        records: [5, 10].map((minute) => ({
          periodEnd: `2026-10-02T00:${String(minute).padStart(2, '0')}:00Z`,
          activeConsumed: 12.5,
          activeRegenerated: 1.25,
          reactiveConsumed: 0.5,
          reactiveRegenerated: 0,
          lat: 59.9,
          lon: 10.7,
          tractionSystem: '02',
          quality: 127,
        })),
      },
    };
    const result = await importParsedStream(ctx(), listFormat([block]), noBytes, { dataLogId: 3 });
    expect(result.status).toBe('OK');
    expect(result.summaries.map((s) => [s.timeSeriesType, s.valuesCount, s.startTime, s.endTime])).toEqual([
      ['cebd_active_energy_consumed', 2, '2026-10-02T00:00:00.000Z', '2026-10-02T00:10:00.000Z'],
      ['cebd_active_energy_regenerated', 2, '2026-10-02T00:00:00.000Z', '2026-10-02T00:10:00.000Z'],
      ['cebd_reactive_energy_consumed', 2, '2026-10-02T00:00:00.000Z', '2026-10-02T00:10:00.000Z'],
      ['cebd_reactive_energy_regenerated', 2, '2026-10-02T00:00:00.000Z', '2026-10-02T00:10:00.000Z'],
    ]);
    expect(result.text).toBe('Imported 8 values of 4 time series');
    expect((await count('time_series_value')) - before).toBe(0);
    const stored = await rows<Record<string, string | null>>(
      tenantExecutor(database, NORWAY),
      sql`SELECT rw_iso(period_end) AS end, active_consumed::text AS ac, active_regenerated::text AS ar,
                 reactive_consumed::text AS rc, reactive_regenerated::text AS rr, quality::text AS q,
                 lat::text AS lat, lon::text AS lon, traction_system AS ts, data_log_id::text AS dl,
                 codes::text AS codes, checked_at::text AS checked, duplicate::text AS dup
            FROM cebd_record ORDER BY period_end`,
    );
    const row = { ac: '12.5', ar: '1.25', rc: '0.5', rr: '0', q: '127', lat: '59.9', lon: '10.7', ts: '02', dl: '3' };
    const unchecked = { codes: null, checked: null, dup: 'false' };
    expect(stored).toEqual([
      { end: '2026-10-02T00:05:00.000Z', ...row, ...unchecked },
      { end: '2026-10-02T00:10:00.000Z', ...row, ...unchecked },
    ]);
  });

  const cebd = (records: { minute: number; ac: number; quality?: 127 | 61; lat?: number }[]): ParseItem => ({
    kind: 'cebd',
    block: {
      cpid,
      blockType: 'CEBDBlock',
      location: { line: 3 },
      records: records.map((r) => ({
        periodEnd: `2026-10-03T00:${String(r.minute).padStart(2, '0')}:00Z`,
        activeConsumed: r.ac,
        activeRegenerated: 0,
        reactiveConsumed: 1,
        reactiveRegenerated: 0,
        lat: r.lat ?? 59.9,
        lon: 10.7,
        tractionSystem: '02',
        quality: r.quality ?? 127,
      })),
    },
  });
  const day3 = () =>
    rows<{ end: string; ac: string; dl: string; dup: boolean; codes: string | null }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT rw_iso(period_end) AS end, active_consumed::text AS ac, data_log_id::text AS dl, duplicate AS dup,
                 codes::text AS codes
            FROM cebd_record WHERE period_end > '2026-10-03' AND period_end < '2026-10-04' ORDER BY period_end`,
    );

  it('keeps a corrected CEBD record’s old row with who and which file replaced it, and flags records sent by two files', async () => {
    const first = await importParsedStream(
      ctx(),
      listFormat([
        cebd([
          { minute: 5, ac: 1 },
          { minute: 10, ac: 2 },
          { minute: 15, ac: 3 },
        ]),
      ]),
      noBytes,
      { dataLogId: 11 },
    );
    expect(first.counts).toEqual({ inserted: 12, superseded: 0, unchanged: 0 });
    // The same entry imported again (a re-import): equal records write nothing and are no duplicates.
    const again = await importParsedStream(ctx(), listFormat([cebd([{ minute: 5, ac: 1 }])]), noBytes, {
      dataLogId: 11,
    });
    expect(again.counts).toEqual({ inserted: 0, superseded: 0, unchanged: 4 });
    // Checked (as cebd-preprocessing would), then another file: 00:05 equal, 00:10 corrected, 00:15 a new quality.
    await tenantExecutor(database, NORWAY).execute(
      sql`UPDATE cebd_record SET codes = '{}', checked_at = now() WHERE period_end > '2026-10-03' AND period_end < '2026-10-04'`,
    );
    const second = await importParsedStream(
      ctx(),
      listFormat([
        cebd([
          { minute: 5, ac: 1 },
          { minute: 10, ac: 7 },
          { minute: 15, ac: 3, quality: 61 },
          { minute: 20, ac: 4 },
        ]),
      ]),
      noBytes,
      { dataLogId: 12 },
    );
    expect(second.counts).toEqual({ inserted: 4, superseded: 5, unchanged: 7 });
    expect(second.text).toBe('Imported 16 values of 4 time series, 5 corrected, 7 unchanged');
    expect(await day3()).toEqual([
      // Equal: the first file's values stay current, the record is flagged as sent twice, its check kept.
      { end: '2026-10-03T00:05:00.000Z', ac: '1', dl: '11', dup: true, codes: '{}' },
      // Replaced: the new file's values, unchecked again.
      { end: '2026-10-03T00:10:00.000Z', ac: '7', dl: '12', dup: true, codes: null },
      { end: '2026-10-03T00:15:00.000Z', ac: '3', dl: '12', dup: true, codes: null },
      { end: '2026-10-03T00:20:00.000Z', ac: '4', dl: '12', dup: false, codes: null },
    ]);
    const old = await rows<Record<string, string>>(
      tenantExecutor(database, NORWAY),
      sql`SELECT rw_iso(period_end) AS end, active_consumed::text AS ac, quality::text AS q, data_log_id::text AS dl,
                 superseded_by_data_log_id::text AS by_dl, superseded_by AS by
            FROM cebd_record_superseded ORDER BY period_end`,
    );
    expect(old).toEqual([
      { end: '2026-10-03T00:10:00.000Z', ac: '2', q: '127', dl: '11', by_dl: '12', by: 'erex-administrator' },
      { end: '2026-10-03T00:15:00.000Z', ac: '3', q: '127', dl: '11', by_dl: '12', by: 'erex-administrator' },
    ]);
    // A position is part of the record: moved, it replaces the record too.
    const moved = await importParsedStream(ctx(), listFormat([cebd([{ minute: 20, ac: 4, lat: 60.1 }])]), noBytes, {
      dataLogId: 12,
    });
    expect(moved.counts).toEqual({ inserted: 0, superseded: 0, unchanged: 4 });
    expect(await count('cebd_record_superseded')).toBe(3);
    expect((await day3()).at(-1)).toEqual({
      end: '2026-10-03T00:20:00.000Z',
      ac: '4',
      dl: '12',
      dup: false,
      codes: null,
    });
  });

  it('refuses the whole file when one item names an unknown entity, storing nothing of it', async () => {
    const before = await count('time_series_value');
    const known = supply([1]) as Extract<ParseItem, { kind: 'series' }>;
    const unknown: ParseItem = {
      kind: 'series',
      series: { ...known.series, identifier: 'NO SUCH POINT', location: { segment: 14, tag: 'LOC' } },
    };
    const result = await importParsedStream(
      ctx(),
      listFormat([supply([7, 7], '2026-11-01T00:00:00Z'), unknown]),
      noBytes,
      {
        dataLogId: 4,
      },
    );
    expect(result.status).toBe('REJECTED');
    expect(result.text).toContain('segment 14 (LOC): Unknown metering point NO SUCH POINT');
    expect(await count('time_series_value')).toBe(before);
  });

  it('refuses CEBD older than the maximum days since observation as received too late', async () => {
    const old: ParseItem = {
      kind: 'cebd',
      block: {
        cpid,
        blockType: 'CEBDBlock',
        location: { path: 'CEBDFile/CEBDBlock[1]' },
        records: [
          {
            periodEnd: '2026-01-01T00:05:00Z',
            activeConsumed: 1,
            activeRegenerated: 0,
            reactiveConsumed: 0,
            reactiveRegenerated: 0,
            lat: null,
            lon: null,
            tractionSystem: '00',
            quality: 127,
          },
        ],
      },
    };
    const result = await importParsedStream(ctx(), listFormat([old]), noBytes, {
      dataLogId: 5,
      maxDaysSinceObservation: 30,
      now: new Date('2026-11-01T00:00:00Z'),
    });
    expect(result.status).toBe('REJECTED');
    expect(result.text).toContain('Data received too late');
  });

  it('stores a value the file repeats once, the first one (the plain insert falls back to the general path)', async () => {
    const before = await count('time_series_value');
    const start = '2026-12-01T00:00:00Z';
    const result = await importParsedStream(
      ctx(),
      listFormat([supply([4, 4], start), supply([4, 9], start)]),
      noBytes,
      {
        dataLogId: 6,
      },
    );
    expect(result.counts).toEqual({ inserted: 2, superseded: 0, unchanged: 2 });
    expect((await count('time_series_value')) - before).toBe(2);
    const stored = await rows<{ value: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT value::text AS value FROM time_series_value
           WHERE start_time >= ${start}::timestamptz AND start_time < ${start}::timestamptz + interval '2 hours'
           ORDER BY start_time`,
    );
    expect(stored.map((r) => r.value)).toEqual(['4', '4']);
  });

  it('stores nothing when a problem turns up after earlier batches were stored', async () => {
    const before = await count('time_series_value');
    const records = await count('cebd_record');
    const made = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        periodEnd: new Date(Date.parse('2027-02-01T00:05:00Z') + i * 300_000).toISOString().replace('.000Z', 'Z'),
        activeConsumed: 1,
        activeRegenerated: 0,
        reactiveConsumed: 0.5,
        reactiveRegenerated: 0,
        lat: null,
        lon: null,
        tractionSystem: '02' as const,
        quality: 127 as const,
      }));
    // A first batch of its own (VALUE_BATCH values), stored while the next item is read.
    const big: ParseItem = {
      kind: 'cebd',
      block: { cpid, blockType: 'CEBDBlock', location: { line: 3 }, records: made(VALUE_BATCH / 4) },
    };
    const unknown: ParseItem = {
      kind: 'cebd',
      block: { cpid: 'NO_NSB_917670000000_EMS1', blockType: 'CEBDBlock', location: { line: 99 }, records: made(1) },
    };
    const result = await importParsedStream(ctx(), listFormat([big, unknown]), noBytes, { dataLogId: 7 });
    expect(result.status).toBe('REJECTED');
    expect(result.text).toContain('line 99');
    expect(await count('time_series_value')).toBe(before);
    expect(await count('cebd_record')).toBe(records);
  });

  it('keeps one area’s series out of another area', async () => {
    const belgium = await rows<{ n: string }>(
      tenantExecutor(database, BELGIUM),
      sql`SELECT count(*) AS n FROM time_series_value`,
    );
    expect(Number(belgium[0]!.n)).toBe(0);
    expect(await count('time_series_value')).toBeGreaterThan(0);
  });

  it('puts values into month partitions that the app role cannot read directly', async () => {
    const parts = await database.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'time_series_value'::regclass ORDER BY 1`,
    );
    expect(parts.map((p) => p.relname)).toEqual(
      expect.arrayContaining(['time_series_value_2026_10', 'time_series_value_default']),
    );
    await expect(database.query('SELECT * FROM time_series_value_2026_10')).rejects.toThrow(/permission denied/);
    const recordParts = await database.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'cebd_record'::regclass ORDER BY 1`,
    );
    expect(recordParts.map((p) => p.relname)).toEqual(
      expect.arrayContaining(['cebd_record_2026_10', 'cebd_record_default']),
    );
    await expect(database.query('SELECT * FROM cebd_record_2026_10')).rejects.toThrow(/permission denied/);
  });
  it('quotes a few warnings of an OK file and counts the rest', async () => {
    const run: ParseItem = {
      kind: 'trainrun',
      run: {
        action: 'input',
        trainNumber: '41',
        operatingDay: '2026-10-01',
        railwayUndertaking: 'RU',
        route: ['A', 'B'],
        composition: [],
        location: { line: 2 },
      },
    };
    const warning = (n: number) => ({ location: { line: n }, message: `Unknown EVN ${n}` });
    const result = await importParsedStream(ctx(), listFormat([run]), noBytes, {
      dataLogId: 9,
      storeTrainRuns: async () => ({ stored: 1, problems: [], warnings: [1, 2, 3, 4, 5].map(warning) }),
    });
    expect(result.text).toBe(
      'Imported 1 train runs; 5 warnings: line 1: Unknown EVN 1; line 2: Unknown EVN 2; line 3: Unknown EVN 3 and 2 more',
    );
  });
});
