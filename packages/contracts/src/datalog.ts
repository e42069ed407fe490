import { z } from 'zod';
import { PAGE_SIZES } from './constants.js';
import { instantSchema } from './domain/entity.js';
import { LIST_LIMITS, RANGE_ORDER_MESSAGE, TEXT_LIMITS, list, serverText, text } from './limits.js';

/**
 * The data logs (calls.md §3, §4, §7 "Data log, settlement" and "Master-data data log"): every file
 * that arrives or leaves is a data_log row with its outcome and original bytes. Declared once here:
 * the server writes and filters these values, the web shows and filters them, and the action rules
 * (datalog-actions.ts) read them.
 */

/** Message statuses (calls.md §4; RUNNING and FAILED are among the "further data-log statuses"). */
export const MESSAGE_STATUSES = [
  'RUNNING',
  'OK',
  'ERROR',
  'REJECTED',
  'PARTLY_REJECTED',
  'RETRIED',
  'FAILED',
  'PENDING',
  'ACCEPTED',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const messageStatusSchema = z.enum(MESSAGE_STATUSES);

/**
 * Message types: the files this codebase writes (Excel and master-data transfers) and the intake,
 * processing output and report types the rules of calls.md §4 name. The data-log filters, the
 * screens and the rules share this list.
 */
export const MESSAGE_TYPES = {
  // Master data (Excel workbooks and transfers): the master-data data log lists these.
  excelDomainImport: 'EXCEL_DOMAIN_IMPORT',
  excelDomainExport: 'EXCEL_DOMAIN_EXPORT',
  masterdataExport: 'MASTERDATA_EXPORT',
  excelOrganisationImport: 'EXCEL_ORGANISATION_IMPORT',
  excelOrganisationExport: 'EXCEL_ORGANISATION_EXPORT',
  interfaceConfigurationExport: 'INTERFACE_CONFIGURATION_EXPORT',
  masterDataTransferIn: 'MASTER_DATA_TRANSFER_IN',
  masterDataTransferOut: 'MASTER_DATA_TRANSFER_OUT',
  masterDataTransferInternal: 'MASTER_DATA_TRANSFER_INTERNAL',
  // Time-series intake.
  cebdImport: 'CEBD_IMPORT',
  cebdValidation: 'CEBD_VALIDATION',
  utiltsImport: 'UTILTS_IMPORT',
  sdvImport: 'SDV_IMPORT',
  excelTimeSeriesImport: 'EXCEL_TIME_SERIES_IMPORT',
  csvTimeSeriesImport: 'CSV_TIME_SERIES_IMPORT',
  nordpoolPriceImport: 'NORDPOOL_PRICE_IMPORT',
  degreeDaysImport: 'DEGREE_DAYS_IMPORT',
  substationImport: 'SUBSTATION_IMPORT',
  fixedInstallationImport: 'FIXED_INSTALLATION_IMPORT',
  trainRunInput: 'TRAIN_RUN_INPUT',
  trainRunCorrection: 'TRAIN_RUN_CORRECTION',
  trainRunDelete: 'TRAIN_RUN_DELETE',
  // Output.
  trainRunOutput: 'TRAIN_RUN_OUTPUT',
  exportToConsumer: 'EXPORT_TO_CONSUMER',
  meteredEnergyAggregation: 'METERED_ENERGY_AGGREGATION',
  timeSeriesExport: 'TIME_SERIES_EXPORT',
  // Reports.
  orderedReport: 'ORDERED_REPORT',
  scheduledReport: 'SCHEDULED_REPORT',
} as const;
export type MessageType = (typeof MESSAGE_TYPES)[keyof typeof MESSAGE_TYPES];
export const MESSAGE_TYPE_VALUES = Object.values(MESSAGE_TYPES) as MessageType[];

/** The report types (re-order, set to error; no download, no values count). */
export const REPORT_MESSAGE_TYPES: readonly string[] = [MESSAGE_TYPES.orderedReport, MESSAGE_TYPES.scheduledReport];

/**
 * Master-data transfers: the master-data data log lists these rows of data_log (no table of its own:
 * a workbook import of fleet or organisations is a master-data transfer in, an export one out).
 */
export const MASTER_DATA_TRANSFER_TYPES = [
  'MASTER_DATA_TRANSFER_OUT',
  'MASTER_DATA_TRANSFER_IN',
  'MASTER_DATA_TRANSFER_INTERNAL',
] as const;
export type MasterDataTransferType = (typeof MASTER_DATA_TRANSFER_TYPES)[number];
export const MASTER_DATA_MESSAGE_TYPES: Readonly<Record<string, MasterDataTransferType>> = {
  [MESSAGE_TYPES.excelDomainImport]: 'MASTER_DATA_TRANSFER_IN',
  [MESSAGE_TYPES.excelOrganisationImport]: 'MASTER_DATA_TRANSFER_IN',
  [MESSAGE_TYPES.masterDataTransferIn]: 'MASTER_DATA_TRANSFER_IN',
  [MESSAGE_TYPES.excelDomainExport]: 'MASTER_DATA_TRANSFER_OUT',
  [MESSAGE_TYPES.excelOrganisationExport]: 'MASTER_DATA_TRANSFER_OUT',
  [MESSAGE_TYPES.masterdataExport]: 'MASTER_DATA_TRANSFER_OUT',
  [MESSAGE_TYPES.masterDataTransferOut]: 'MASTER_DATA_TRANSFER_OUT',
  [MESSAGE_TYPES.masterDataTransferInternal]: 'MASTER_DATA_TRANSFER_INTERNAL',
};
/** calls.md §4: the master-data log's statuses. */
export const MASTER_DATA_STATUSES = ['OK', 'FAILED', 'REJECTED'] as const;
export const MASTER_DATA_MODES = ['MANUAL', 'SUBSCRIPTION'] as const;
export const MASTER_DATA_DOWNLOAD_TYPES = ['TRANSFER', 'TRANSFER_DECOMPRESSED', 'RESPONSE', 'INTERNAL'] as const;
export type MasterDataDownloadType = (typeof MASTER_DATA_DOWNLOAD_TYPES)[number];
/** calls.md §4: in and out download as TRANSFER, internal as INTERNAL. */
export const masterDataDownloadType = (type: MasterDataTransferType): MasterDataDownloadType =>
  type === 'MASTER_DATA_TRANSFER_INTERNAL' ? 'INTERNAL' : 'TRANSFER';

/** calls.md §3: a leading EXP_ or RES_ on the file name filter is stripped. */
export const stripAggregationPrefix = (fileName: string): string => fileName.replace(/^(EXP_|RES_)/, '');

/** calls.md §7: metered energy aggregation files download as EXP_<name>, their responses as RES_<name>. */
export const aggregationFileName = (fileName: string, response: boolean): string =>
  `${response ? 'RES_' : 'EXP_'}${stripAggregationPrefix(fileName)}`;

/** A comma-joined query value ("a,b,c") as a bounded list of trimmed, non-empty items. */
export const commaList = (max: number, itemMax: number = TEXT_LIMITS.identifier) =>
  text(TEXT_LIMITS.comment)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(list(text(itemMax), max));

/** "start,end" (two instants, the web sends an array the client joins with a comma), ordered. */
export const rangeParam = text(TEXT_LIMITS.search)
  .transform((v) => v.split(','))
  .pipe(
    z
      .tuple([instantSchema, instantSchema])
      .refine(([start, end]) => Date.parse(start) <= Date.parse(end), { message: RANGE_ORDER_MESSAGE }),
  )
  .transform(([start, end]) => ({ start, end }));

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** The columns the settlement data log sorts by (an allow-list; the server maps each to a column). */
export const DATA_LOG_SORT_COLUMNS = [
  'logTimeStamp',
  'messageType',
  'messageStatus',
  'fileName',
  'username',
  'destination',
  'id',
] as const;
export type DataLogSortColumn = (typeof DATA_LOG_SORT_COLUMNS)[number];

/** GET /eventlog/datalog: the base filter plus the settlement additions (calls.md §3). */
export const dataLogFilterSchema = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(1000).default(PAGE_SIZES.dataLog),
  sortBy: z.enum(DATA_LOG_SORT_COLUMNS).default('logTimeStamp'),
  descendingOrder: flag.default(true),
  processingTimeRange: rangeParam.optional(),
  observationTimeRange: rangeParam.optional(),
  /** The observation time range applies only when this is true. */
  enableObservationTime: flag.default(false),
  typeName: commaList(LIST_LIMITS.small).optional(),
  status: commaList(LIST_LIMITS.small).optional(),
  consumptionPoints: commaList(LIST_LIMITS.refs, TEXT_LIMITS.name).optional(),
  entityIdentifiers: commaList(LIST_LIMITS.refs, TEXT_LIMITS.name).optional(),
  fileName: text(TEXT_LIMITS.name).transform(stripAggregationPrefix).optional(),
  baseId: text(TEXT_LIMITS.identifier).optional(),
  trainId: text(TEXT_LIMITS.identifier).optional(),
});
export type DataLogFilter = z.output<typeof dataLogFilterSchema>;
export type DataLogFilterInput = z.input<typeof dataLogFilterSchema>;

