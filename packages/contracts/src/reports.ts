import { z } from 'zod';
import { entityRefSchema, instantSchema } from './domain/entity.js';
import { REPORT_FILE_FORMATS, REPORT_LANGUAGES } from './domain/organisation.js';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from './limits.js';
import { PROCEDURE_NAMES, PROCEDURE_RESULT_STATUSES, zoneQuerySchema } from './processing.js';
import { roleSchema } from './roles.js';
import { procedureTaskBodySchema, procedureTaskQuerySchema, taskDestinationSchema } from './procedure-tasks.js';

/**
 * Reports (issue 20; product.md §2 "Reports", calls.md §7 "Reports", §3 "Scheduled report / task run
 * body", §4 "Reports use statuses by role"). The names are product.md's, spelled as its order pages
 * are; the server defines the reports it makes (apps/server/src/modules/reports, ALL_REPORTS) and
 * answers only those from GET /domain/reports.
 */

/** The 33 reports of product.md §2, in its order. */
export const REPORT_NAMES = [
  'trainrunenergy',
  'trainrunenergysettlementdependency',
  'settlement',
  'gridarea-settlement',
  'settlementsummary',
  'tpa-settlement',
  'erpsettlementtotal',
  'supplier',
  'tpa-supplier',
  'energycorrection',
  'energyrawdata',
  'surveillancearea',
  'totaltrainrunenergy',
  'energymarket',
  'consumption',
  'shuntingandstabling',
  'nonmeteredtractionunits',
  'accumulatedenergy',
  'accumulatedenergysettlementdependency',
  'onaccountappendix',
  'settlementoverviewonaccount',
  'settlementoverview',
  'portugal-settlementoverview',
  'agressoexportsettlement',
  'customerinvoicemonthappendix',
  'agressoonaccount',
  'energysupplyandcost',
  'expense',
  'overviewofinvoicedcost',
  'priceelements',
  'accumulatedmeteredtrainenergyintaxarea',
  '15minoverview',
  '15mindetailed',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
export const reportNameSchema = z.enum(REPORT_NAMES);
export const isReportName = (name: string): name is ReportName => (REPORT_NAMES as readonly string[]).includes(name);

/** product.md §3 "file format (xlsx, csv, xml)". */
export const REPORT_FORMATS = REPORT_FILE_FORMATS;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const reportFormatSchema = z.enum(REPORT_FORMATS);

/**
 * product.md §3 "language (English, Danish, Norwegian, Swedish, Finnish, Spanish)", as the codes
 * the web's translations use (apps/web/src/locales: Norwegian is Bokmål, nb).
 */
export const REPORT_LOCALES = ['en', 'da', 'nb', 'sv', 'fi', 'es'] as const;
export type ReportLanguage = (typeof REPORT_LOCALES)[number];
export const reportLanguageSchema = z.enum(REPORT_LOCALES);
/** The schedule's and the organisation's language names (domain/organisation.ts REPORT_LANGUAGES) as locales. */
export const REPORT_LANGUAGE_LOCALES: Readonly<Record<(typeof REPORT_LANGUAGES)[number], ReportLanguage>> = {
  English: 'en',
  Danish: 'da',
  Norwegian: 'nb',
  Swedish: 'sv',
  Finnish: 'fi',
  Spanish: 'es',
};

/**
 * The refs a report may take, keyed as calls.md §3 names them in a data-log entry's
 * `reportRefsNames` (organisation, energyusesettlementarea, gridarea, consumptionpoint, tractionunit,
 * operatingday). The first five are entities sent in the body's `refs` with their domain type; the
 * operating day is a day, sent in `reportSpecificParameters.operatingDay`.
 */
export const REPORT_REF_KINDS = [
  'organisation',
  'energyusesettlementarea',
  'gridarea',
  'consumptionpoint',
  'tractionunit',
  'operatingday',
] as const;
export type ReportRefKind = (typeof REPORT_REF_KINDS)[number];

/** The domain type (product.md §3 "Domain entity types") a body ref carries for each entity ref kind. */
export const REPORT_REF_TYPES: Readonly<Record<Exclude<ReportRefKind, 'operatingday'>, string>> = {
  organisation: 'Organisation',
  energyusesettlementarea: 'EnergyUseSettlementArea',
  gridarea: 'GridArea',
  consumptionpoint: 'ConsumptionPoint',
  tractionunit: 'TractionUnit',
};

/** Most entities of one kind a report order may name. */
export const MAX_REPORT_REFS = 100;
/** Most months a report over a range of months covers. */
export const MAX_REPORT_MONTHS = 24;

/**
 * calls.md §3 reportSpecificParameters: a report's own parameters (a range's last month, an operating
 * day, per grid area values), as named scalars; each report's definition parses them with its own
 * schema (apps/server/src/modules/reports/define-report.ts), so an unknown or bad one is a 400.
 */
export const reportSpecificParametersSchema = z
  .record(
    text(TEXT_LIMITS.identifier),
    z.union([
      text(TEXT_LIMITS.name),
      z.number().finite(),
      z.boolean(),
      list(text(TEXT_LIMITS.name), LIST_LIMITS.small),
    ]),
  )
  .refine((p) => Object.keys(p).length <= LIST_LIMITS.small, { message: `At most ${LIST_LIMITS.small} parameters` });
export type ReportSpecificParameters = z.infer<typeof reportSpecificParametersSchema>;

/** Java's month names (calls.md "query year, month name"), as a screen may send them; numbers are taken too. */
export const MONTH_NAMES = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
] as const;

