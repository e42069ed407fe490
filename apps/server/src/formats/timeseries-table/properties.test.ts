import { RESOLUTIONS, type Resolution, type TimeSeriesTypeName } from '@railwatt/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { craftZip } from '../fixtures/crafted-zip.js';
import { nordpoolFormat } from '../nordpool/nordpool-format.js';
import { generateNordpoolCsv } from '../nordpool/nordpool-generate.js';
import type { IntakeFormat, ParseItem } from '../timeseries/format.js';
import { assertSafeZip } from '../zip-guard.js';
import { timeSeriesCsvFormat } from './csv-format.js';
import { bytesOf, gather } from './fixtures.js';
import { generateTimeSeriesCsv, generateTimeSeriesSheet, generateTimeSeriesWorkbook } from './table-generate.js';
import { writeTimeSeriesCsv, writeTimeSeriesWorkbook } from './table-write.js';
import { timeSeriesXlsxFormat } from './xlsx-format.js';

/**
 * Whatever the bytes, a parse ends (never throws) and every point it yields is one the store can
 * take: a finite value (or null with quality 46), a real instant in 1970-2070, a known resolution,
 * chunks of at most 5,000 points in time order.
 */
const ZONES = ['Europe/Oslo', 'Europe/Stockholm', 'Europe/Helsinki', 'Europe/Lisbon', 'UTC'];
const EARLIEST = Date.parse('1970-01-01T00:00:00Z');
const LATEST = Date.parse('2070-01-01T00:00:00Z');

async function parseSafely(format: IntakeFormat, bytes: Buffer, timeZone: string): Promise<ParseItem[]> {
  const items: ParseItem[] = [];
  for await (const item of format.parse(bytesOf(bytes, 997), { timeZone })) items.push(item);
  for (const item of items) {
    if (item.kind === 'problem') {
      expect(typeof item.problem.message).toBe('string');
      continue;
    }
    expect(item.kind).toBe('series');
    if (item.kind !== 'series') continue;
    const { series } = item;
    expect(RESOLUTIONS).toContain(series.resolution);
    expect(series.points.length).toBeGreaterThan(0);
    expect(series.points.length).toBeLessThanOrEqual(5000);
    let previous = -Infinity;
    for (const point of series.points) {
      const ms = Date.parse(point.start);
      expect(point.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      expect(ms >= EARLIEST && ms <= LATEST).toBe(true);
      expect(ms).toBeGreaterThan(previous);
      previous = ms;
      if (point.value === null) expect(point.quality).toBe(46);
      else expect(Number.isFinite(point.value)).toBe(true);
      expect([127, 61, 56, 46]).toContain(point.quality);
    }
  }
  return items;
}

/** Byte edits: overwrite, insert, delete; then maybe cut the file short. */
const mutation = fc.record({
  edits: fc.array(
    fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('set', 'insert', 'delete'),
      byte: fc.integer({ min: 0, max: 255 }),
    }),
    { maxLength: 8 },
  ),
  cut: fc.option(fc.nat()),
});

function mutate(bytes: Buffer, m: { edits: { at: number; kind: string; byte: number }[]; cut: number | null }): Buffer {
  const out = [...bytes];
  for (const edit of m.edits) {
    const at = out.length === 0 ? 0 : edit.at % out.length;
    if (edit.kind === 'set' && out.length > 0) out[at] = edit.byte;
    else if (edit.kind === 'insert') out.splice(at, 0, edit.byte);
    else out.splice(at, 1);
  }
  const buffer = Buffer.from(out);
  return m.cut === null ? buffer : buffer.subarray(0, m.cut % (buffer.length + 1));
}

