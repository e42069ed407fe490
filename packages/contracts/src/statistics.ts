import { z } from 'zod';
import { MESSAGE_TYPES, rangeParam, type MessageStatus, type MessageType } from './datalog.js';
import { ORGANISATION_TYPES } from './domain/organisation.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';
import {
  DASHBOARD_CATEGORIES,
  PROCEDURES,
  severitySchema,
  zoneQuerySchema,
  type DashboardCategory,
  type ProcedureName,
  type ProcedureResultStatus,
} from './processing.js';

/**
 * Statistics (issue 9 item 6, calls.md §3 "Dashboard statistics per process category", §7 "Dashboard
 * and statistics", §9 "Dashboard"): what the dashboard home and the completeness verification
 * screens read. The mappings from process names and data-log message types to the dashboard
 * categories are written here once; the server's SQL receives them as arrays, the web names the
 * same categories.
 */

/** The columns of a statistics item (calls.md §3), in the order the dashboard shows them. */
export const STATISTICS_BUCKETS = ['initial', 'running', 'success', 'notSuccess', 'other'] as const;
export type StatisticsBucket = (typeof STATISTICS_BUCKETS)[number];

/**
 * The data-log message types each file category counts (calls.md §9's categories that are files, not
 * procedures). Our reading where the spec is silent: "uploads" are the manual time-series uploads
 * (UTILTS, sdv, Excel, CSV); a train-run delete is a correction of train runs; "CEBD export" is the
 * export to consumers. Master-data workbooks, time-series downloads and the metered-energy-aggregation
 * file (the output of the procedure the category already counts) belong to no category, so nothing
 * is counted twice.
 */
export const DATA_LOG_CATEGORY_OF: Readonly<Partial<Record<MessageType, DashboardCategory>>> = {
  [MESSAGE_TYPES.cebdImport]: 'cebd-import',
  [MESSAGE_TYPES.cebdValidation]: 'cebd-validation',
  [MESSAGE_TYPES.exportToConsumer]: 'cebd-export',
  [MESSAGE_TYPES.trainRunInput]: 'train-run-input',
  [MESSAGE_TYPES.trainRunCorrection]: 'train-run-correction',
  [MESSAGE_TYPES.trainRunDelete]: 'train-run-correction',
  [MESSAGE_TYPES.trainRunOutput]: 'train-run-output',
  [MESSAGE_TYPES.degreeDaysImport]: 'degree-days',
  [MESSAGE_TYPES.nordpoolPriceImport]: 'price-import',
  [MESSAGE_TYPES.utiltsImport]: 'uploads',
  [MESSAGE_TYPES.sdvImport]: 'uploads',
  [MESSAGE_TYPES.excelTimeSeriesImport]: 'uploads',
  [MESSAGE_TYPES.csvTimeSeriesImport]: 'uploads',
  [MESSAGE_TYPES.orderedReport]: 'reports',
  [MESSAGE_TYPES.scheduledReport]: 'reports',
  [MESSAGE_TYPES.substationImport]: 'substation',
  [MESSAGE_TYPES.fixedInstallationImport]: 'fixed-installation',
};

/** The procedures each procedure category counts (PROCEDURES[name].category). */
export const PROCEDURE_CATEGORY_OF: Readonly<Partial<Record<ProcedureName, DashboardCategory>>> = Object.fromEntries(
  Object.entries(PROCEDURES).flatMap(([name, info]) => (info.category ? [[name, info.category]] : [])),
);

/**
 * Procedure result statuses as statistics columns: a run waits (initial), runs, or ended well or
 * badly. Our reading: an approved result ended well; a rejected or invalid one did not; the
 * settlement bookkeeping statuses (cancelled, corrected, dismissed, rerun, unknown, update) are "other".
 */
export const PROCEDURE_STATUS_BUCKET: Readonly<Record<ProcedureResultStatus, StatisticsBucket>> = {
  initial: 'initial',
  running: 'running',
  success: 'success',
  approved: 'success',
  failure: 'notSuccess',
  rejected: 'notSuccess',
  invalid: 'notSuccess',
  cancelled: 'other',
  corrected: 'other',
  dismissed: 'other',
  rerun: 'other',
  unknown: 'other',
  update: 'other',
};

