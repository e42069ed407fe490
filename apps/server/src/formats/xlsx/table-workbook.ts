import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { escapeFormula, unescapeFormula } from '../cell-escape.js';
import { assertSafeZip, DEFAULT_ZIP_LIMITS, type ZipLimits } from '../zip-guard.js';

/**
 * A "table workbook": every sheet is a table whose row 1 holds the column names and every further
 * row one record. This module knows nothing about entities; modules/excel maps sheets to domain
 * records. It reads with exceljs's streaming reader (rows are visited once, never a whole model in
 * memory), fed only with the entries the zip-bomb guard checked and inflated (see checkedReader), bounds
 * rows and columns, and writes text cells escaped against formula injection.
 */
export type CellValue = string | number | boolean | Date | null;

export interface TableRow {
  /** 1-based row number as the spreadsheet shows it. */
  rowNumber: number;
  /** Cell values by column name; empty cells are absent. */
  cells: Record<string, CellValue>;
}

export interface CellProblem {
  rowNumber: number;
  column: string;
  message: string;
}

export interface TableSheet {
  name: string;
  columns: string[];
  /** The 1-based spreadsheet column of each name in `columns` (row 1 may leave columns empty). */
  columnNumbers?: number[];
  rows: TableRow[];
  /** Cells that could not be read at all (error values, formulas without a cached result). */
  problems: CellProblem[];
  /** Set when the sheet as a whole is unusable (too many rows, duplicate headers ...). */
  sheetError?: string;
}

export interface TableReadLimits {
  zip: ZipLimits;
  maxSheets: number;
  maxRowsPerSheet: number;
  maxColumns: number;
}

export const DEFAULT_TABLE_READ_LIMITS: TableReadLimits = {
  zip: DEFAULT_ZIP_LIMITS,
  maxSheets: 100,
  maxRowsPerSheet: 100_000,
  maxColumns: 200,
};

// exceljs's typings omit the sheet name the streaming reader sets from workbook.xml.
type NamedWorksheetReader = ExcelJS.stream.xlsx.WorksheetReader & { name?: string; id?: number | string };

type ReaderEvent = { eventType: string; value: unknown };

/** The parts of exceljs's WorkbookReader (lib/stream/xlsx/workbook-reader.js) that checkedReader drives. */
interface WorkbookReaderInternals {
  parse: () => AsyncGenerator<ReaderEvent>;
  sharedStrings?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<ReaderEvent>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<string> | Iterable<string>, sheetNo: string): Generator<ReaderEvent>;
}

/** Decoded text is handed over in pieces of this many bytes: exceljs gathers the parse events of a whole piece, so 1 MB pieces read 50,000 rows 3x slower than 64 kB ones. */
export const DECODE_CHUNK_BYTES = 64 * 1024;

/**
 * UTF-8 bytes as strings of whole characters. exceljs decodes each chunk it receives on its own
 * (utils/browser-buffer-decode.js), so a character split across two chunks became two U+FFFD; but
 * it passes strings through untouched. A streaming TextDecoder keeps the bytes of a split character
 * until the next piece completes it.
 */
export function* decodeUtf8(bytes: Uint8Array, chunkBytes = DECODE_CHUNK_BYTES): Generator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const text = decoder.decode(bytes.subarray(at, at + chunkBytes), { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

const textStream = (bytes: Buffer) => Readable.from(decodeUtf8(bytes), { objectMode: true });

const SHEET_ENTRY = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * exceljs's streaming WorkbookReader, fed from the checked entries instead of the archive bytes:
 * its own parse() pipes the file through a second zip reader that walks local headers (so it would
 * read what the guard did not check) and spools worksheets met before the shared strings to temp
 * files. Here the parts are read from memory in dependency order (relationships, workbook, shared
 * strings, styles, then the sheets in archive order), as whole-character strings, with no temp file.
 */
function checkedReader(contents: ReadonlyMap<string, Buffer>): AsyncIterable<NamedWorksheetReader> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Styles tell date-formatted numbers from plain numbers.
    styles: 'cache',
    entries: 'ignore',
  });
  const internals = reader as unknown as WorkbookReaderInternals;
  internals.parse = async function* () {
    const part = (name: string) => contents.get(name);
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await internals._parseRels(textStream(rels));
    const workbook = part('xl/workbook.xml');
    if (!workbook) throw new TableWorkbookError('The file is not a valid xlsx workbook');
    await internals._parseWorkbook(textStream(workbook));
    const shared = part('xl/sharedStrings.xml');
    if (shared) yield* internals._parseSharedStrings(textStream(shared));
    // Sheets that use no shared string still need the (empty) cache.
    internals.sharedStrings ??= [];
    const styles = part('xl/styles.xml');
    if (styles) await internals._parseStyles(textStream(styles));
    for (const [name, bytes] of contents) {
      const match = SHEET_ENTRY.exec(name);
      if (match) yield* internals._parseWorksheet(decodeUtf8(bytes), match[1]!);
    }
  };
  return reader as unknown as AsyncIterable<NamedWorksheetReader>;
}

