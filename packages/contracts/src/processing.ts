import { z } from 'zod';
import { PAGE_SIZES } from './constants.js';
import { commaList, rangeParam } from './datalog.js';
import {
  entityRefSchema,
  instantSchema,
  ORDERED_WINDOW_CHECK,
  orderedWindow,
  timeRangeSchema,
} from './domain/entity.js';
import { LIST_LIMITS, RANGE_ORDER_MESSAGE, TEXT_LIMITS, list, serverText, text } from './limits.js';
import { MAX_PAGE } from './paging.js';
import { meteredEnergyAggregationSchema } from './processing-config.js';

/**
 * Processing (issue 9, DOMAIN.md "Processing"): the procedures between a file arriving and a bill,
 * their runs (procedure results) and the events they record. Declared once here: the server runs
 * and lists them, the web's process pages and dashboard read the same lists.
 */

/**
 * The dashboard categories of calls.md §9 ("categories mapped from process names"). A procedure
 * whose kind is not among them (estimation, pricing, settlement) has no category: the dashboard
 * does not count it in a category of its own.
 */
export const DASHBOARD_CATEGORIES = [
  'cebd-import',
  'cebd-validation',
  'cebd-export',
  'train-run-input',
  'train-run-correction',
  'train-run-output',
  'preprocessing',
  'combine',
  'shunting-and-stabling',
  'energy-outside-train-run',
  'degree-days',
  'price-import',
  'uploads',
  'reports',
  'substation',
  'fixed-installation',
  'metered-energy-aggregation',
] as const;
export type DashboardCategory = (typeof DASHBOARD_CATEGORIES)[number];

export interface ProcedureInfo {
  /** The dashboard category (calls.md §9), or null when the procedure has none. */
  category: DashboardCategory | null;
  /** false: the Monitor page is a log only (product.md §2 "(log only)"); no run or rerun. */
  runnable: boolean;
}

/** Every process of product.md §2 Monitor, in the menu's order. */
export const PROCEDURES = {
  'cebd-preprocessing': { category: 'preprocessing', runnable: true },
  profile: { category: null, runnable: true },
  'annual-distribution': { category: null, runnable: true },
  'price-and-supply': { category: null, runnable: true },
  'on-account': { category: null, runnable: true },
  'payload-with-trainprofile': { category: null, runnable: false },
  'reported-train-consumption-with-track': { category: null, runnable: false },
  'reported-train-consumption': { category: null, runnable: false },
  'train-preprocessing': { category: 'preprocessing', runnable: true },
  combine: { category: 'combine', runnable: true },
  'calculate-consumption-factor': { category: null, runnable: true },
  'shunting-and-stabling': { category: 'shunting-and-stabling', runnable: true },
  'energy-outside-train-run': { category: 'energy-outside-train-run', runnable: true },
  'freight-consumption-factor': { category: null, runnable: true },
  'metered-energy-aggregation': { category: 'metered-energy-aggregation', runnable: true },
  settlement: { category: null, runnable: true },
} as const satisfies Record<string, ProcedureInfo>;

export type ProcedureName = keyof typeof PROCEDURES;
export const PROCEDURE_NAMES = Object.keys(PROCEDURES) as [ProcedureName, ...ProcedureName[]];
export const procedureNameSchema = z.enum(PROCEDURE_NAMES);

/** calls.md §7: "rerun (not for metered-energy-aggregation)". */
export const canRerun = (name: ProcedureName): boolean =>
  PROCEDURES[name].runnable && name !== 'metered-energy-aggregation';

/** calls.md §4 "Settlement procedure result statuses"; every procedure's results use the same list. */
export const PROCEDURE_RESULT_STATUSES = [
  'approved',
  'cancelled',
  'corrected',
  'dismissed',
  'failure',
  'initial',
  'invalid',
  'rejected',
  'rerun',
  'running',
  'success',
  'unknown',
  'update',
] as const;
export const procedureResultStatusSchema = z.enum(PROCEDURE_RESULT_STATUSES);
export type ProcedureResultStatus = z.infer<typeof procedureResultStatusSchema>;

/**
 * The statuses a run passes through: initial (queued) -> running -> success or failure. The rest
 * (approval, invalidation, ...) are settlement's, set by the calls of the settlement issue.
 */