/** One time series a file carried (calls.md §3 messageLogTimeSeries). */
export const dataLogTimeSeriesSchema = z.object({
  startTime: z.string().max(40).nullable(),
  endTime: z.string().max(40).nullable(),
  timeSeriesType: text(TEXT_LIMITS.identifier).nullable(),
  entityIdentifier: text(TEXT_LIMITS.name).nullable(),
  valuesCount: z.number().int().nullable(),
  message: serverText(TEXT_LIMITS.message).nullable(),
});
export type DataLogTimeSeries = z.infer<typeof dataLogTimeSeriesSchema>;

/** A report a message produced (calls.md §3): an ordered or scheduled report's order (report_order, migration 0410). */
export const dataLogReportSchema = z.object({
  startTime: z.string().max(40).nullable(),
  endTime: z.string().max(40).nullable(),
  fileSize: z.number().int().nullable(),
  runningTime: z.number().nullable(),
  reportRefsNames: z.record(text(TEXT_LIMITS.identifier), text(TEXT_LIMITS.name)),
});

/** The richer message-log entry (calls.md §3). */
export const dataLogEntrySchema = z.object({
  id: z.number().int(),
  logTimeStamp: z.string().max(40),
  messageType: text(TEXT_LIMITS.identifier),
  messageStatus: text(TEXT_LIMITS.code),
  messageText: serverText(TEXT_LIMITS.message).nullable(),
  fileName: text(TEXT_LIMITS.name).nullable(),
  username: text(TEXT_LIMITS.identifier).nullable(),
  destination: text(TEXT_LIMITS.address).nullable(),
  baseId: text(TEXT_LIMITS.identifier).nullable(),
  trainId: text(TEXT_LIMITS.identifier).nullable(),
  hasResponse: z.boolean(),
  messageLogTimeSeries: list(dataLogTimeSeriesSchema, LIST_LIMITS.rows),
  reports: list(dataLogReportSchema, LIST_LIMITS.refs),
});
export type DataLogEntry = z.infer<typeof dataLogEntrySchema>;