/**
 * Data-log statuses as statistics columns: a file PENDING a response waits (initial), RUNNING runs,
 * OK and ACCEPTED succeeded, ERROR, REJECTED and FAILED did not; a PARTLY_REJECTED or RETRIED file is "other".
 */
export const MESSAGE_STATUS_BUCKET: Readonly<Record<MessageStatus, StatisticsBucket>> = {
  PENDING: 'initial',
  RUNNING: 'running',
  OK: 'success',
  ACCEPTED: 'success',
  ERROR: 'notSuccess',
  REJECTED: 'notSuccess',
  FAILED: 'notSuccess',
  PARTLY_REJECTED: 'other',
  RETRIED: 'other',
};

/**
 * The categories whose uniqueCPIDs is counted (the others answer null): files of CEBD (the
 * consumption points of their records), preprocessing (the points of the records preprocessed in the
 * range) and the allocation steps (the points whose energy they allocated).
 */
export const CPID_CATEGORIES: readonly DashboardCategory[] = [
  'cebd-import',
  'preprocessing',
  'combine',
  'shunting-and-stabling',
  'energy-outside-train-run',
];

/** The dashboard's window (calls.md §9 "previous seven days for CEBD statistics"). */
export const DASHBOARD_DAYS = 7;

/**
 * GET /statistics/dashboardstatistics and /dashboardevents: timeRange ("start,end" instants, the
 * processing time of runs and files, the recording time of events; default the last DASHBOARD_DAYS
 * days up to now) and zoneId (the screen's zone; the range arrives as instants, so it only names the zone).
 */
export const statisticsQuerySchema = z.object({
  timeRange: rangeParam.optional(),
  zoneId: zoneQuerySchema.shape.zoneId,
});
export type StatisticsQuery = z.infer<typeof statisticsQuerySchema>;

const count = z.number().int().min(0);

/** calls.md §3: one dashboard category's counts; sum = the five columns; queue = jobs waiting in its queue. */
export const dashboardStatisticsItemSchema = z.object({
  type: z.enum(DASHBOARD_CATEGORIES),
  initial: count,
  running: count,
  success: count,
  notSuccess: count,
  other: count,
  sum: count,
  queue: count,
  /** Distinct consumption points of the category's records in the range; null where none apply. */
  uniqueCPIDs: count.nullable(),
});
export type DashboardStatisticsItem = z.infer<typeof dashboardStatisticsItemSchema>;

/** calls.md §3 "Events per process": the incidents summed per process, error code and severity. */
export const dashboardEventSchema = z.object({
  processName: text(TEXT_LIMITS.identifier),
  errorCode: text(TEXT_LIMITS.code),
  incidents: count,
  severity: severitySchema,
});
export type DashboardEvent = z.infer<typeof dashboardEventSchema>;

/** GET /statistics/queue-size: every dashboard category with the jobs waiting (created or retrying) for it. */
export const queueSizeSchema = z.record(z.enum(DASHBOARD_CATEGORIES), count);
export type QueueSize = z.infer<typeof queueSizeSchema>;

/** GET /statistics/cebd: zoneId (default the area's zone), the zone whose days are counted. */
export const cebdStatisticsQuerySchema = z.object({ zoneId: zoneQuerySchema.shape.zoneId });

/**
 * One day (in the zone) of CEBD intake: the files received that day, their records (one per
 * consumption point and 5-minute period) and consumption points, and of those records how many
 * cebd-preprocessing has checked, found valid (no code, not a duplicate) or with codes.
 */
export const cebdDaySchema = z.object({
  day: z.iso.date(),
  files: count,
  failedFiles: count,
  records: count,
  consumptionPoints: count,
  preprocessed: count,
  valid: count,
  withErrors: count,
});
export type CebdDay = z.infer<typeof cebdDaySchema>;
export const cebdStatisticsSchema = z.object({
  zoneId: text(TEXT_LIMITS.code),
  days: list(cebdDaySchema, DASHBOARD_DAYS),
});
export type CebdStatistics = z.infer<typeof cebdStatisticsSchema>;