export const RUN_STATUSES: readonly ProcedureResultStatus[] = ['initial', 'running', 'success', 'failure'];
/** A run in one of these is under way: a second run of the same scope is process_already_running. */
export const UNDER_WAY_STATUSES: readonly ProcedureResultStatus[] = ['initial', 'running'];

/** Longest period one run covers (a chunk per area day): a year and a month's margin. */
export const MAX_RUN_DAYS = 400;

/** The run options a procedure result keeps (what the run's extra params chose). */
export const procedureRunOptionsSchema = z.object({
  aggregation: meteredEnergyAggregationSchema.optional(),
  tpa: z.boolean().optional(),
  /**
   * cebd-preprocessing by the system at month end (issue 19 item 2): only the area days marked for a
   * re-check (a master-data change, cebd_recheck) or holding records not checked yet; the others are
   * skipped.
   */
  onlyDue: z.boolean().optional(),
  /**
   * cebd-preprocessing of a file on arrival: the chain follows (combine ...) only on the run's days a
   * successful combine already covered ('processed'); days not processed yet are only checked.
   */
  followers: z.enum(['processed']).optional(),
});
export type ProcedureRunOptions = z.infer<typeof procedureRunOptionsSchema>;

/** Where a run is: area days done of the period's days, and the records those days processed. */
export const progressCountsSchema = z.object({
  unit: z.literal('days'),
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  records: z.number().int().min(0).nullable(),
});
export type ProgressCounts = z.infer<typeof progressCountsSchema>;

/** calls.md §3 "Procedure result", plus what the process pages follow (period, progress, message, job). */
export const procedureResultSchema = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  procedureName: procedureNameSchema,
  status: procedureResultStatusSchema,
  executeStartTime: z.string().max(40),
  executeEndTime: z.string().max(40).nullable(),
  refTime: z.string().max(40).nullable(),
  entityRefs: list(entityRefSchema, LIST_LIMITS.refs),
  entityName: text(TEXT_LIMITS.name).nullable(),
  /** The period the run covers, [start, end). */
  periodStart: z.string().max(40),
  periodEnd: z.string().max(40),
  /** 0..1: finished chunks (area days) of all. */
  progress: z.number().min(0).max(1),
  /**
   * Ours (issue 18 item 4): the same progress in the units a user reads, "12 of 31 days" and the
   * records the finished days processed (null when the procedure does not count records). Null for a
   * run that has not started (its days depend on the area's zone, counted when it starts).
   */
  progressCounts: progressCountsSchema.nullable().optional(),
  message: serverText(TEXT_LIMITS.message).nullable(),
  /** Who started it. */
  username: text(TEXT_LIMITS.identifier),
  /** The background job run executing it (GET /jobs/{id}); null once that run is gone. */
  jobId: z.uuid().nullable(),
  /** What the run's extra params chose (metered-energy-aggregation's aggregation, settlement's tpa). */
  runOptions: procedureRunOptionsSchema.optional(),
});
export type ProcedureResult = z.infer<typeof procedureResultSchema>;

/** Query of the run and rerun calls: the zone the operator's screen shows (Current-Tenant-ZoneId). */
export const zoneQuerySchema = z.object({
  zoneId: text(TEXT_LIMITS.code)
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone')
    .optional(),
});

/**
 * POST /processing/{procedure}/run body ("the run payload"): the period and, optionally, the
 * entities it is limited to and a reference time. The period is at most MAX_RUN_DAYS long.
 */
export const procedureRunRequestSchema = z.object({
  timeRange: timeRangeSchema.refine(
    (r) => Date.parse(r.end) - Date.parse(r.start) <= MAX_RUN_DAYS * 86_400_000,
    `A run covers at most ${MAX_RUN_DAYS} days`,
  ),
  refs: list(entityRefSchema, LIST_LIMITS.refs).default([]),
  entityName: text(TEXT_LIMITS.name).optional(),
  refTime: instantSchema.optional(),
});
export type ProcedureRunRequest = z.infer<typeof procedureRunRequestSchema>;

/**
 * POST /processing/{procedure}/run query (calls.md §7 "query zoneId plus extra params"): the zone,
 * and metered-energy-aggregation's option, FIRST or SECOND (without it, the procedure's configured
 * defaultAggregation, itself SECOND by default). Other procedures refuse the option.
 */
