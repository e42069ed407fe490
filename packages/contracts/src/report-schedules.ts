import { z } from 'zod';
import { entityRefSchema } from './domain/entity.js';
import { deliveryDestinationEntrySchema, deliveryDestinationViewSchema } from './deliveries.js';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from './limits.js';
import { isSchedulable } from './report-schedule-names.js';
import {
  reportFormatSchema,
  reportLanguageSchema,
  reportNameSchema,
  reportSpecificParametersSchema,
} from './reports.js';

/**
 * Report schedules (issue 20 item 4; product.md §3 "Report schedule", calls.md §3 "Report schedule
 * (as entered)", §7 GET/POST /processing/scheduledreports, POST .../with-credentials, DELETE .../{id}).
 * A schedule names a report with its refs and parameters, when it runs (frequency, local time in the
 * area's zone, day of week or month, and how long after the period's end), the format and language,
 * the correction flag, and one destination (contracts deliveries.ts). Each run is a "Scheduled
 * report" data-log entry made like an ordered one, as the schedule's owner.
 */

/** product.md §3 "frequency (daily, weekly, monthly)". */
export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const SCHEDULE_LIMITS = {
  /** Days after the period's end before it is reported (a month at most). */
  daysAfterPeriod: 31,
  /** Months after the period's end (a year at most). */
  monthsAfterPeriod: 12,
} as const;

/** The schedule's messages: calls.md §5 for the name, the form rule 'The {field} field is required' for the rest. */
export const SCHEDULE_MESSAGES = {
  nameExists: 'The schedule report name already exists.',
  dayOfWeekRequired: 'The day of week field is required',
  dayOfMonthRequired: 'The day of month field is required',
  passwordRequired: 'The password field is required',
  timeFormat: 'The time field format is invalid',
  notSchedulable: 'This report is not scheduled: order it on its order page',
  passwordOnPlainSave: 'A password is sent with /processing/scheduledreports/with-credentials',
  oneMonth: 'A schedule reports one period: toYear and toMonth are not taken',
} as const;

/** HH:MM, 00:00 to 23:59, on the area's wall clock. */
export const SCHEDULE_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * POST /processing/scheduledreports (and .../with-credentials): a new schedule, or with `id` a
 * change of one. dayOfWeek is 1 Monday to 7 Sunday (weekly); dayOfMonth 1 to 31 (monthly; a month
 * shorter than the day runs on its last day). The period a run reports is the last whole month that
 * ended at least monthsAfterPeriod months and daysAfterPeriod days before the run.
 */
export const reportScheduleBodySchema = z
  .object({
    id: z.uuid().optional(),
    name: text(TEXT_LIMITS.name).trim().min(1, 'The name field is required'),
    reportName: reportNameSchema.refine(isSchedulable, SCHEDULE_MESSAGES.notSchedulable),
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    time: text(5).regex(SCHEDULE_TIME, SCHEDULE_MESSAGES.timeFormat),
    dayOfWeek: z.number().int().min(1).max(7).nullable().default(null),
    dayOfMonth: z.number().int().min(1).max(31).nullable().default(null),
    daysAfterPeriod: z.number().int().min(0).max(SCHEDULE_LIMITS.daysAfterPeriod).default(0),
    monthsAfterPeriod: z.number().int().min(0).max(SCHEDULE_LIMITS.monthsAfterPeriod).default(0),
    format: reportFormatSchema,
    language: reportLanguageSchema.default('en'),
    /**
     * Our reading of the correction flag: the schedule reports the figures corrections are made on,
     * approved settlement versions only (not a result that is still a success awaiting approval).
     * A report of raw data reads no result, and the flag changes nothing there.
     */
    correction: z.boolean().default(false),
    refs: list(entityRefSchema, LIST_LIMITS.refs).default([]),
    reportSpecificParameters: reportSpecificParametersSchema.default({}),
    destination: deliveryDestinationEntrySchema,
  })
  .superRefine((body, ctx) => {
    if (body.frequency === 'weekly' && body.dayOfWeek === null)
      ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: SCHEDULE_MESSAGES.dayOfWeekRequired });
    if (body.frequency === 'monthly' && body.dayOfMonth === null)
      ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: SCHEDULE_MESSAGES.dayOfMonthRequired });
  });
export type ReportScheduleBody = z.output<typeof reportScheduleBodySchema>;
export type ReportScheduleBodyInput = z.input<typeof reportScheduleBodySchema>;

/** A schedule as answered: its destination without the password (hasPassword says whether one is kept). */
export const reportScheduleSchema = z.object({
  id: z.uuid(),
  name: serverText(TEXT_LIMITS.name),
  reportName: reportNameSchema,
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  time: serverText(5),
  dayOfWeek: z.number().int().nullable(),
  dayOfMonth: z.number().int().nullable(),
  daysAfterPeriod: z.number().int(),
  monthsAfterPeriod: z.number().int(),
  format: reportFormatSchema,
  language: reportLanguageSchema,
  correction: z.boolean(),
  refs: list(entityRefSchema, LIST_LIMITS.refs),
  reportSpecificParameters: reportSpecificParametersSchema,
  destination: deliveryDestinationViewSchema,
  /** Who the schedule runs as (its creator): the report is made with this user's roles and organisations. */
  owner: serverText(TEXT_LIMITS.identifier),
  nextRunAt: serverText(TEXT_LIMITS.code),
  lastRunAt: serverText(TEXT_LIMITS.code).nullable(),
  /** The data-log entry of the last run. */
  lastDataLogId: z.number().int().nullable(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

/** GET /processing/scheduledreports: the area's schedules (of one report with `reportName`). */
export const reportScheduleListQuerySchema = z.object({ reportName: reportNameSchema.optional() });
export const reportScheduleIdParamSchema = z.object({ id: z.uuid() });
