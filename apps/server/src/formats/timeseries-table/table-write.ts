import { TIME_SERIES_TYPES, type Resolution, type TimeSeriesTypeName } from '@railwatt/contracts';
import { escapeFormula } from '../cell-escape.js';
import { writeCsvTable } from '../csv/csv-table.js';
import type { ParsedPoint } from '../timeseries/format.js';
import { writeTableWorkbook } from '../xlsx/table-workbook.js';
import { END_COLUMN, QUALITY_SUFFIX, START_COLUMN } from './table-series.js';
import { formatTableTime, periodEnd } from './table-times.js';

/**
 * Writes time series in the layout the table readers read (docs/formats/timeseries-tables.md), so an
 * export reads back as the same series: a sheet per type named after it, startInclusive and
 * endExclusive on the area's wall clock (the exact instant where the clock is ambiguous), a column
 * per series and a quality column only for a series with a quality other than 127.
 */
export interface SeriesToWrite {
  identifier: string;
  points: readonly ParsedPoint[];
}

export interface TimeSeriesSheetToWrite {
  typeName: TimeSeriesTypeName;
  timeZone: string;
  /** The length of every row's period; the type's resolution when not given. */
  resolution?: Resolution;
  series: readonly SeriesToWrite[];
}

/** A spreadsheet's sheet name holds at most 31 characters; longer type names are cut (the reader matches the cut). */
export const MAX_SHEET_NAME = 31;
export const sheetNameOf = (typeName: string): string => typeName.slice(0, MAX_SHEET_NAME);

/** The export's file name. */
export const EXPORTED_TIME_SERIES_FILE = 'exportedtimeseries.xlsx';

type OutCell = string | number | null;

/** The columns and rows of one type's table, rows in time order. */
export function timeSeriesTable(sheet: TimeSeriesSheetToWrite): { columns: string[]; rows: OutCell[][] } {
  const resolution = sheet.resolution ?? TIME_SERIES_TYPES[sheet.typeName].resolution;
  const columns = [START_COLUMN, END_COLUMN];
  const layout = sheet.series.map((series) => {
    const valueColumn = columns.push(series.identifier) - 1;
    const withQuality = series.points.some((p) => p.quality !== 127);
    const qualityColumn = withQuality ? columns.push(`${series.identifier}${QUALITY_SUFFIX}`) - 1 : undefined;
    return { series, valueColumn, qualityColumn };
  });
  const rows = new Map<number, OutCell[]>();
  for (const { series, valueColumn, qualityColumn } of layout) {
    for (const point of series.points) {
      const start = Date.parse(point.start);
      let row = rows.get(start);
      if (!row) {
        row = new Array<OutCell>(columns.length).fill(null);
        row[0] = formatTableTime(start, sheet.timeZone);
        row[1] = formatTableTime(periodEnd(start, resolution, sheet.timeZone), sheet.timeZone);
        rows.set(start, row);
      }
      row[valueColumn] = point.value;
      if (qualityColumn !== undefined) row[qualityColumn] = point.quality;
    }
  }
  return { columns, rows: [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row) };
}

/** exportedtimeseries.xlsx: one sheet per type, read back by timeSeriesXlsxFormat. */
export async function writeTimeSeriesWorkbook(sheets: readonly TimeSeriesSheetToWrite[]): Promise<Buffer> {
  return writeTableWorkbook(
    sheets.map((sheet) => {
      const { columns, rows } = timeSeriesTable(sheet);
      // writeTableWorkbook escapes text cells but writes row 1 as it is; identifiers are text too.
      return { name: sheetNameOf(sheet.typeName), columns: columns.map(escapeFormula), rows };
    }),
  );
}

/** One type as a CSV file (`type;<typeName>` on line 1, then the table), read back by timeSeriesCsvFormat. */
export function writeTimeSeriesCsv(sheet: TimeSeriesSheetToWrite): Buffer {
  const { columns, rows } = timeSeriesTable(sheet);
  const table = writeCsvTable(columns, rows).toString('utf8');
  // writeCsvTable starts with a byte order mark; the type line goes right after it.
  return Buffer.from(`\uFEFFtype;${escapeFormula(sheet.typeName)}\r\n${table.replace(/^\uFEFF/, '')}`, 'utf8');
}