export const procedureRunQuerySchema = zoneQuerySchema.extend({
  aggregation: meteredEnergyAggregationSchema.optional(),
  /**
   * settlement only: the run is a version of the TPA settlement (the tpa- twins of the settlement
   * pages, netherlands only), a chain of versions and approvals of its own beside the plain one.
   */
  tpa: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
});
export type ProcedureRunQuery = z.infer<typeof procedureRunQuerySchema>;

export const procedureParamSchema = z.object({ procedure: procedureNameSchema });

/** POST /processing/{procedure}/rerun body: the procedure results to run again. */
export const procedureRerunRequestSchema = z.object({
  rows: list(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), LIST_LIMITS.small).min(1),
});

export const PROCEDURE_RESULT_SORT_COLUMNS = [
  'executeStartTime',
  'executeEndTime',
  'status',
  'periodStart',
  'id',
] as const;

const descending = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const pageFields = (size: number) => ({
  page: z.coerce.number().int().min(0).max(MAX_PAGE).default(0),
  size: z.coerce.number().int().min(1).max(PAGE_SIZES.lookup).default(size),
  descendingOrder: descending.default(true),
});

/** POST /eventlog/procedure-result/findBy query: paging, the procedure and the observation range. */
export const procedureResultQuerySchema = z.object({
  ...pageFields(PAGE_SIZES.default),
  sortBy: z.enum(PROCEDURE_RESULT_SORT_COLUMNS).default('executeStartTime'),
  procedureName: procedureNameSchema.optional(),
  /** "start,end": runs whose period overlaps it. */
  observationTimeRange: rangeParam.optional(),
});

const optionalRange = z
  .object({ start: instantSchema, end: instantSchema })
  .refine((r) => Date.parse(r.start) <= Date.parse(r.end), { message: RANGE_ORDER_MESSAGE, path: ['end'] })
  .optional();
const uuids = list(z.uuid(), LIST_LIMITS.refs).optional();

/**
 * calls.md §3 "Process log filter" (the findBy body). The entity filters (consumptionPoint,
 * tractionUnits, organisations, train, trafficCategory, trainProfile) name entities by uuid and match
 * runs whose entityRefs hold one of them; train is the train run's uuid.
 */
export const processLogFilterSchema = z.object({
  /** When the run started. */
  processingTime: optionalRange,
  /** Runs whose period overlaps it (the query's observationTimeRange does the same). */
  observationTimeRange: optionalRange,
  operatingDayTimeRange: optionalRange,
  statuses: list(procedureResultStatusSchema, PROCEDURE_RESULT_STATUSES.length).optional(),
  /** The username that started the run. */
  userId: text(TEXT_LIMITS.identifier).optional(),
  consumptionPoint: z.uuid().optional(),
  tractionUnits: uuids,
  organisations: uuids,
  train: z.uuid().optional(),
  trafficCategory: z.uuid().optional(),
  trainProfile: z.uuid().optional(),
  /**
   * Not in calls.md's filter: the results with these ids. The process result view (?id=) and the run
   * page read one result through the log's own call rather than a call of their own.
   */
  ids: list(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), LIST_LIMITS.small).optional(),
  /**
   * Not in calls.md's filter: true, the TPA settlement's versions only; false, the others only
   * (the tpa- twin of the settlement process page and the plain one); absent, all.
   */
  tpa: z.boolean().optional(),
});
export type ProcessLogFilter = z.infer<typeof processLogFilterSchema>;

export const pageSchemaOf = <T extends z.ZodType>(item: T) =>
  z.object({
    content: list(item, PAGE_SIZES.exportFetch),
    totalPages: z.number().int(),
    totalElements: z.number().int(),
  });
export const procedureResultPageSchema = pageSchemaOf(procedureResultSchema);
export type ProcedureResultPage = z.infer<typeof procedureResultPageSchema>;

/** GET /eventlog/procedure-result/statuses query. */
export const procedureNameQuerySchema = z.object({ procedureName: procedureNameSchema.optional() });

/** GET /eventlog/procedure-result/checkStatus query: a procedure, optionally one period. */
export const checkStatusQuerySchema = z
  .object({
    procedureName: procedureNameSchema,
    start: instantSchema.optional(),
    end: instantSchema.optional(),
  })
  .refine(orderedWindow, ORDERED_WINDOW_CHECK);
