import type { ParameterOverview } from '@railwatt/contracts';
import { saveBlob } from '../../../../lib/download';

type Row = ParameterOverview['rows'][number];

/**
 * A value as the file holds it: up to six decimals, a point as separator and no grouping (a spreadsheet
 * reads it in any language; the screen shows it in the user's separators), empty when there is none.
 */
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 6, useGrouping: false });
export const formatParameterValue = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : VALUE.format(value);

/** A CSV field (RFC 4180): quoted when it holds a separator, a quote or a line break. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * The shown table as CSV: a header of the name column and the month headers, then one line per shown
 * row with its values (up to six decimals, a point as separator). Lines end in CRLF (RFC 4180).
 */
export function parameterCsv(nameHeader: string, monthHeaders: readonly string[], rows: readonly Row[]): string {
  const lines = [
    [nameHeader, ...monthHeaders],
    ...rows.map((row) => [row.ref.name, ...row.values.map(formatParameterValue)]),
  ];
  return lines.map((line) => line.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The file name of a type's download. */
export const parameterCsvFileName = (typeName: string) => `parameter-overview-${typeName}.csv`;

/** Saves the CSV; a byte-order mark first, so spreadsheet programs read the names as UTF-8. */
export function downloadParameterCsv(typeName: string, csv: string): void {
  saveBlob(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }), parameterCsvFileName(typeName));
}
