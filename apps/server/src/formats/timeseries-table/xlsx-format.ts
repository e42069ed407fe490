import { TIME_SERIES_TYPE_NAMES, type TimeSeriesTypeName } from '@railwatt/contracts';
import type { IntakeFormat, ParseItem, ParseOptions, SourceLocation } from '../timeseries/format.js';
import { DEFAULT_TABLE_READ_LIMITS, readTableWorkbook, type TableSheet } from '../xlsx/table-workbook.js';
import { ZipGuardError } from '../zip-guard.js';
import { limitProblems, readAllBytes, readSeriesTable, type TableInputRow } from './table-series.js';
import { MAX_SHEET_NAME } from './table-write.js';

/**
 * Time series in an xlsx workbook (docs/formats/timeseries-tables.md): one sheet per type, named
 * after it. The workbook goes through the zip guard and the streaming table reader
 * (formats/xlsx/table-workbook.ts); this module maps sheets to types and cells to A1 locations.
 */
export const TIME_SERIES_XLSX_LIMITS = {
  ...DEFAULT_TABLE_READ_LIMITS,
  // A leap year of 5-minute periods is 105,408 rows.
  maxRowsPerSheet: 110_000,
  maxColumns: 400,
};
/** Larger uploads are refused before anything is inflated. */
export const MAX_XLSX_BYTES = 100 * 1024 * 1024;

const UPLOAD_BROKEN = 'Something is wrong with uploaded data';
const wrongType = (type: string) => `Something is wrong with data of type: ${type}`;

/** 1 -> A, 27 -> AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The type a sheet holds: its name is the type name, or the type name cut to 31 characters. */
export function sheetType(sheetName: string): TimeSeriesTypeName | undefined {
  const name = sheetName.trim();
  const exact = TIME_SERIES_TYPE_NAMES.find((t) => t === name);
  if (exact || name.length < MAX_SHEET_NAME) return exact;
  const cut = TIME_SERIES_TYPE_NAMES.filter((t) => t.startsWith(name));
  return cut.length === 1 ? cut[0] : undefined;
}

async function* sheetItems(sheet: TableSheet, options: ParseOptions): AsyncGenerator<ParseItem> {
  const locate = (row: number, column: number): SourceLocation => ({
    sheet: sheet.name,
    cell: `${columnLetters(column)}${row}`,
  });
  // An empty sheet (a spreadsheet's default Sheet1 left blank) holds nothing to refuse.
  if (sheet.columns.length === 0 && sheet.rows.length === 0 && !sheet.sheetError && sheet.problems.length === 0) return;
  const typeName = sheetType(sheet.name);
  if (!typeName) {
    yield { kind: 'problem', problem: { location: locate(1, 1), message: wrongType(sheet.name) } };
    return;
  }
  if (sheet.sheetError) {
    yield {
      kind: 'problem',
      problem: { location: locate(1, 1), message: `${wrongType(typeName)}: ${sheet.sheetError}` },
    };
    return;
  }
  const numbers = sheet.columnNumbers ?? sheet.columns.map((_, i) => i + 1);
  for (const p of sheet.problems) {
    const column = numbers[sheet.columns.indexOf(p.column)] ?? 1;
    yield { kind: 'problem', problem: { location: locate(p.rowNumber, column), message: p.message } };
  }
  const header = new Map(sheet.columns.map((name, i) => [numbers[i]!, name]));
  // Rows by column number, made one at a time (the sheet's rows are in memory once, not twice).
  function* rows(): Generator<TableInputRow> {
    for (const row of sheet.rows) {
      yield { number: row.rowNumber, cells: new Map(sheet.columns.map((name, i) => [numbers[i]!, row.cells[name]])) };
    }
  }
  yield* readSeriesTable({ typeName, header, headerRow: 1, rows: rows(), locate, timeZone: options.timeZone });
}

async function* parseWorkbook(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const bytes = await readAllBytes(input, MAX_XLSX_BYTES);
  let sheets: TableSheet[];
  try {
    if (!bytes) throw new ZipGuardError(`The file is larger than ${MAX_XLSX_BYTES} bytes`);
    sheets = await readTableWorkbook(bytes, TIME_SERIES_XLSX_LIMITS);
  } catch (error) {
    // Not a workbook, an unsafe archive (zip guard) or XML exceljs cannot read: the file as a whole.
    const reason = error instanceof Error && error.name !== 'Error' ? `: ${error.message}` : '';
    yield { kind: 'problem', problem: { location: {}, message: `${UPLOAD_BROKEN}${reason}` } };
    return;
  }
  let anything = false;
  for (const sheet of sheets) {
    for await (const item of sheetItems(sheet, options)) {
      anything = true;
      yield item;
    }
  }
  if (!anything) {
    yield {
      kind: 'problem',
      problem: { location: {}, message: `${UPLOAD_BROKEN}: the workbook holds no time series` },
    };
  }
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export const timeSeriesXlsxFormat: IntakeFormat = {
  name: 'xlsx',
  // A zip archive (PK\x03\x04) named .xlsx.
  detect: (fileName, head) => /\.xlsx$/i.test(fileName.trim()) && head.subarray(0, 4).equals(ZIP_MAGIC),
  parse: (input, options) => limitProblems(parseWorkbook(input, options), options.maxProblems),
};