/** Not shown in calls.md: whether a run is under way, and the latest run of the procedure (and period). */
export const checkStatusSchema = z.object({ running: z.boolean(), latest: procedureResultSchema.nullable() });

/** POST /eventlog/procedure-result/exists query; the body is the refs (empty: any entity). */
export const procedureResultExistsQuerySchema = z.object({
  year: z.coerce.number().int().min(1970).max(2069),
  month: z.coerce.number().int().min(1).max(12),
  zoneId: zoneQuerySchema.shape.zoneId,
  procedureName: procedureNameSchema,
  status: commaList(PROCEDURE_RESULT_STATUSES.length)
    .pipe(list(procedureResultStatusSchema, PROCEDURE_RESULT_STATUSES.length))
    .optional(),
});
export const refsBodySchema = list(entityRefSchema, LIST_LIMITS.refs);

/** POST /eventlog/procedure-result/findLatest query; the body is the refs (empty: any entity). */
export const findLatestQuerySchema = z.object({
  procedureName: procedureNameSchema,
  /** "start,end": runs whose period overlaps it. */
  interval: rangeParam.optional(),
  status: commaList(PROCEDURE_RESULT_STATUSES.length)
    .pipe(list(procedureResultStatusSchema, PROCEDURE_RESULT_STATUSES.length))
    .optional(),
});

/** Processing-event severities; an event without one is HIGH (calls.md §3, §9). */
export const SEVERITIES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

/** An event a procedure recorded (calls.md §3 "Events per process"). */
export const processingEventSchema = z.object({
  id: z.number().int(),
  procedureResultId: z.number().int().nullable(),
  processName: text(TEXT_LIMITS.identifier),
  errorCode: text(TEXT_LIMITS.code),
  severity: severitySchema,
  incidents: z.number().int(),
  message: serverText(TEXT_LIMITS.message).nullable(),
  entityIdentifier: text(TEXT_LIMITS.name).nullable(),
  /** The instant the event is about (the record's time, or the run's time). */
  time: z.string().max(40),
});
export type ProcessingEvent = z.infer<typeof processingEventSchema>;

/** The filter of POST /eventlog/processingevent, /count and /procedure-result-ids. */
export const processingEventFilterSchema = z.object({
  processNames: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small).optional(),
  procedureResultIds: list(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), LIST_LIMITS.refs).optional(),
  errorCodes: list(text(TEXT_LIMITS.code), LIST_LIMITS.small).optional(),
  severities: list(severitySchema, SEVERITIES.length).optional(),
  /** Events about instants in this range. */
  timeRange: optionalRange,
  /** Exact entity identifier (CPID, EVN, name). */
  entityIdentifier: text(TEXT_LIMITS.name).optional(),
  /** Not in calls.md: the events with these ids (the event view's ?id=). */
  ids: list(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), LIST_LIMITS.small).optional(),
  /**
   * Not in calls.md (issue 18 item 4): an event of a day that a later run of the same procedure (for
   * the same entities, or the whole area) processed again is superseded, and left out unless this is
   * true. A filter naming results (procedureResultIds) or events (ids) always gets theirs.
   */
  includeSuperseded: z.boolean().optional(),
});
export type ProcessingEventFilter = z.infer<typeof processingEventFilterSchema>;

/**
 * POST /eventlog/processingevent/export and /excel/eventlog/export (events.xlsx): the event
 * monitor's filter and sort. The file holds at most PAGE_SIZES.exportFetch events; a filter matching
 * more is refused (query_timeout) rather than cut silently.
 */
export const EVENTS_EXPORT_FILE = 'events.xlsx';
export const EVENT_EXPORT_COLUMNS = [
  'id',
  'time',
  'processName',
  'errorCode',
  'errorText',
  'severity',
  'incidents',
  'entityIdentifier',
  'message',
  'procedureResultId',
] as const;