/** A month as a number 1-12 or by name (case-insensitive): the number. */
export const monthParamSchema = z.union([
  z.coerce.number().int().min(1).max(12),
  text(TEXT_LIMITS.code)
    .transform((name) => MONTH_NAMES.indexOf(name.toUpperCase() as (typeof MONTH_NAMES)[number]) + 1)
    .pipe(z.number().int().min(1, 'Invalid month').max(12)),
]);

/**
 * The body of a report order, POST /processing/tasks/{reportName} (calls.md §7 "Reports": refs,
 * procedureName, zoneId, format, destinations, reportSpecificParameters). `language` is ours (the
 * schedule's language of product.md §3; default English). Destinations are stored with the order and
 * delivered by the report delivery; the file is in the data log either way.
 */
export const reportOrderBodySchema = z.object({
  refs: list(entityRefSchema, LIST_LIMITS.refs).default([]),
  procedureName: text(TEXT_LIMITS.identifier).optional(),
  zoneId: zoneQuerySchema.shape.zoneId,
  format: reportFormatSchema,
  language: reportLanguageSchema.default('en'),
  destinations: list(taskDestinationSchema, LIST_LIMITS.small).default([]),
  reportSpecificParameters: reportSpecificParametersSchema.default({}),
});
export type ReportOrderBody = z.output<typeof reportOrderBodySchema>;
export type ReportOrderBodyInput = z.input<typeof reportOrderBodySchema>;