export const dataLogPageSchema = z.object({
  content: list(dataLogEntrySchema, 1000),
  totalPages: z.number().int(),
  totalElements: z.number().int(),
});
export type DataLogPage = z.infer<typeof dataLogPageSchema>;

/** The body of reimport, reexport, reorder and download: the log message with its type. */
export const dataLogMessageRefSchema = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  messageType: text(TEXT_LIMITS.identifier),
});
export type DataLogMessageRef = z.infer<typeof dataLogMessageRefSchema>;

export const dataLogDownloadQuerySchema = z.object({ response: flag.default(false) });

/** The answer of reimport, reexport and reorder: the entry's outcome after the action. */
export const dataLogActionResultSchema = z.object({
  id: z.number().int(),
  messageStatus: text(TEXT_LIMITS.code),
  messageText: serverText(TEXT_LIMITS.message).nullable(),
});

/** POST /processing/tasks/set-to-error/{id}: the row's new status and text. */
export const setToErrorResultSchema = z.object({
  messageStatus: text(TEXT_LIMITS.code),
  messageText: serverText(TEXT_LIMITS.message).nullable(),
});

export const idParamSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** GET /masterdata/datalog: base paging and sort. */
export const MASTER_DATA_LOG_SORT_COLUMNS = ['logTimeStamp', 'fileName', 'type', 'status', 'id'] as const;
export const masterDataLogQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(1000).default(PAGE_SIZES.dataLog),
  sortBy: z.enum(MASTER_DATA_LOG_SORT_COLUMNS).default('logTimeStamp'),
  descendingOrder: flag.default(true),
  typeName: commaList(LIST_LIMITS.small).optional(),
  status: commaList(LIST_LIMITS.small).optional(),
  fileName: text(TEXT_LIMITS.name).optional(),
});
export type MasterDataLogQuery = z.output<typeof masterDataLogQuerySchema>;

/** calls.md §3 master-data data-log entry, with when, who, mode, outcome text and area. */
export const masterDataLogEntrySchema = z.object({
  id: z.number().int(),
  fileName: text(TEXT_LIMITS.name).nullable(),
  fileNameResponse: text(TEXT_LIMITS.name).nullable(),
  type: z.enum(MASTER_DATA_TRANSFER_TYPES),
  status: text(TEXT_LIMITS.code),
  mode: z.enum(MASTER_DATA_MODES),
  messageType: text(TEXT_LIMITS.identifier),
  messageText: serverText(TEXT_LIMITS.message).nullable(),
  logTimeStamp: z.string().max(40),
  username: text(TEXT_LIMITS.identifier).nullable(),
  areaName: text(TEXT_LIMITS.name),
});
export type MasterDataLogEntry = z.infer<typeof masterDataLogEntrySchema>;

export const masterDataLogPageSchema = z.object({
  content: list(masterDataLogEntrySchema, 1000),
  page: z.object({
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  }),
});
export type MasterDataLogPage = z.infer<typeof masterDataLogPageSchema>;

export const masterDataDownloadQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  downloadContentType: z.enum(MASTER_DATA_DOWNLOAD_TYPES),
});
