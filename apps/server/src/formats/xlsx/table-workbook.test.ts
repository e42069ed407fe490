import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, DEFAULT_TABLE_READ_LIMITS, readTableWorkbook, writeTableWorkbook } from './table-workbook.js';

describe('table workbook', () => {
  it('writes and reads back sheets, columns and typed cells', async () => {
    const buf = await writeTableWorkbook([
      {
        name: 'TractionUnit',
        columns: ['name', 'EVN', 'count', 'active'],
        rows: [
          ['A', '919012345678', 3, true],
          ['B', null, 1.5, false],
        ],
      },
      { name: 'MotorType', columns: ['name'], rows: [['Electric']] },
    ]);
    const sheets = await readTableWorkbook(buf);
    expect(sheets.map((s) => s.name)).toEqual(['TractionUnit', 'MotorType']);
    expect(sheets[0]!.columns).toEqual(['name', 'EVN', 'count', 'active']);
    expect(sheets[0]!.rows).toEqual([
      { rowNumber: 2, cells: { name: 'A', EVN: '919012345678', count: 3, active: true } },
      { rowNumber: 3, cells: { name: 'B', count: 1.5, active: false } },
    ]);
  });

  it('escapes formula-like text on write, so the file holds no formula, and strips the prefix on read', async () => {
    const evil = ['=cmd|" /C calc"!A0', '+1', '-1', '@SUM(A1)', '\tTab', "'kept"];
    const buf = await writeTableWorkbook([{ name: 'S', columns: ['comments'], rows: evil.map((v) => [v]) }]);
    const raw = new ExcelJS.Workbook();
    await raw.xlsx.load(buf as unknown as ArrayBuffer);
    const stored = raw.getWorksheet('S')!.getColumn(1).values.slice(2);
    expect(stored).toEqual(evil.map((v) => `'${v}`));
    const sheets = await readTableWorkbook(buf);
    expect(sheets[0]!.rows.map((r) => r.cells.comments)).toEqual(evil);
  });

  it('reports error cells and formulas without a value, and reads formula results and dates', async () => {
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet('S');
    ws.addRow(['a', 'b', 'c']);
    ws.addRow([{ error: '#REF!' }, { formula: 'A1', result: 'x' }, new Date('2024-01-01T00:00:00Z')]);
    ws.addRow([{ formula: 'B2' }]);
    const sheets = await readTableWorkbook(Buffer.from(await workbook.xlsx.writeBuffer()));
    const s = sheets[0]!;
    expect(s.rows[0]!.cells).toEqual({ b: 'x', c: new Date('2024-01-01T00:00:00Z') });
    expect(s.problems).toEqual([
      { rowNumber: 2, column: 'a', message: 'Value #REF! is invalid' },
      { rowNumber: 3, column: 'a', message: 'A formula without a computed value is not accepted' },
    ]);
  });

  it('bounds the rows read per sheet', async () => {
    const buf = await writeTableWorkbook([
      { name: 'S', columns: ['a'], rows: Array.from({ length: 20 }, (_, i) => [i]) },
    ]);
    const [s] = await readTableWorkbook(buf, {
      zip: { maxEntries: 100, maxCompressionRatio: 100, maxTotalUncompressedBytes: 1e8 },
      maxSheets: 5,
      maxRowsPerSheet: 10,
      maxColumns: 10,
    });
    expect(s!.sheetError).toBe('The sheet has more than 10 rows');
    expect(s!.rows).toEqual([]);
  });

  it('decodes UTF-8 pieces without splitting a character, whatever the piece size', () => {
    const text = 'Ærø Åsa Øvergård Jyväskylä 🚆 '.repeat(50);
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 5, 7, 4096]) expect([...decodeUtf8(bytes, size)].join('')).toBe(text);
  });

  it('reads multi-byte names in shared and inline strings byte-identical across many pieces', async () => {
    const names = ['Jyväskylä Äänekoski', 'Tromsø Bodø Ålesund', 'Ærøskøbing Næstved', '€ 🚆 Łódź'];
    const rows = Array.from({ length: 20_000 }, (_, i) => [`${names[i % names.length]} ${i}`]);
    // exceljs writes shared strings; the inline sheet is written by hand below.
    const shared = await writeTableWorkbook([{ name: 'S', columns: ['name'], rows }]);
    const sheets = await readTableWorkbook(shared);
    expect(sheets[0]!.rows.map((r) => r.cells.name)).toEqual(rows.map((r) => r[0]));

    const inline = new ExcelJS.Workbook();
    const ws = inline.addWorksheet('I');
    ws.addRow(['name']);
    for (const [name] of rows) ws.addRow([name]);
    const buf = Buffer.from(await inline.xlsx.writeBuffer({ useSharedStrings: false } as ExcelJS.XlsxWriteOptions));
    const read = await readTableWorkbook(buf);
    expect(read[0]!.rows.map((r) => r.cells.name)).toEqual(rows.map((r) => r[0]));
    expect(read[0]!.rows.some((r) => String(r.cells.name).includes('\uFFFD'))).toBe(false);
  });

  it('leaves no temporary file behind, also when reading stops half-way', async () => {
    // exceljs spools sheets met before the shared strings (where its own writer puts them) to
    // temp files named tmp-<pid>-..., removed only when the whole workbook was read.
    const ours = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    const before = ours();
    const buf = await writeTableWorkbook([
      { name: 'A', columns: ['name'], rows: [['x']] },
      { name: 'B', columns: ['name', 'name'], rows: [['y', 'z']] },
    ]);
    await readTableWorkbook(buf);
    await expect(readTableWorkbook(buf, { ...DEFAULT_TABLE_READ_LIMITS, maxSheets: 1 })).rejects.toThrow(/sheets/);
    expect(ours()).toEqual(before);
  });
});