/**
 * The stages GET /statistics/offset-lag measures: CEBD records waiting for cebd-preprocessing, valid
 * preprocessed records of a traction unit waiting for allocation (combine and the steps after it),
 * and train runs waiting for train-preprocessing's check.
 */
export const OFFSET_LAG_STAGES = ['cebd-preprocessing', 'combine', 'train-preprocessing'] as const;
export const offsetLagSchema = list(
  z.object({
    stage: z.enum(OFFSET_LAG_STAGES),
    waiting: count,
    /** The oldest waiting item's time (record period end, train run operating day); null when none waits. */
    oldest: z.string().max(40).nullable(),
  }),
  OFFSET_LAG_STAGES.length,
);
export type OffsetLag = z.infer<typeof offsetLagSchema>;

/** calls.md §9 and product.md §4: "Completeness verification threshold minimum 24 hours". */
export const COMPLETENESS_MIN_HOURS = 24;
export const COMPLETENESS_MESSAGE = 'Completeness verification threshold minimum 24 hours';
/** Ten years: a bound, not a rule of the spec. */
export const COMPLETENESS_MAX_HOURS = 87_600;
export const completenessQuerySchema = z.object({
  threshold: z.coerce
    .number()
    .int()
    .min(COMPLETENESS_MIN_HOURS, COMPLETENESS_MESSAGE)
    .max(COMPLETENESS_MAX_HOURS)
    .default(COMPLETENESS_MIN_HOURS),
});
export type CompletenessQuery = z.infer<typeof completenessQuerySchema>;

const instant = z.string().max(40);

/** A consumption point of a unit with its latest CEBD record (period end); null: it never delivered. */
export const completenessPointSchema = z.object({
  uuid: z.uuid(),
  cpid: text(TEXT_LIMITS.name),
  lastDelivery: instant.nullable(),
  /** Whole hours since lastDelivery; null when it never delivered. */
  hoursMissing: count.nullable(),
  /** Its latest record is older than the threshold, or it never delivered. */
  missing: z.boolean(),
});

/**
 * GET /statistics/completenessverification/tractionunits: a traction unit (with consumption points)
 * whose data is not complete up to the threshold. Our reading: a unit's data is complete up to the
 * earliest of its points' latest records (a unit with one silent meter is incomplete), so a unit is
 * listed when any point's latest record is older than the threshold or it never delivered;
 * lastDelivery is that earliest latest record (null when a point never delivered). The points come
 * with the unit, so the consumption-point screen lists the missing points from the same answer.
 */
export const completenessRowSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  evn: text(TEXT_LIMITS.identifier).nullable(),
  ownerUuid: z.uuid().nullable(),
  ownerName: text(TEXT_LIMITS.name).nullable(),
  lastDelivery: instant.nullable(),
  hoursMissing: count.nullable(),
  consumptionPoints: list(completenessPointSchema, LIST_LIMITS.refs),
});
export type CompletenessRow = z.infer<typeof completenessRowSchema>;
export const completenessAnswerSchema = list(completenessRowSchema, LIST_LIMITS.rows);

/** GET /statistics/cebd-delivery-info: orgType, the organisations whose units' delivery is shown. */
export const CEBD_DELIVERY_ORG_TYPES = [
  'VEHICLE_KEEPER',
  'RAILWAY_UNDERTAKING',
] as const satisfies readonly (typeof ORGANISATION_TYPES)[number][];
export const cebdDeliveryInfoQuerySchema = z.object({
  orgType: z.enum(CEBD_DELIVERY_ORG_TYPES).default('VEHICLE_KEEPER'),
});

/**
 * One organisation of the type with the units it owns: how many units and consumption points, how
 * many points delivered in the last DASHBOARD_DAYS days, and the latest record (period end) and the
 * latest file received (the newest data-log entry of those records).
 */
export const cebdDeliveryInfoSchema = z.object({
  organisationUuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  tractionUnits: count,
  consumptionPoints: count,
  deliveringConsumptionPoints: count,
  lastDelivery: instant.nullable(),
  lastReceived: instant.nullable(),
});
export type CebdDeliveryInfo = z.infer<typeof cebdDeliveryInfoSchema>;
export const cebdDeliveryInfoAnswerSchema = list(cebdDeliveryInfoSchema, LIST_LIMITS.rows);
