import { z } from 'zod';
import { entityRefSchema, instantSchema, timeRangeSchema } from './domain/entity.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';
import { PARAMETER_TYPE_NAMES, type TimeSeriesTypeName } from './timeseries.js';

/**
 * The parameter overview (product.md §2 Monitor "parameter overview (period, date range, value, save,
 * edit, download, remove, hide empty rows)", calls.md §7 /timeseries/parameterOverview; issue 10
 * item 1): monthly parameter values per entity, kept as time series (with their history: a changed
 * or removed value is superseded, never overwritten).
 */
export const parameterTypeNameSchema = z.enum(PARAMETER_TYPE_NAMES as [TimeSeriesTypeName, ...TimeSeriesTypeName[]]);

export const parameterTypeSchema = z.object({
  typeName: parameterTypeNameSchema,
  /** The entity kind a value belongs to (trainprofile, trafficcategory, organisation). */
  refKind: text(TEXT_LIMITS.identifier),
  unit: text(TEXT_LIMITS.code),
  resolution: text(TEXT_LIMITS.code),
});
export type ParameterType = z.infer<typeof parameterTypeSchema>;

/** At most ten years of months in one request. */
export const MAX_PARAMETER_MONTHS = 120;

/** GET /timeseries/parameterOverview (ours: the screen's read): the months of the range in the area's calendar. */
export const parameterOverviewQuerySchema = z.object({
  typeName: parameterTypeNameSchema,
  start: instantSchema,
  end: instantSchema,
});

export const parameterOverviewSchema = z.object({
  /** The months of the range, [start, end) each. */
  periods: list(z.object({ start: instantSchema, end: instantSchema }), MAX_PARAMETER_MONTHS),
  /** Every entity of the type's kind, with its value per period (null: none). */
  rows: list(
    z.object({
      ref: z.object({ uuid: z.uuid(), type: text(TEXT_LIMITS.identifier), name: text(TEXT_LIMITS.name) }),
      values: list(z.number().nullable(), MAX_PARAMETER_MONTHS),
    }),
    LIST_LIMITS.rows,
  ),
});
export type ParameterOverview = z.infer<typeof parameterOverviewSchema>;

/** POST /timeseries/parameterOverview: the value for every month of the range of each ref. */
export const parameterSaveSchema = z.object({
  typeName: parameterTypeNameSchema,
  refs: list(entityRefSchema, LIST_LIMITS.refs).min(1),
  timeRange: timeRangeSchema,
  value: z.number().min(-1e9).max(1e9),
});
export type ParameterSave = z.infer<typeof parameterSaveSchema>;

/** POST /timeseries/parameterOverview/invalidate: removes the values of the range (kept in the history). */
export const parameterInvalidateSchema = parameterSaveSchema.omit({ value: true });
export type ParameterInvalidate = z.infer<typeof parameterInvalidateSchema>;

export const parameterWriteAnswerSchema = z.object({ months: z.number().int(), values: z.number().int() });

/** calls.md §8: the error modal's words when removing fails ({name}: the type). */
export const INVALIDATE_FAILED_MESSAGE = 'Something went wrong when attempting to invalidate {name}';
