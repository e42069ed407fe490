import { CSV_BOM, CSV_SEPARATOR, csvLine } from '../csv/csv-table.js';
import { formatValue, type ReportRenderer } from './render.js';

/**
 * A report as CSV: the house CSV (formats/csv/csv-table.ts: UTF-8 with a byte order mark,
 * semicolons, formula-escaped text), a header row with units, then a line per row, written a batch
 * at a time.
 */
export const csvRenderer: ReportRenderer = {
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  async *render(spec, batches) {
    yield Buffer.from(CSV_BOM + csvLine(spec.columns.map((c) => c.header)) + '\r\n', 'utf8');
    for await (const rows of batches) {
      // Text is formula-escaped and quoted as the house CSV does; a number, time or day is written as
      // formatted (digits, sign, point, colon: nothing to quote), so a negative amount stays a number
      // (-118.8675, not '-118.8675).
      const lines = rows.map((row) =>
        spec.columns
          .map((c) => {
            const value = formatValue(row[c.key], c.kind, spec.zone);
            return c.kind === 'text' ? csvLine([value]) : value;
          })
          .join(CSV_SEPARATOR),
      );
      yield Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
    }
  },
};