/** The query of a report order (calls.md: year, month name, zoneId, procedureName, processingId, refTime). */
export const reportOrderQuerySchema = z.object({
  year: z.coerce.number().int().min(1970).max(2069),
  month: monthParamSchema,
  zoneId: zoneQuerySchema.shape.zoneId,
  procedureName: text(TEXT_LIMITS.identifier).optional(),
  /** The procedure result (e.g. a settlement version) the report reads instead of the newest allowed one. */
  processingId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** The moment master data (the refs' names) are read at; default the period's end. */
  refTime: instantSchema.optional(),
});
export type ReportOrderQuery = z.output<typeof reportOrderQuerySchema>;

/** The answer of a report order: the job making it (GET /jobs/{id}) and its data-log entry. */
export const reportOrderAnswerSchema = z.object({
  reportName: reportNameSchema,
  jobId: z.uuid(),
  dataLogId: z.number().int(),
  fileName: text(TEXT_LIMITS.name),
});
export type ReportOrderAnswer = z.infer<typeof reportOrderAnswerSchema>;

/** A column's unit: energy, money in the area's currency, a price, or none. */
export const REPORT_UNITS = ['kWh', 'currency', 'currency/MWh', 'EUR/MWh', 'degrees', 'records'] as const;
export type ReportUnit = (typeof REPORT_UNITS)[number];

export const REPORT_COLUMN_KINDS = ['text', 'number', 'integer', 'time', 'day'] as const;
export type ReportColumnKind = (typeof REPORT_COLUMN_KINDS)[number];

/** How a report covers time: one month, or a range of months (reportSpecificParameters toYear/toMonth). */
export const REPORT_PERIODS = ['month', 'months'] as const;

const langRecord = <T extends z.ZodType>(value: T) =>
  z.object(Object.fromEntries(REPORT_LOCALES.map((l) => [l, value])) as Record<ReportLanguage, T>);

/** One report as GET /domain/reports lists it: what a screen needs to offer its order form. */
export const reportDescriptionSchema = z.object({
  name: reportNameSchema,
  family: text(TEXT_LIMITS.identifier),
  title: serverText(TEXT_LIMITS.name),
  period: z.enum(REPORT_PERIODS),
  refs: list(
    z.object({ kind: z.enum(REPORT_REF_KINDS), required: z.boolean(), many: z.boolean() }),
    REPORT_REF_KINDS.length,
  ),
  /** The report's own parameters (reportSpecificParameters), by name, with whether each is required. */
  parameters: list(z.object({ name: text(TEXT_LIMITS.identifier), required: z.boolean() }), LIST_LIMITS.small),
  /** The result statuses the report reads for this user (calls.md §4); empty for reports of raw data. */
  statuses: list(z.enum(PROCEDURE_RESULT_STATUSES), PROCEDURE_RESULT_STATUSES.length),
  formats: list(reportFormatSchema, REPORT_FORMATS.length),
  roles: list(roleSchema, 10),
  columns: list(
    z.object({
      key: text(TEXT_LIMITS.identifier),
      kind: z.enum(REPORT_COLUMN_KINDS),
      unit: z.enum(REPORT_UNITS).nullable(),
      header: serverText(TEXT_LIMITS.name),
    }),
    LIST_LIMITS.small,
  ),
});
export type ReportDescription = z.infer<typeof reportDescriptionSchema>;

export const reportListQuerySchema = z.object({ locale: reportLanguageSchema.default('en') });
export const reportParamSchema = z.object({ report: reportNameSchema });

/** GET /domain/reports/{report}: the report's texts in every language ("answer locales"). */
export const reportLocalesSchema = z.object({
  name: reportNameSchema,
  locales: langRecord(
    z.object({
      title: serverText(TEXT_LIMITS.name),
      columns: z.record(text(TEXT_LIMITS.identifier), serverText(TEXT_LIMITS.name)),
    }),
  ),
});
export type ReportLocales = z.infer<typeof reportLocalesSchema>;

/**
 * POST /processing/tasks/{procedure} serves both readings of calls.md §7 on one path: a procedure's
 * task (the month's run) and a report order (its `{reportName}`, with a `format`). The one
 * declaration (calls/procedure-tasks.ts) takes the union of their fields; the route decides by the
 * name and the format (a name that is both, `settlement`, is a report when a format is sent) and
 * then holds the body to the chosen reading (reportOrderBodySchema, or a task without report fields).
 */
export const taskOrReportBodySchema = procedureTaskBodySchema.extend({
  procedureName: text(TEXT_LIMITS.identifier).optional(),
  zoneId: zoneQuerySchema.shape.zoneId,
  format: reportFormatSchema.optional(),
  language: reportLanguageSchema.optional(),
  reportSpecificParameters: reportSpecificParametersSchema.optional(),
});
export type TaskOrReportBody = z.output<typeof taskOrReportBodySchema>;

export const taskOrReportQuerySchema = procedureTaskQuerySchema.extend(reportOrderQuerySchema.shape);
export type TaskOrReportQuery = z.output<typeof taskOrReportQuerySchema>;

/** The path's `{procedure}`: a procedure's name or a report's. */
export const taskOrReportParamSchema = z.object({
  procedure: z.enum([...new Set<string>([...PROCEDURE_NAMES, ...REPORT_NAMES])] as [string, ...string[]]),
});
