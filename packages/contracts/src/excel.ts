import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText } from './limits.js';
import { timeRangeSchema, typeNameSchema } from './domain/entity.js';
import { PAGE_SIZES } from './constants.js';
import { fleetFilterSchema } from './domain/fleet.js';

/** Upload and export limits of /excel/domain/import (calls.md §5, §9). */
export const EXCEL_IMPORT_FIELD = 'files';

/** One failure of an upload (calls.md §3 "Upload failure structure"). */
export const sheetFailureSchema = z.object({
  errorMessage: serverText(TEXT_LIMITS.message),
  /** The entity type of the sheet ('TractionUnit'), or 'File' for a whole file. */
  type: serverText(TEXT_LIMITS.message),
});
export type SheetFailure = z.infer<typeof sheetFailureSchema>;

export const sheetParseResultSchema = z.object({
  sheetName: serverText(TEXT_LIMITS.message),
  type: serverText(TEXT_LIMITS.message),
  rowsRead: z.number().int(),
  failures: list(sheetFailureSchema, LIST_LIMITS.rows),
});
export type SheetParseResult = z.infer<typeof sheetParseResultSchema>;

/** The answer of POST /excel/domain/import. An upload failed if success is false or any sheet has failures. */
export const uploadResultSchema = z.object({
  success: z.boolean(),
  sheetParseResults: list(sheetParseResultSchema, LIST_LIMITS.small),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** POST /excel/domain/export: entities by uuid, or every entity of a type; segments overlapping timeRange. */
export const domainExportRequestSchema = z.object({
  type: typeNameSchema.optional(),
  uuids: list(z.uuid(), PAGE_SIZES.exportFetch).optional(),
  timeRange: timeRangeSchema.optional(),
});
export type DomainExportRequest = z.infer<typeof domainExportRequestSchema>;

/**
 * POST /excel/masterdata/export: the body of POST /domain/fleet (search mode, filters, time range,
 * sort), so the file holds exactly what the fleet overview lists for them, every page, at most
 * PAGE_SIZES.exportFetch traction units. `uuids` (the selected rows) narrows that to the selection.
 * An empty body is the fleet filter's defaults: the area's whole fleet.
 */
export const masterdataExportRequestSchema = fleetFilterSchema
  .extend({ uuids: list(z.uuid(), PAGE_SIZES.exportFetch).optional() })
  .prefault({});
export type MasterdataExportRequest = z.infer<typeof masterdataExportRequestSchema>;

/**
 * POST /excel/domain/export-org (exportedorganisations.xlsx): the selected organisations with
 * their segments overlapping timeRange. An empty selection is refused ('No entities selected').
 */
export const organisationExportRequestSchema = z.object({
  uuids: list(z.uuid(), PAGE_SIZES.exportFetch),
  timeRange: timeRangeSchema.optional(),
});
export type OrganisationExportRequest = z.infer<typeof organisationExportRequestSchema>;
