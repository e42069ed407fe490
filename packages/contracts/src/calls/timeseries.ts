import { z } from 'zod';
import { timeRangeSchema } from '../domain/entity.js';
import { uploadResultSchema } from '../excel.js';
import { list, LIST_LIMITS, text, TEXT_LIMITS } from '../limits.js';
import { resolutionSchema, timeSeriesTypeNameSchema } from '../timeseries.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * The answer of a time-series upload. A file stored for a background job answers at once with
 * `async: true` and its data-log entry (the upload dialog shows `finished_async`); the job imports
 * it and completes the entry. A file refused before that (wrong extension, unreadable body)
 * answers like the Excel import: success false and the failures.
 */
export const timeSeriesUploadResultSchema = uploadResultSchema.extend({
  async: z.boolean().optional(),
  /** The data-log entry of each accepted file, in upload order. */
  dataLogIds: list(z.number().int().positive(), LIST_LIMITS.small).optional(),
  /** The job run importing each accepted file (GET /jobs/{id} follows it). */
  jobIds: list(z.uuid(), LIST_LIMITS.small).optional(),
});
export type TimeSeriesUploadResult = z.infer<typeof timeSeriesUploadResultSchema>;

/** GET /timeseries/types: every type name with its entity kind, unit and resolution. */
export const timeSeriesTypeSchema = z.object({
  typeName: timeSeriesTypeNameSchema,
  refKind: text(TEXT_LIMITS.identifier),
  unit: text(TEXT_LIMITS.code),
  resolution: resolutionSchema,
  source: text(TEXT_LIMITS.code),
});

/** POST /excel/timeseries/export: series of one type for the named entities (all of the type when empty). */
export const timeSeriesExportRequestSchema = z.object({
  typeName: timeSeriesTypeNameSchema,
  refs: list(z.uuid(), LIST_LIMITS.selection).optional(),
  timeRange: timeRangeSchema,
});
export type TimeSeriesExportRequest = z.infer<typeof timeSeriesExportRequestSchema>;

/** /exchange/cebdinput/save and /getmaxdays: CEBD older than this many days since observation is refused. */
export const cebdInputSettingsSchema = z.object({
  maxDaysSinceObservation: z.number().int().min(1).max(3650),
});
export type CebdInputSettings = z.infer<typeof cebdInputSettingsSchema>;

export const JOB_STATUSES = ['queued', 'running', 'success', 'failure', 'dead'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** A background job's run as screens follow it (GET /jobs/{id}). */
export const jobRunSchema = z.object({
  id: z.uuid(),
  name: text(TEXT_LIMITS.identifier),
  status: jobStatusSchema,
  /** 0..1 */
  progress: z.number().min(0).max(1),
  message: text(TEXT_LIMITS.message).nullable(),
  dataLogId: z.number().int().nullable(),
  attempts: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

/** Optional `tenant-name` header of POST /cebd/import: when sent it must name the selected area. */
export const TENANT_NAME_HEADER = 'tenant-name';

/** calls.md §7 "Files" and "Time series": time-series intake, export and types. */
export const timeSeriesCalls = {
  cebdImport: defineCall({
    method: 'POST',
    path: '/cebd/import',
    access: POLICIES.timeSeriesImport,
    summary: 'Import CEBD files (CEBD and reading blocks, docs/formats/cebd.md); imported by a background job',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  excelImport: defineCall({
    method: 'POST',
    path: '/excel/timeseries/import',
    access: POLICIES.timeSeriesImport,
    summary: 'Import time-series workbooks (one sheet per type, a column per series, a row per period)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  csvImport: defineCall({
    method: 'POST',
    // calls.md lists "/excel/timeseries/import, /csv-import" as it lists "/excel/domain/import,
    // /import-org": we read /csv-import as relative to /excel/timeseries, as /import-org is to /excel/domain.
    path: '/excel/timeseries/csv-import',
    access: POLICIES.timeSeriesImport,
    summary: 'Import time-series CSV files (a column per series, a row per period)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  ediImport: defineCall({
    method: 'POST',
    // The upload picks its endpoint by extension (xlsx, edi, sdv, csv); calls.md names none for edi
    // and sdv, so these two paths are ours.
    path: '/timeseries/import/edi',
    access: POLICIES.timeSeriesImport,
    summary: 'Import UTILTS EDIFACT files (.edi)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  sdvImport: defineCall({
    method: 'POST',
    path: '/timeseries/import/sdv',
    access: POLICIES.timeSeriesImport,
    summary: 'Import sdv files (SDAT-CH style ebIX metered data)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  trainRunImport: defineCall({
    method: 'POST',
    // Train runs arrive from railway undertakings (docs/formats/train-runs.md); the path is ours.
    path: '/timeseries/import/trainrun',
    access: POLICIES.timeSeriesImport,
    summary: 'Import train-run files (input, correction, delete)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  nordpoolImport: defineCall({
    method: 'POST',
    path: '/automaticfileimport/importnordpool',
    access: POLICIES.administratorOnly,
    summary: 'Import Nordpool hourly prices per price area with the currency exchange rate (progress via the job)',
    upload: true,
    response: timeSeriesUploadResultSchema,
  }),
  importPrices: defineCall({
    method: 'GET',
    path: '/integration/prices/import-prices',
    access: POLICIES.administratorOnly,
    summary: 'Fetch and import the prices waiting on the enabled NORDPOOL interface routes (a job per file)',
    response: timeSeriesUploadResultSchema,
  }),
  types: defineCall({
    method: 'GET',
    path: '/timeseries/types',
    access: POLICIES.dataLogRead,
    summary: 'Time-series types with their entity kind, unit and resolution',
    response: list(timeSeriesTypeSchema, LIST_LIMITS.small),
  }),
  export: defineCall({
    method: 'POST',
    path: '/excel/timeseries/export',
    access: POLICIES.dataLogRead,
    summary: 'Export time series of one type as exportedtimeseries.xlsx (the layout the import reads)',
    body: timeSeriesExportRequestSchema,
    download: true,
  }),
  cebdInputSave: defineCall({
    method: 'POST',
    path: '/exchange/cebdinput/save',
    access: POLICIES.administratorOnly,
    summary: 'Save the maximum days since observation for CEBD of this area',
    body: cebdInputSettingsSchema,
    response: cebdInputSettingsSchema,
  }),
  cebdInputMaxDays: defineCall({
    method: 'GET',
    path: '/exchange/cebdinput/getmaxdays',
    access: POLICIES.dataLogRead,
    summary: 'The maximum days since observation for CEBD of this area',
    response: cebdInputSettingsSchema,
  }),
  job: defineCall({
    method: 'GET',
    // Ours: screens follow a background job's progress (issue 8 item 2).
    path: '/jobs/{id}',
    access: POLICIES.dataLogRead,
    summary: 'A background job run: status, progress, message',
    params: z.object({ id: z.uuid() }),
    response: jobRunSchema,
  }),
};
