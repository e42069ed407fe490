import { describe, expect, it } from 'vitest';
import { problemText } from '../timeseries/format.js';
import { timeSeriesCsvFormat } from './csv-format.js';
import { bytesOf, gather, OSLO, pointsOf, workbookOf } from './fixtures.js';
import { assertSafeZip } from '../zip-guard.js';
import { generateTimeSeriesSheet } from './table-generate.js';
import { writeTimeSeriesCsv, writeTimeSeriesWorkbook } from './table-write.js';
import { timeSeriesXlsxFormat } from './xlsx-format.js';

const readXlsx = async (buffer: Buffer) => gather(timeSeriesXlsxFormat.parse(bytesOf(buffer), OSLO));
const readCsv = async (text: string | Buffer) =>
  gather(timeSeriesCsvFormat.parse(bytesOf(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8')), OSLO));

const HEADER = ['startInclusive', 'endExclusive'];
const hours = (day: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => {
    const h = from + i;
    const pad = (n: number) => String(n).padStart(2, '0');
    return [`${day} ${pad(h)}:00`, `${day} ${pad(h + 1)}:00`];
  });

describe('time-series xlsx', () => {
  it('reads a sheet per type, a column per series, quality columns and the area wall clock', async () => {
    const buffer = await workbookOf([
      {
        name: 'supply_energy',
        rows: [
          [...HEADER, 'Bodø SMP', 'Bodø SMP quality', 'Narvik'],
          ['01.01.2024 00:00', '01.01.2024 01:00', 12.5, 56, '3,25'],
          ['01.01.2024 01:00', '01.01.2024 02:00', null, 46, -1],
          ['2024-01-01T01:00:00Z', '2024-01-01T02:00:00Z', '7', null, null],
        ],
      },
    ]);
    const { series, problems } = await readXlsx(buffer);
    expect(problems).toEqual([]);
    expect(series).toEqual([
      {
        typeName: 'supply_energy',
        identifier: 'Bodø SMP',
        resolution: 'PT1H',
        location: { sheet: 'supply_energy', cell: 'C1' },
        points: [
          { start: '2023-12-31T23:00:00Z', value: 12.5, quality: 56 },
          { start: '2024-01-01T00:00:00Z', value: null, quality: 46 },
          { start: '2024-01-01T01:00:00Z', value: 7, quality: 127 },
        ],
      },
      {
        typeName: 'supply_energy',
        identifier: 'Narvik',
        resolution: 'PT1H',
        location: { sheet: 'supply_energy', cell: 'E1' },
        points: [
          { start: '2023-12-31T23:00:00Z', value: 3.25, quality: 127 },
          { start: '2024-01-01T00:00:00Z', value: -1, quality: 127 },
        ],
      },
    ]);
  });

  it('reads the 23-hour spring day and the 25-hour autumn day in Europe/Oslo, by the hour and as days', async () => {
    // 31.03.2024: the hour after 01:00 ends at 03:00. 27.10.2024: 02:00-03:00 comes twice.
    const spring = [
      ...hours('31.03.2024', 0, 1),
      ['31.03.2024 01:00', '31.03.2024 03:00'],
      ...hours('31.03.2024', 3, 23),
    ];
    spring.push(['31.03.2024 23:00', '01.04.2024 00:00']);
    const autumn = [
      ...hours('27.10.2024', 0, 3),
      ...hours('27.10.2024', 2, 23),
      ['27.10.2024 23:00', '28.10.2024 00:00'],
    ];
    expect([spring.length, autumn.length]).toEqual([23, 25]);
    const buffer = await workbookOf([
      { name: 'supply_energy', rows: [[...HEADER, 'S'], ...[...spring, ...autumn].map((r, i) => [...r, i])] },
      {
        name: 'degree_days',
        rows: [
          [...HEADER, 'norway'],
          ['31.03.2024', '01.04.2024', 1],
          ['27.10.2024 00:00', '28.10.2024 00:00', 2],
          ['01.11.2024', '01.12.2024', 3],
          ['01.01.2025 00:00', '01.01.2026 00:00', 4],
        ],
      },
    ]);
    const { series, problems } = await readXlsx(buffer);
    expect(problems).toEqual([]);
    const points = pointsOf(series, 'S');
    expect(points).toHaveLength(48);
    const starts = points.map((p) => Date.parse(p.start));
    // Every hour follows the one before: 23 + 25 hours without a gap inside each day.
    expect(starts.slice(1, 23).every((s, i) => s - starts[i]! === 3_600_000)).toBe(true);
    expect(starts.slice(24).every((s, i) => s - starts[23 + i]! === 3_600_000)).toBe(true);
    expect(points[0]!.start).toBe('2024-03-30T23:00:00Z');
    expect(points[23]!.start).toBe('2024-10-26T22:00:00Z');
    expect(points.slice(25, 27).map((p) => p.start)).toEqual(['2024-10-27T00:00:00Z', '2024-10-27T01:00:00Z']);
    const days = series.filter((s) => s.identifier === 'norway');
    expect(days.map((s) => s.resolution)).toEqual(['P1D', 'P1M', 'P1Y']);
    expect(days.flatMap((s) => s.points.map((p) => p.start))).toEqual([
      '2024-03-30T23:00:00Z',
      '2024-10-26T22:00:00Z',
      '2024-10-31T23:00:00Z',
      '2024-12-31T23:00:00Z',
    ]);
  });

  it('names the cell of every problem in the words of the upload failures', async () => {
    const buffer = await workbookOf([
      {
        name: 'supply_energy',
        rows: [
          [...HEADER, 'A', 'A quality'],
          [null, '01.01.2024 01:00', 1],
          ['01.01.2024 01:00', null, 1],
          ['01.01.2024 02:00', '01.01.2024 03:00', 'x1'],
          ['01.01.2024 03:00', '01.01.2024 05:00', 1],
          ['31.03.2024 02:00', '31.03.2024 03:00', 1],
          ['01.01.2024 04:00', '01.01.2024 05:00', 1, 99],
        ],
      },
      { name: 'no_such_type', rows: [[...HEADER, 'A']] },
      { name: 'Sheet1', rows: [] },
    ]);
    const { problems } = await readXlsx(buffer);
    expect(problems.map(problemText)).toEqual([
      'supply_energy!A2: Start date missing (startInclusive)',
      'supply_energy!B3: End date missing (endExclusive)',
      'supply_energy!C4: Value x1 is invalid',
      'supply_energy!B5: Value 01.01.2024 05:00 is invalid: the period must be 5 minutes, 15 minutes, an hour, a day, a month or a year',
      'supply_energy!A6: Value 31.03.2024 02:00 is invalid',
      'supply_energy!D7: Value 99 is invalid',
      'no_such_type!A1: Something is wrong with data of type: no_such_type',
    ]);
  });

  it('answers a file that is not a workbook as a whole, never throwing', async () => {
    for (const bytes of [Buffer.from('hello'), Buffer.alloc(0), Buffer.from('PK\x03\x04garbage')]) {
      const { problems, series } = await readXlsx(bytes);
      expect(series).toEqual([]);
      expect(problems).toHaveLength(1);
      expect(problems[0]!.message).toMatch(/^Something is wrong with uploaded data/);
    }
  });

  it('yields long series in chunks of at most 5,000 points, in time order', async () => {
    const start = Date.parse('2024-01-01T00:00:00Z');
    const points = Array.from({ length: 12_001 }, (_, i) => ({
      start: new Date(start + i * 300_000).toISOString().replace('.000Z', 'Z'),
      value: i,
      quality: 127 as const,
    }));
    const buffer = await writeTimeSeriesWorkbook([
      { typeName: 'cebd_active_energy_consumed', timeZone: 'UTC', series: [{ identifier: 'CP1', points }] },
    ]);
    const { series, problems } = await gather(timeSeriesXlsxFormat.parse(bytesOf(buffer), { timeZone: 'UTC' }));
    expect(problems).toEqual([]);
    expect(series.map((s) => s.points.length)).toEqual([5000, 5000, 2001]);
    expect(series.flatMap((s) => s.points)).toEqual(points);
  });

  it('round-trips an export: Nordic and formula-like identifiers, qualities, both daylight-saving days, long type names', async () => {
    const identifiers = ['Bodø', 'Ærøskøbing', 'Jyväskylä Åre', '=SUM(A1)', "'quoted"];
    const startsOf = (from: string, n: number) =>
      Array.from({ length: n }, (_, i) =>
        new Date(Date.parse(from) + i * 3_600_000).toISOString().replace('.000Z', 'Z'),
      );
    const starts = [...startsOf('2024-03-30T23:00:00Z', 23), ...startsOf('2024-10-26T22:00:00Z', 25)];
    const series = identifiers.map((identifier, k) => ({
      identifier,
      points: starts.map((start, i) =>
        k === 1 && i % 7 === 0
          ? { start, value: null, quality: 46 as const }
          : { start, value: i * 0.1 + k, quality: (i % 5 === 0 ? 56 : 127) as 56 | 127 },
      ),
    }));
    const sheets = [
      { typeName: 'spot_price' as const, timeZone: 'Europe/Oslo', series },
      { typeName: 'spot_linked_contract_price_factor' as const, timeZone: 'Europe/Oslo', series: series.slice(0, 1) },
    ];
    const buffer = await writeTimeSeriesWorkbook(sheets);
    const read = await readXlsx(buffer);
    expect(read.problems).toEqual([]);
    for (const s of series)
      expect(
        pointsOf(
          read.series.filter((r) => r.typeName === 'spot_price'),
          s.identifier,
        ),
      ).toEqual(s.points);
    expect(read.series.map((s) => Buffer.from(s.identifier, 'utf8').toString('hex'))).toEqual(
      [...identifiers, identifiers[0]!].map((i) => Buffer.from(i, 'utf8').toString('hex')),
    );
    expect(read.series.at(-1)!.typeName).toBe('spot_linked_contract_price_factor');
    // The same export as CSV reads back the same.
    const csv = await readCsv(writeTimeSeriesCsv(sheets[0]!));
    expect(csv.problems).toEqual([]);
    expect(csv.series.map((s) => ({ ...s, location: undefined }))).toEqual(
      read.series.filter((r) => r.typeName === 'spot_price').map((s) => ({ ...s, location: undefined })),
    );
  });
});

describe('time-series xlsx, more', () => {
  it('reads date cells as the area wall clock', async () => {
    const buffer = await workbookOf([
      {
        name: 'supply_energy',
        rows: [
          [...HEADER, 'A'],
          [new Date(Date.UTC(2024, 6, 1, 10)), new Date(Date.UTC(2024, 6, 1, 11)), 1],
        ],
      },
    ]);
    const { series, problems } = await readXlsx(buffer);
    expect(problems).toEqual([]);
    expect(series[0]!.points).toEqual([{ start: '2024-07-01T08:00:00Z', value: 1, quality: 127 }]);
  });

  it('exports again byte for byte what it imported (sheet and shared strings XML)', async () => {
    const sheet = generateTimeSeriesSheet({
      typeName: 'fixed_installation_energy',
      identifiers: ['Tromsø Øst', 'Ærø', 'Jyväskylä', 'Åndalsnes'],
      fromDay: '2024-10-26',
      days: 2,
      estimatedEvery: 3,
    });
    const first = await writeTimeSeriesWorkbook([sheet]);
    const read = await readXlsx(first);
    expect(read.problems).toEqual([]);
    const again = await writeTimeSeriesWorkbook([
      {
        typeName: 'fixed_installation_energy',
        timeZone: 'Europe/Oslo',
        series: sheet.series.map((s) => ({ identifier: s.identifier, points: pointsOf(read.series, s.identifier) })),
      },
    ]);
    const parts = (buffer: Buffer) => assertSafeZip(buffer).contents;
    for (const name of ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/workbook.xml']) {
      expect(parts(again).get(name)!.equals(parts(first).get(name)!)).toBe(true);
    }
    expect(parts(first).get('xl/sharedStrings.xml')!.toString('utf8')).toContain('Tromsø Øst');
  });

  it('reports a header without time columns, duplicate columns and stops after maxProblems', async () => {
    const buffer = await workbookOf([
      {
        name: 'spot_price',
        rows: [
          ['from', 'endExclusive', 'NO1'],
          ['x', 'y', 1],
        ],
      },
      { name: 'elspot_price', rows: [[...HEADER, 'NO1', 'NO1']] },
      { name: 'imbalance_price', rows: [[...HEADER, 'NO1'], ...Array.from({ length: 10 }, () => ['a', 'b', 1])] },
    ]);
    const { problems } = await gather(timeSeriesXlsxFormat.parse(bytesOf(buffer), { ...OSLO, maxProblems: 4 }));
    expect(problems.map(problemText)).toEqual([
      'spot_price!A1: Start date missing: no startInclusive column',
      'elspot_price!A1: Something is wrong with data of type: elspot_price: Column NO1 appears twice in row 1',
      'imbalance_price!A2: Value a is invalid',
      'imbalance_price!A3: Value a is invalid',
      'Something is wrong with uploaded data: more than 4 problems, reading stopped',
    ]);
  });
});

describe('time-series csv', () => {
  it('reads the type line, ; or , separators, decimal commas, and Windows-1252 files', async () => {
    const semicolon =
      'type;spot_price\r\nstartInclusive;endExclusive;NO1;SE3\r\n01.01.2024 00:00;01.01.2024 01:00;1,5;2\r\n';
    const comma = 'type,spot_price\nstartInclusive,endExclusive,NO1,SE3\n01.01.2024 00:00,01.01.2024 01:00,"1,5",2\n';
    for (const text of [semicolon, comma]) {
      const { series, problems } = await readCsv(text);
      expect(problems).toEqual([]);
      expect(series.map((s) => [s.identifier, s.points[0]!.value, s.location])).toEqual([
        ['NO1', 1.5, { line: 2, column: 3 }],
        ['SE3', 2, { line: 2, column: 4 }],
      ]);
    }
    const latin = Buffer.from(
      'type;supply_energy\nstartInclusive;endExclusive;Bodø\n01.01.2024 00:00;01.01.2024 01:00;1\n',
      'latin1',
    );
    expect((await readCsv(latin)).series[0]!.identifier).toBe('Bodø');
  });

  it('reads quarter hours through the repeated hour written on the wall clock alone', async () => {
    const q = (from: string, to: string) => `27.10.2024 ${from};27.10.2024 ${to};1`;
    const pass = [q('02:00', '02:15'), q('02:15', '02:30'), q('02:30', '02:45'), q('02:45', '03:00')];
    const text = ['type;supply_energy', 'startInclusive;endExclusive;A', q('01:45', '02:00'), ...pass, ...pass];
    text.push(q('03:00', '03:15'));
    const { series, problems } = await readCsv(text.join('\n'));
    expect(problems).toEqual([]);
    const starts = series[0]!.points.map((p) => Date.parse(p.start));
    expect(series[0]!.resolution).toBe('PT15M');
    expect(starts).toEqual(Array.from({ length: 10 }, (_, i) => Date.parse('2024-10-26T23:45:00Z') + i * 900_000));
  });

  it('names line and column of every problem', async () => {
    const text = [
      'type;supply_energy',
      'startInclusive;endExclusive;A',
      ';01.01.2024 01:00;1',
      '01.01.2024 01:00;;1',
      '01.01.2024 02:00;01.01.2024 03:00;abc',
    ].join('\n');
    expect((await readCsv(text)).problems.map(problemText)).toEqual([
      'line 3, column 1: Start date missing (startInclusive)',
      'line 4, column 2: End date missing (endExclusive)',
      'line 5, column 3: Value abc is invalid',
    ]);
    expect((await readCsv('type;prices\nstartInclusive;endExclusive;A\n')).problems.map(problemText)).toEqual([
      'line 1, column 2: Something is wrong with data of type: prices',
    ]);
    expect((await readCsv('type;spot_price\nstartInclusive;endExclusive;NO1;NO1\n')).problems.map(problemText)).toEqual(
      ['line 2, column 4: Something is wrong with data of type: spot_price: the column NO1 appears twice'],
    );
    const unclosed = await readCsv('type;spot_price\nstartInclusive;endExclusive;A\n"01.01.2024 00:00;x;1\n');
    expect(unclosed.problems).toHaveLength(1);
    expect(unclosed.problems[0]!.message).toMatch(/^Something is wrong with uploaded data: /);
    expect(unclosed.problems[0]!.location.line).toBeGreaterThanOrEqual(3);
    expect((await readCsv('startInclusive;endExclusive;A\n')).problems.map(problemText)).toEqual([
      'line 1: Something is wrong with uploaded data: line 1 must name the type as type;<type name>',
    ]);
  });

  it('detects its files without taking Nordpool files or workbooks', () => {
    const head = (text: string) => Buffer.from(text, 'utf8');
    expect(timeSeriesCsvFormat.detect('a.csv', head('\uFEFFtype;spot_price\r\n'))).toBe(true);
    expect(timeSeriesCsvFormat.detect('a.CSV', head('startInclusive,endExclusive,A'))).toBe(true);
    expect(timeSeriesCsvFormat.detect('a.csv', head('Delivery day;Hour;NO1'))).toBe(false);
    expect(timeSeriesCsvFormat.detect('a.txt', head('type;spot_price'))).toBe(false);
    expect(timeSeriesXlsxFormat.detect('a.xlsx', head('PK\x03\x04'))).toBe(true);
    expect(timeSeriesXlsxFormat.detect('a.xlsx', head('type;spot_price'))).toBe(false);
  });
});
