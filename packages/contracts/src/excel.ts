import { z } from 'zod';
import { PAGE_SIZES } from './constants.js';
import { fleetFilterSchema } from './domain/fleet.js';

/** Upload and export limits of /excel/domain/import (calls.md §5, §9). */
export const EXCEL_IMPORT_FIELD = 'files';

/** One failure of an upload (calls.md §3 "Upload failure structure"). */
export const sheetFailureSchema = z.object({
  errorMessage: z.string(),
  /** The entity type of the sheet ('TractionUnit'), or 'File' for a whole file. */
  type: z.string(),
});
export type SheetFailure = z.infer<typeof sheetFailureSchema>;

export const sheetParseResultSchema = z.object({
  sheetName: z.string(),
  type: z.string(),
  rowsRead: z.number().int(),
  failures: z.array(sheetFailureSchema),
});
export type SheetParseResult = z.infer<typeof sheetParseResultSchema>;

/** The answer of POST /excel/domain/import. An upload failed if success is false or any sheet has failures. */
export const uploadResultSchema = z.object({
  success: z.boolean(),
  sheetParseResults: z.array(sheetParseResultSchema),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** POST /excel/domain/export: entities by uuid, or every entity of a type; segments overlapping timeRange. */
export const domainExportRequestSchema = z.object({
  type: z.string().optional(),
  uuids: z.array(z.uuid()).max(10000).optional(),
  timeRange: z.object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) }).optional(),
});
export type DomainExportRequest = z.infer<typeof domainExportRequestSchema>;

/**
 * POST /excel/masterdata/export: the body of POST /domain/fleet (search mode, filters, time range,
 * sort), so the file holds exactly what the fleet overview lists for them, every page, at most
 * PAGE_SIZES.exportFetch traction units. `uuids` (the selected rows) narrows that to the selection.
 * An empty body is the fleet filter's defaults: the area's whole fleet.
 */
export const masterdataExportRequestSchema = fleetFilterSchema
  .extend({ uuids: z.array(z.uuid()).max(PAGE_SIZES.exportFetch).optional() })
  .prefault({});
export type MasterdataExportRequest = z.infer<typeof masterdataExportRequestSchema>;
