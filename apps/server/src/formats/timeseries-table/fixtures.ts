import ExcelJS from 'exceljs';
import type { ParsedSeries, ParseItem, ParseOptions, Problem } from '../timeseries/format.js';

/** Test helpers: workbooks built cell by cell with exceljs (not with our writer), and parse results gathered. */
export async function workbookOf(sheets: { name: string; rows: ExcelJS.CellValue[][] }[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = workbook.addWorksheet(sheet.name);
    for (const row of sheet.rows) ws.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function* bytesOf(buffer: Buffer, piece = 7_919): AsyncGenerator<Buffer> {
  for (let at = 0; at < buffer.length; at += piece) yield buffer.subarray(at, at + piece);
}

export interface Gathered {
  series: ParsedSeries[];
  problems: Problem[];
  items: ParseItem[];
}

export async function gather(items: AsyncIterable<ParseItem>): Promise<Gathered> {
  const all: ParseItem[] = [];
  for await (const item of items) all.push(item);
  return {
    items: all,
    series: all.flatMap((i) => (i.kind === 'series' ? [i.series] : [])),
    problems: all.flatMap((i) => (i.kind === 'problem' ? [i.problem] : [])),
  };
}

/** Chunks of one identifier joined back into one point list. */
export const pointsOf = (series: ParsedSeries[], identifier: string) =>
  series.filter((s) => s.identifier === identifier).flatMap((s) => s.points);

export const OSLO: ParseOptions = { timeZone: 'Europe/Oslo' };
