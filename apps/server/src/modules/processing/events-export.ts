import {
  EVENT_EXPORT_COLUMNS,
  EVENTS_EXPORT_FILE,
  eventCodeText,
  PAGE_SIZES,
  type ProcessingEventFilter,
} from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { formatAreaInstant } from '../../formats/area-date.js';
import { writeTableWorkbook, type CellValue } from '../../formats/xlsx/table-workbook.js';
import { XLSX_CONTENT_TYPE, type ExportedFile } from '../excel/export-service.js';
import { findEventPage } from './repository.js';

/** The sheet's name in events.xlsx. */
export const EVENTS_SHEET = 'Events';

/**
 * POST /eventlog/processingevent/export and /excel/eventlog/export (calls.md §7 Files, events.xlsx):
 * the events the event monitor's filter matches, in its sort, one row each, times on the area's wall
 * clock as the screen shows them, and each code with its text. One query reads the page and the
 * total; a filter matching more than PAGE_SIZES.exportFetch events is refused with query_timeout
 * (calls.md §8 "decrease your query scope") rather than handing over a file that is silently cut.
 * The export is not a data-log entry: it is a view of the log, not data leaving the system.
 */
export async function exportProcessingEvents(
  ctx: ServiceContext,
  query: { sortBy: string; descendingOrder: boolean },
  filter: ProcessingEventFilter,
): Promise<ExportedFile> {
  const limit = PAGE_SIZES.exportFetch;
  const { total, content } = await findEventPage(ctx.db, ctx.tenant.uuid, { ...query, page: 0, size: limit }, filter);
  if (total > limit) {
    throw ApiError.badRequest(
      'query_timeout',
      `The filter matches ${total} events (an export holds at most ${limit}): narrow the filter`,
    );
  }
  const rows: CellValue[][] = content.map((e) => [
    e.id,
    formatAreaInstant(e.time, ctx.tenant.timeZone),
    e.processName,
    e.errorCode,
    eventCodeText(e.errorCode),
    e.severity,
    e.incidents,
    e.entityIdentifier,
    e.message,
    e.procedureResultId,
  ]);
  const bytes = await writeTableWorkbook([{ name: EVENTS_SHEET, columns: [...EVENT_EXPORT_COLUMNS], rows }]);
  return { fileName: EVENTS_EXPORT_FILE, contentType: XLSX_CONTENT_TYPE, bytes };
}