export const PROCESSING_EVENT_SORT_COLUMNS = ['time', 'errorCode', 'severity', 'processName', 'id'] as const;
/** POST /eventlog/processingevent query: paging (the event monitor pages by 50). */
export const processingEventQuerySchema = z.object({
  ...pageFields(PAGE_SIZES.eventMonitor),
  sortBy: z.enum(PROCESSING_EVENT_SORT_COLUMNS).default('time'),
});
/** The export calls' query: the monitor's sort (no paging: every matching event, up to the limit). */
export const processingEventExportQuerySchema = processingEventQuerySchema.pick({
  sortBy: true,
  descendingOrder: true,
});
export const processingEventPageSchema = pageSchemaOf(processingEventSchema);

/**
 * POST /eventlog/processingevent/summary (ours, issue 18 item 4): the filter's events summed by code
 * and severity (events, and their incidents), most events first: the table above a run's events.
 */
export const processingEventSummaryRowSchema = z.object({
  errorCode: text(TEXT_LIMITS.code),
  severity: severitySchema,
  events: z.number().int(),
  incidents: z.number().int(),
});
export type ProcessingEventSummaryRow = z.infer<typeof processingEventSummaryRowSchema>;
/** At most this many (code, severity) rows: more codes than any procedure records. */
export const EVENT_SUMMARY_ROWS = 500;
export const processingEventSummarySchema = list(processingEventSummaryRowSchema, EVENT_SUMMARY_ROWS);
export type ProcessingEventPage = z.infer<typeof processingEventPageSchema>;

/** GET /domain/processes: a process of the Monitor with its category and whether it runs. */
export const processInfoSchema = z.object({
  name: procedureNameSchema,
  category: z.enum(DASHBOARD_CATEGORIES).nullable(),
  runnable: z.boolean(),
});
export type ProcessInfo = z.infer<typeof processInfoSchema>;

/**
 * The train-run, combine and shunting codes of calls.md §8 ("their exact wording: not shown"): the
 * errorCode a processing event carries, with the text screens show. cebd-preprocessing's events use
 * the numeric codes 54-60 (CEBD_CODE_MESSAGES below).
 */
export const PROCESS_EVENT_CODES = {
  'weight-outside-limits': 'Weight outside limits',
  'location-outside-valid-area': 'Location outside valid area',
  'data-received-too-late': 'Data received too late',
  'no-metered-data-received': 'No metered data received',
  'match-energy-failed': 'Match energy failed',
  'wrong-train-composition': 'Wrong train composition',
  'duplicate-train-run': 'Duplicate train run',
  'unknown-evn': 'Unknown EVN',
  'shunting-limits-exceeded': 'Shunting limits exceeded',
  'uncertain-quality-flag-61': 'Uncertain quality flag 61',
  'energy-consumption-0': 'Energy consumption 0',
  'approved-settlement-exists': 'Approved settlement already exists for the area or organisation',
  // price-and-supply and settlement (issue 10): ours, worded like the catalogue's.
  'supply-missing': 'Supply missing',
  'spot-price-missing': 'Spot price missing',
  'supply-lower-than-allocated': 'Supply lower than allocated energy',
  'prices-and-supply-missing': 'Prices and supply not calculated',
  // issue 18 item 5: a line billed without its contract's charges; prices read from older supply.
  'contract-missing': 'No contract valid in the price area',
  'prices-and-supply-outdated': 'Supply or prices changed after price-and-supply',
  'consumption-factor-missing': 'Consumption factor missing',
  'track-unknown': 'Track unknown',
  'consumption-factors-stored': 'Consumption factors stored',
  'too-few-train-runs': 'Too few metered train runs for a consumption factor',
  'no-approved-settlement': 'No approved settlement',
} as const;
export type ProcessEventCode = keyof typeof PROCESS_EVENT_CODES;

/** calls.md §8 codes 54-60 as cebd-preprocessing's processing events name them. */
export const CEBD_CODE_MESSAGES: Record<number, string> = {
  54: 'Data received from unknown EMS',
  55: 'Data from EMS received via other DCs',
  56: 'Too many missing values',
  57: 'Too frequent low quality codes',
  58: 'Value outside expected limits',
  59: 'Data outside area',
  60: 'Master data missing',
};

/** The text of a processing event's code (the code itself when it is none of the known ones). */
export function eventCodeText(code: string): string {
  if (code in PROCESS_EVENT_CODES) return PROCESS_EVENT_CODES[code as ProcessEventCode];
  return /^\d+$/.test(code) ? (CEBD_CODE_MESSAGES[Number(code)] ?? code) : code;
}
