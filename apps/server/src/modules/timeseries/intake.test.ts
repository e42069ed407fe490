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

  it('turns CEBD records into four 5-minute series and a position per record', async () => {
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
    expect((await count('time_series_value')) - before).toBe(8);
    expect(await count('cebd_position')).toBe(2);
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
    const positions = await count('cebd_position');
    const records = (n: number) =>
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
      block: { cpid, blockType: 'CEBDBlock', location: { line: 3 }, records: records(VALUE_BATCH / 4) },
    };
    const unknown: ParseItem = {
      kind: 'cebd',
      block: { cpid: 'NO_NSB_917670000000_EMS1', blockType: 'CEBDBlock', location: { line: 99 }, records: records(1) },
    };
    const result = await importParsedStream(ctx(), listFormat([big, unknown]), noBytes, { dataLogId: 7 });
    expect(result.status).toBe('REJECTED');
    expect(result.text).toContain('line 99');
    expect(await count('time_series_value')).toBe(before);
    expect(await count('cebd_position')).toBe(positions);
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
