import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { craftZip, repeatedDeflate } from './fixtures/crafted-zip.js';
import { assertSafeZip, readZipCentralDirectory, ZipGuardError } from './zip-guard.js';

describe('zip guard', () => {
  it('reads the central directory of a real workbook and lets it pass', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('TractionUnit').addRow(['name', 'EVN']);
    const buf = Buffer.from(await workbook.xlsx.writeBuffer());
    const summary = assertSafeZip(buf);
    expect(summary.entries.map((e) => e.name)).toContain('xl/workbook.xml');
  });

  it('rejects an archive whose declared uncompressed total is above the limit, before inflating', () => {
    const bomb = craftZip([
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<x/>'), declaredSize: 300 * 1024 * 1024 },
    ]);
    expect(readZipCentralDirectory(bomb).totalUncompressedBytes).toBe(300 * 1024 * 1024);
    expect(() => assertSafeZip(bomb)).toThrow(/expands to/);
  });

  it('rejects a highly compressed entry (ratio above 100:1)', () => {
    const bomb = craftZip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(20 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => assertSafeZip(bomb)).toThrow(ZipGuardError);
    expect(() => assertSafeZip(bomb)).toThrow(/compression ratio/);
  });

  it('rejects an entry that inflates beyond the size it declares', () => {
    const liar = craftZip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(500_000, 'a'), declaredSize: 1000 }]);
    expect(() => assertSafeZip(liar)).toThrow(/beyond its declared size/);
  });

  it('rejects too many entries', () => {
    const many = craftZip(
      Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x'), stored: true })),
    );
    expect(() =>
      assertSafeZip(many, { maxEntries: 10, maxCompressionRatio: 100, maxTotalUncompressedBytes: 1e9 }),
    ).toThrow(/20 entries/);
  });

  it('answers the inflated content of every entry, which is all the workbook reader reads', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('TractionUnit').addRow(['name', 'Åsa Øvergård']);
    const checked = assertSafeZip(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(checked.contents.get('xl/workbook.xml')!.toString('utf8')).toContain('TractionUnit');
    expect([...checked.contents.keys()].sort()).toEqual(checked.entries.map((e) => e.name).sort());
  });

  it('rejects a hidden entry the central directory does not list (900 MB of rows from a small deflate stream), without inflating it', () => {
    const rows = repeatedDeflate(
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
      '<row><c t="inlineStr"><is><t>Bomb</t></is></c></row>'.repeat(20_000),
      900,
      '</sheetData></worksheet>',
    );
    expect(rows.size).toBeGreaterThan(900_000_000);
    const bomb = craftZip([
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      {
        name: 'xl/worksheets/sheet2.xml',
        data: Buffer.alloc(0),
        deflated: rows.body,
        declaredSize: rows.size,
        listed: false,
      },
    ]);
    expect(bomb.length).toBeLessThan(10_000_000);
    expect(readZipCentralDirectory(bomb).totalUncompressedBytes).toBe(11);
    const rssBefore = process.memoryUsage().rss;
    expect(() => assertSafeZip(bomb)).toThrow(/data its directory does not list/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('rejects an entry the central directory lists smaller than its local header says', () => {
    const liar = craftZip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(500_000, 'a'), listedSize: 1000 }]);
    expect(() => assertSafeZip(liar)).toThrow(/differs from its directory record/);
  });

  it('accepts entries whose sizes follow in a data descriptor (streaming writers such as LibreOffice)', () => {
    const zip = craftZip([
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>'), descriptor: true },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet>Ærø</worksheet>'), descriptor: true },
    ]);
    const checked = assertSafeZip(zip);
    expect(checked.contents.get('xl/worksheets/sheet1.xml')!.toString('utf8')).toBe('<worksheet>Ærø</worksheet>');
  });

  it('rejects bytes between entries and the directory that no entry accounts for', () => {
    const zip = craftZip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }]);
    const cdOffset = zip.readUInt32LE(zip.length - 6);
    const padded = Buffer.concat([zip.subarray(0, cdOffset), Buffer.alloc(64), zip.subarray(cdOffset)]);
    padded.writeUInt32LE(cdOffset + 64, padded.length - 6);
    expect(() => assertSafeZip(padded)).toThrow(/does not list/);
  });

  it('rejects what is not a zip at all', () => {
    expect(() => assertSafeZip(Buffer.from('name;EVN\nA;123'))).toThrow(/not a valid xlsx/);
  });
});