/** Throws ZipGuardError (from the guard) when the archive is unsafe; other problems are reported per sheet. */
export async function readTableWorkbook(
  buffer: Buffer,
  limits: TableReadLimits = DEFAULT_TABLE_READ_LIMITS,
): Promise<TableSheet[]> {
  const { contents } = assertSafeZip(buffer, limits.zip);
  const reader = checkedReader(contents);
  const sheets: TableSheet[] = [];
  for await (const worksheet of reader) {
    if (sheets.length >= limits.maxSheets) {
      throw new TableWorkbookError(`The workbook has more than ${limits.maxSheets} sheets`);
    }
    sheets.push(await readSheet(worksheet, limits));
  }
  return sheets;
}

export class TableWorkbookError extends Error {
  override readonly name = 'TableWorkbookError';
}

async function readSheet(worksheet: NamedWorksheetReader, limits: TableReadLimits): Promise<TableSheet> {
  const sheet: TableSheet = {
    name: worksheet.name ?? `Sheet${worksheet.id ?? ''}`,
    columns: [],
    rows: [],
    problems: [],
  };
  let byIndex: (string | undefined)[] = [];
  for await (const row of worksheet) {
    if (sheet.sheetError) continue; // drain the stream, keep nothing
    if (row.number === 1) {
      byIndex = readHeader(row, sheet, limits);
      continue;
    }
    if (sheet.columns.length === 0) {
      sheet.sheetError = 'Row 1 must hold the column names';
      continue;
    }
    if (sheet.rows.length >= limits.maxRowsPerSheet) {
      sheet.sheetError = `The sheet has more than ${limits.maxRowsPerSheet} rows`;
      sheet.rows = [];
      continue;
    }
    const cells: Record<string, CellValue> = {};
    let any = false;
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const column = byIndex[col];
      if (!column) return;
      const value = normaliseCell(cell.value, cell.numFmt);
      if (value instanceof CellReadError) {
        sheet.problems.push({ rowNumber: row.number, column, message: value.message });
        any = true;
        return;
      }
      if (value === null) return;
      cells[column] = value;
      any = true;
    });
    // Rows that only carry formatting are not records.
    if (any) sheet.rows.push({ rowNumber: row.number, cells });
  }
  return sheet;
}

function readHeader(row: ExcelJS.Row, sheet: TableSheet, limits: TableReadLimits): (string | undefined)[] {
  const byIndex: (string | undefined)[] = [];
  row.eachCell({ includeEmpty: false }, (cell, col) => {
    if (col > limits.maxColumns) {
      sheet.sheetError = `The sheet has more than ${limits.maxColumns} columns`;
      return;
    }
    const value = normaliseCell(cell.value, cell.numFmt);
    const name = value === null || value instanceof CellReadError ? '' : String(value).trim();
    if (!name) return;
    if (sheet.columns.includes(name)) sheet.sheetError = `Column ${name} appears twice in row 1`;
    byIndex[col] = name;
    sheet.columns.push(name);
    (sheet.columnNumbers ??= []).push(col);
  });
  return byIndex;
}

class CellReadError {
  constructor(readonly message: string) {}
}

function normaliseCell(value: ExcelJS.CellValue, numFmt: string | undefined): CellValue | CellReadError {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = unescapeFormula(value);
    return text.trim() === '' ? null : text;
  }
  if (typeof value === 'number') {
    // The streaming reader leaves date-formatted cells as serial numbers when it cannot map the style.
    if (numFmt && isDateFormat(numFmt)) return excelSerialToDate(value);
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if ('error' in value) return new CellReadError(`Value ${String(value.error)} is invalid`);
  if ('richText' in value) return normaliseCell(value.richText.map((r) => r.text).join(''), numFmt);
  if ('text' in value && 'hyperlink' in value) return normaliseCell(value.text as ExcelJS.CellValue, numFmt);
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null)
      return new CellReadError('A formula without a computed value is not accepted');
    if (typeof result === 'object' && !(result instanceof Date)) return new CellReadError('The formula gives an error');
    return normaliseCell(result as ExcelJS.CellValue, numFmt);
  }
  return new CellReadError('The cell value is not readable');
}

const isDateFormat = (fmt: string) =>
  /[dmyhs]/i.test(fmt.replace(/"[^"]*"|\[[^\]]*\]/g, '')) && !/^General$/i.test(fmt);

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const excelSerialToDate = (serial: number) => new Date(Math.round(EXCEL_EPOCH_MS + serial * 86_400_000));

export interface TableSheetToWrite {
  name: string;
  columns: string[];
  rows: CellValue[][];
}

/**
 * Writes sheets with a bold header row. Text cells are formula-escaped (see cell-escape.ts);
 * numbers, booleans and dates are written as such and never run as formulas.
 */
export async function writeTableWorkbook(sheets: TableSheetToWrite[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Railwatt';
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    const header = worksheet.addRow(sheet.columns);
    header.font = { bold: true };
    worksheet.views = [{ state: 'frozen', ySplit: 1 }];
    for (const row of sheet.rows) {
      worksheet.addRow(row.map((v) => (typeof v === 'string' ? escapeFormula(v) : v)));
    }
    sheet.columns.forEach((name, i) => {
      worksheet.getColumn(i + 1).width = Math.min(40, Math.max(12, name.length + 2));
    });
  }
  const out = await workbook.xlsx.writeBuffer();
  return Buffer.from(out as ArrayBuffer);
}