/** Text edits with the characters that matter to these files. */
const textMutation = fc.array(
  fc.record({ at: fc.nat(), length: fc.nat({ max: 6 }), text: fc.stringMatching(/^[0-9.,;:\-\sTZ+"AB=a-z]{0,6}$/) }),
  { minLength: 1, maxLength: 6 },
);

function mutateText(text: string, edits: { at: number; length: number; text: string }[]): string {
  let out = text;
  for (const e of edits) {
    const at = e.at % (out.length + 1);
    out = out.slice(0, at) + e.text + out.slice(at + e.length);
  }
  return out;
}

const csvFile = generateTimeSeriesCsv({
  typeName: 'supply_energy',
  identifiers: ['Bodø', 'Narvik'],
  fromDay: '2024-10-26',
  days: 2,
  estimatedEvery: 5,
});
const nordpoolFile = generateNordpoolCsv({ fromDay: '2024-03-30', days: 2 });

// Machines here are shared: generous time limits, modest run counts.
describe('parsers on any bytes', { timeout: 180_000 }, () => {
  it('arbitrary bytes: the CSV, Nordpool and xlsx parsers end with problems or valid series', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom(...ZONES), async (raw, zone) => {
        const bytes = Buffer.from(raw);
        for (const format of [timeSeriesCsvFormat, nordpoolFormat, timeSeriesXlsxFormat]) {
          await parseSafely(format, bytes, zone);
          // The same bytes behind each format's own first line.
          const head = format === nordpoolFormat ? 'Delivery day;Hour;NO1\n' : 'type;spot_price\n';
          await parseSafely(format, Buffer.concat([Buffer.from(head), bytes]), zone);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('mutated and truncated CSV and Nordpool files (bytes and text) never throw nor yield a bad point', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, textMutation, fc.constantFrom(...ZONES), async (m, edits, zone) => {
        await parseSafely(timeSeriesCsvFormat, mutate(csvFile, m), zone);
        await parseSafely(nordpoolFormat, mutate(nordpoolFile, m), zone);
        await parseSafely(timeSeriesCsvFormat, Buffer.from(mutateText(csvFile.toString('utf8'), edits)), zone);
        await parseSafely(nordpoolFormat, Buffer.from(mutateText(nordpoolFile.toString('utf8'), edits)), zone);
      }),
      { numRuns: 150 },
    );
  });

  it('mutated and truncated workbooks, and workbooks whose sheet XML is edited, never throw nor yield a bad point', async () => {
    const workbook = await generateTimeSeriesWorkbook({
      typeName: 'supply_energy',
      identifiers: ['Bodø', 'Narvik'],
      fromDay: '2024-10-27',
      days: 1,
      estimatedEvery: 4,
    });
    const { contents } = assertSafeZip(workbook);
    await fc.assert(
      fc.asyncProperty(mutation, textMutation, async (m, edits) => {
        await parseSafely(timeSeriesXlsxFormat, mutate(workbook, m), 'Europe/Oslo');
        // Valid archives around edited XML reach the sheet reader and the table reader.
        const entries = [...contents].map(([name, data]) => ({
          name,
          data: /sheet1\.xml$|sharedStrings\.xml$/.test(name)
            ? Buffer.from(mutateText(data.toString('utf8'), edits), 'utf8')
            : data,
        }));
        await parseSafely(timeSeriesXlsxFormat, craftZip(entries), 'Europe/Oslo');
      }),
      { numRuns: 60 },
    );
  });
});

describe('generated files', { timeout: 180_000 }, () => {
  const options = fc.record({
    typeName: fc.constantFrom<TimeSeriesTypeName>('supply_energy', 'spot_price', 'degree_days'),
    resolution: fc.constantFrom<Resolution>('PT5M', 'PT15M', 'PT1H', 'P1D'),
    // Around both daylight-saving changes of 2024 and some ordinary days.
    fromDay: fc.constantFrom('2024-03-30', '2024-03-31', '2024-10-26', '2024-10-27', '2025-01-15'),
    days: fc.integer({ min: 1, max: 2 }),
    timeZone: fc.constantFrom(...ZONES),
    seed: fc.nat(),
    estimatedEvery: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
  });

  it('read back exactly as written, CSV and xlsx, in every zone and resolution', async () => {
    await fc.assert(
      fc.asyncProperty(options, fc.boolean(), async (o, asWorkbook) => {
        const sheet = generateTimeSeriesSheet({ ...o, identifiers: ['Å', 'Øst-1'] });
        const file = asWorkbook ? await writeTimeSeriesWorkbook([sheet]) : writeTimeSeriesCsv(sheet);
        const format = asWorkbook ? timeSeriesXlsxFormat : timeSeriesCsvFormat;
        const { series, problems } = await gather(format.parse(bytesOf(file), { timeZone: o.timeZone }));
        expect(problems).toEqual([]);
        for (const s of sheet.series) {
          const read = series.filter((r) => r.identifier === s.identifier);
          expect(read.flatMap((r) => r.points)).toEqual(s.points);
          expect(new Set(read.map((r) => r.resolution))).toEqual(new Set([o.resolution]));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('are deterministic', async () => {
    const o = { typeName: 'spot_price' as const, identifiers: ['NO1'], fromDay: '2024-01-01', days: 2, seed: 3 };
    expect(generateTimeSeriesCsv(o).equals(generateTimeSeriesCsv(o))).toBe(true);
    expect(generateTimeSeriesSheet(o)).toEqual(generateTimeSeriesSheet(o));
  });
});
