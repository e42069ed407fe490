import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { escapeFormula } from '../cell-escape.js';
import { formatValue, roundNumber, type RenderColumn, type ReportRenderer } from './render.js';

/**
 * A report as an xlsx workbook through exceljs's streaming WorkbookWriter: each row is committed as
 * it is added, the zip is written into a stream the data log reads 1 MB at a time, so the workbook
 * is never whole in memory. Row 1 holds the headers with their units; numbers are number cells
 * rounded to 4 decimals with a 4-decimal format, instants text with their offset (a spreadsheet date
 * has no zone), text formula-escaped. A sheet holds at most SHEET_ROWS rows (Excel's limit is
 * 1,048,576): a longer report goes on in a second sheet with the same headers.
 */

export const SHEET_ROWS = 1_000_000;
const NUMBER_FORMAT = '0.0000';
/** Excel's sheet names: at most 31 characters, none of []:*?/\ */
const sheetName = (title: string, index: number) => {
  const base = title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 27);
  return index === 0 ? base : `${base} ${index + 1}`;
};

function cellValue(column: RenderColumn, value: unknown, zone: string): ExcelJS.CellValue {
  if (column.kind === 'number' || column.kind === 'integer') return roundNumber(value);
  const text = formatValue(value, column.kind, zone);
  return text === '' ? null : column.kind === 'text' ? escapeFormula(text) : text;
}

export const xlsxRenderer: ReportRenderer = {
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  async *render(spec, batches) {
    const out = new PassThrough();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = 'Railwatt';
    const addSheet = (index: number) => {
      const sheet = workbook.addWorksheet(sheetName(spec.title, index), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = spec.columns.map((c) => ({
        header: c.header,
        key: c.key,
        width: Math.min(Math.max(c.header.length + 2, 12), 40),
        ...(c.kind === 'number' ? { style: { numFmt: NUMBER_FORMAT } } : {}),
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      return sheet;
    };
    // The producer adds rows while this generator hands the zip's bytes on; an error on either side
    // ends both (the stream is destroyed with it).
    const produced = (async () => {
      let sheetIndex = 0;
      let sheet = addSheet(0);
      let rowsInSheet = 0;
      for await (const rows of batches) {
        for (const row of rows) {
          if (rowsInSheet === SHEET_ROWS) {
            sheet.commit();
            sheet = addSheet(++sheetIndex);
            rowsInSheet = 0;
          }
          sheet.addRow(spec.columns.map((c) => cellValue(c, row[c.key], spec.zone))).commit();
          rowsInSheet += 1;
        }
      }
      sheet.commit();
      await workbook.commit();
    })().catch((error: unknown) => {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    for await (const chunk of out) yield chunk as Buffer;
    await produced;
  },
};
