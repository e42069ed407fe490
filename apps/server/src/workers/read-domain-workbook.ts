import { parseDomainSheet, type ParsedSheet } from '../modules/excel/domain-workbook.js';
import {
  DEFAULT_TABLE_READ_LIMITS,
  readTableWorkbook,
  TableWorkbookError,
  type TableReadLimits,
} from '../formats/xlsx/table-workbook.js';
import { ZipGuardError } from '../formats/zip-guard.js';

/**
 * Reads one domain workbook: the zip guard, the xlsx reader and the cell checks of every sheet.
 * This is the CPU-heavy part of an import (seconds for 50,000 rows), so the server runs it in a
 * worker thread (workbook-pool.ts) and the event loop keeps answering other requests meanwhile.
 * Only plain data crosses the thread boundary: the bytes in, parsed rows or a refusal out.
 */
export interface ReadWorkbookTask {
  bytes: Uint8Array;
  timeZone: string;
  limits?: TableReadLimits;
}

export type ReadWorkbookResult =
  | { ok: true; sheets: ParsedSheet[] }
  /** The file is not a safe, readable workbook; the upload is refused with this reason. */
  | { ok: false; reason: string };

export async function readDomainWorkbook(task: ReadWorkbookTask): Promise<ReadWorkbookResult> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    const sheets = await readTableWorkbook(bytes, task.limits ?? DEFAULT_TABLE_READ_LIMITS);
    return { ok: true, sheets: sheets.map((sheet) => parseDomainSheet(sheet, { timeZone: task.timeZone })) };
  } catch (error) {
    if (error instanceof ZipGuardError || error instanceof TableWorkbookError)
      return { ok: false, reason: error.message };
    // Everything else the reader throws (saxes on broken XML, exceljs on parts it cannot map) is
    // about the file: this thread reads nothing but the upload's checked entries.
    const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : '';
    return { ok: false, reason: `The file is not a valid xlsx workbook${detail ? ` (${detail})` : ''}` };
  }
}

// Piscina calls the default export with the task.
export default readDomainWorkbook;
