import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../test/tools.js';
import { csvRenderer } from './csv.js';
import { formatNumber, formatZoned, type RenderRow, type RenderSpec } from './render.js';
import { SHEET_ROWS, xlsxRenderer } from './xlsx.js';
import { familyXsd, xmlRenderer } from './xml.js';

const spec: RenderSpec = {
  reportName: 'settlement',
  family: 'settlement',
  title: 'Settlement',
  language: 'en',
  area: 'norway',
  zone: 'Europe/Oslo',
  currency: 'NOK',
  period: { start: '2026-09-30T22:00:00Z', end: '2026-10-31T23:00:00Z' },
  generatedAt: '2026-11-02T08:00:00Z',
  columns: [
    { key: 'organisation', kind: 'text', header: 'Organisation' },
    { key: 'hour', kind: 'time', header: 'Hour' },
    { key: 'day', kind: 'day', header: 'Day' },
    { key: 'meteredEnergy', kind: 'number', header: 'Metered energy (kWh)' },
    { key: 'settlementVersion', kind: 'integer', header: 'Settlement version' },
  ],
};
const rows: RenderRow[] = [
  {
    organisation: 'Vy Tog AS',
    hour: new Date('2026-10-01T08:00:00Z'),
    day: '2026-10-01',
    meteredEnergy: '240.00004',
    settlementVersion: 7,
  },
  {
    organisation: '=cmd|x',
    hour: '2026-10-25T01:00:00Z',
    day: '2026-10-25',
    meteredEnergy: 1 / 3,
    settlementVersion: '7',
  },
  { organisation: 'Bergen & <Co> "quoted";', hour: null, day: null, meteredEnergy: null, settlementVersion: null },
];

async function* batches(all: RenderRow[], size = 2) {
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}
async function bytesOf(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of source) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe('report values', () => {
  it('writes numbers to 4 decimals and instants on the area clock with their offset', () => {
    expect(formatNumber('209.20680')).toBe('209.2068');
    expect(formatNumber(-0.00001)).toBe('0.0000');
    expect(formatZoned('2026-10-01T08:00:00Z', 'Europe/Oslo')).toBe('2026-10-01T10:00:00+02:00');
    // The hour the clock goes back: 02:00 twice, told apart by the offset.
    expect(formatZoned('2026-10-25T00:00:00Z', 'Europe/Oslo')).toBe('2026-10-25T02:00:00+02:00');
    expect(formatZoned('2026-10-25T01:00:00Z', 'Europe/Oslo')).toBe('2026-10-25T02:00:00+01:00');
  });
});

describe('report renderers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-render-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('csv: the house CSV, headers with units, a line per row in order', async () => {
    const text = (await bytesOf(csvRenderer.render(spec, batches(rows)))).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Organisation;Hour;Day;Metered energy (kWh);Settlement version',
      'Vy Tog AS;2026-10-01T10:00:00+02:00;2026-10-01;240.0000;7',
      "'=cmd|x;2026-10-25T02:00:00+01:00;2026-10-25;0.3333;7",
      '"Bergen & <Co> ""quoted"";";;;;',
      '',
    ]);
  });

  it('csv: a negative amount stays a number; only text is formula-escaped', async () => {
    const text = (
      await bytesOf(
        csvRenderer.render(
          spec,
          batches([
            { organisation: '-credit', hour: null, day: null, meteredEnergy: '-118.86750', settlementVersion: -1 },
          ]),
        ),
      )
    ).toString('utf8');
    expect(text.slice(1).split('\r\n')[1]).toBe("'-credit;;;-118.8675;-1");
  });

  it('xlsx: read back with exceljs, numbers as numbers, text formula-escaped', async () => {
    const bytes = await bytesOf(xlsxRenderer.render(spec, batches(rows)));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...spec.columns.map((c) => c.header)]);
    expect(sheet.getRow(2).values).toEqual([undefined, 'Vy Tog AS', '2026-10-01T10:00:00+02:00', '2026-10-01', 240, 7]);
    expect(sheet.getRow(3).getCell(1).value).toBe("'=cmd|x");
    expect(sheet.getRow(3).getCell(4).value).toBe(0.3333);
    expect(sheet.getRow(4).getCell(4).value).toBeNull();
    expect(sheet.rowCount).toBe(4);
    expect(SHEET_ROWS).toBeLessThan(1_048_576);
  });

  it.skipIf(!requireTool('xmllint', 'report XML against its family XSD'))(
    'xml: valid against the family XSD',
    async () => {
      const xml = await bytesOf(xmlRenderer.render(spec, batches(rows)));
      const xsd = familyXsd('settlement', [{ name: 'settlement', columns: spec.columns }]);
      writeFileSync(join(dir, 'r.xml'), xml);
      writeFileSync(join(dir, 'r.xsd'), xsd);
      const lint = spawnSync('xmllint', ['--noout', '--schema', join(dir, 'r.xsd'), join(dir, 'r.xml')], {
        encoding: 'utf8',
      });
      expect(lint.status, lint.stderr).toBe(0);
      const text = xml.toString('utf8');
      expect(text).toContain('<Row><organisation>Vy Tog AS</organisation><hour>2026-10-01T10:00:00+02:00</hour>');
      expect(text).toContain('<meteredEnergy>240.0000</meteredEnergy>');
      expect(text).toContain('Bergen &amp; &lt;Co&gt; &quot;quoted&quot;;');
    },
  );

  it('an XSD family refuses one key with two kinds', () => {
    expect(() =>
      familyXsd('x', [
        { name: 'a', columns: [{ key: 'k', kind: 'number' }] },
        { name: 'b', columns: [{ key: 'k', kind: 'text' }] },
      ]),
    ).toThrow(/column k/);
  });

  it.each([
    ['csv', csvRenderer],
    ['xlsx', xlsxRenderer],
    ['xml', xmlRenderer],
  ] as const)('%s streams: bytes leave before the last batch is read', async (_name, renderer) => {
    let pulled = 0;
    const big = async function* () {
      for (let b = 0; b < 60; b++) {
        // A batch comes from the database: the event loop turns between batches.
        await new Promise((resolve) => setImmediate(resolve));
        pulled = b + 1;
        yield Array.from({ length: 2000 }, (_, i) => ({
          organisation: `Organisation ${b}-${i}`,
          hour: '2026-10-01T08:00:00Z',
          day: '2026-10-01',
          meteredEnergy: i / 7,
          settlementVersion: b,
        }));
      }
    };
    let pulledAtFirstBytes = 0;
    let size = 0;
    for await (const chunk of renderer.render(spec, big())) {
      if (size === 0) pulledAtFirstBytes = pulled;
      size += chunk.length;
    }
    expect(size).toBeGreaterThan(1_000_000);
    expect(pulledAtFirstBytes).toBeLessThan(60);
  });
});
