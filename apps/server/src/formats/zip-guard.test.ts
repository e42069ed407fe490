import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { craftZip } from './fixtures/crafted-zip.js';
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

  it('rejects what is not a zip at all', () => {
    expect(() => assertSafeZip(Buffer.from('name;EVN\nA;123'))).toThrow(/not a valid xlsx/);
  });
});
