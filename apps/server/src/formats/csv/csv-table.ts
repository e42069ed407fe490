import { parse } from 'csv-parse/sync';
import { escapeFormula, unescapeFormula } from '../cell-escape.js';

/**
 * CSV tables: a header row of column names, then one record per line. Written with a UTF-8 byte
 * order mark and semicolons, which is what spreadsheets in every market we serve (decimal comma)
 * open without an import wizard. Every text field is formula-escaped; fields are quoted when they
 * hold the separator, a quote or a line break.
 */
export type CsvValue = string | number | boolean | null | undefined;

export const CSV_SEPARATOR = ';';
const BOM = '\uFEFF';

function field(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? escapeFormula(value) : String(value);
  return /[";\r\n,]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record (no line break): a streaming writer's line. */
export const csvLine = (values: readonly CsvValue[]): string => values.map(field).join(CSV_SEPARATOR);

/** The byte order mark a CSV file starts with. */
export const CSV_BOM = BOM;

export function writeCsvTable(columns: readonly string[], rows: readonly CsvValue[][]): Buffer {
  const lines = [columns.map(field).join(CSV_SEPARATOR), ...rows.map((row) => row.map(field).join(CSV_SEPARATOR))];
  return Buffer.from(BOM + lines.join('\r\n') + '\r\n', 'utf8');
}

export interface CsvTable {
  columns: string[];
  /** Records by column name, with their 1-based line number (header is line 1). */
  rows: { rowNumber: number; cells: Record<string, string> }[];
}

/** Reads a CSV table written by writeCsvTable or by a spreadsheet (semicolon or comma separated). */
export function readCsvTable(input: Buffer | string, maxRows = 100_000): CsvTable {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const records = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  const [header, ...body] = records;
  if (!header) return { columns: [], rows: [] };
  if (body.length > maxRows) throw new Error(`The file has more than ${maxRows} rows`);
  const columns = header.map((h) => h.trim());
  return {
    columns,
    rows: body.map((record, i) => {
      const cells: Record<string, string> = {};
      record.forEach((value, c) => {
        const column = columns[c];
        if (column && value !== '') cells[column] = unescapeFormula(value);
      });
      return { rowNumber: i + 2, cells };
    }),
  };
}
