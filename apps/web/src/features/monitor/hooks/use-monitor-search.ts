import { z } from 'zod';
import {
  dayRangeInZone,
  PAGE_SIZES,
  PAGINATION_OPTIONS,
  PROCEDURE_RESULT_SORT_COLUMNS,
  PROCEDURE_RESULT_STATUSES,
  PROCESSING_EVENT_SORT_COLUMNS,
  SEVERITIES,
  type ProcessingEventFilter,
  type ProcessLogFilter,
} from '@railwatt/contracts';
import { urlParams, useUrlSearch } from '../../../lib/use-url-search';

const { list, text, day } = urlParams;

const descending = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .catch(true)
  .default(true);
const page = z.coerce.number().int().min(1).catch(1).default(1);
/** A page size of the pagination options, or the screen's own default (20 for the log, 50 for events). */
const size = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .refine((n) => n === fallback || (PAGINATION_OPTIONS as readonly number[]).includes(n))
    .catch(fallback)
    .default(fallback);
/** A list whose members must be among `allowed` (the rest is dropped: a stale link still opens). */
const listOf = <T extends string>(allowed: readonly T[]) =>
  list.transform((values) => values?.filter((v): v is T => (allowed as readonly string[]).includes(v)));
const positiveId = z.coerce.number().int().positive().optional().catch(undefined);

/**
 * The process log's state in the URL (STYLE.md §5): the filters of calls.md §3 "Process log filter"
 * the log offers, sort, page (1-based here, zero-based on the wire) and size (20, calls.md §9).
 * Offered: processing time and observation days, statuses, user, consumption point, traction units
 * and organisations (with lookups). Not offered: operating day (the same days as the observation
 * range for a run's period), train, traffic category and train profile (no process run so far is
 * limited to them; the call takes them).
 */
export const processLogSearchSchema = z.object({
  from: day,
  to: day,
  obsFrom: day,
  obsTo: day,
  statuses: listOf(PROCEDURE_RESULT_STATUSES),
  user: text,
  cp: text,
  units: list,
  orgs: list,
  sortBy: z.enum(PROCEDURE_RESULT_SORT_COLUMNS).catch('executeStartTime').default('executeStartTime'),
  desc: descending,
  page,
  size: size(PAGE_SIZES.default),
});
export type ProcessLogSearch = z.infer<typeof processLogSearchSchema>;
export type ProcessLogFilterFields = Pick<
  ProcessLogSearch,
  'from' | 'to' | 'obsFrom' | 'obsTo' | 'statuses' | 'user' | 'cp' | 'units' | 'orgs'
>;
export const EMPTY_LOG_FILTERS: Record<keyof ProcessLogFilterFields, undefined> = {
  from: undefined,
  to: undefined,
  obsFrom: undefined,
  obsTo: undefined,
  statuses: undefined,
  user: undefined,
  cp: undefined,
  units: undefined,
  orgs: undefined,
};

/** The day after 'YYYY-MM-DD': a "to" day is inclusive, so the range ends at the next midnight. */
export const nextDay = (value: string): string => {
  const d = new Date(`${value}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/** Inclusive days as instants in the area's zone; nothing when neither side is given. */
export function daysInZone(from: string | undefined, to: string | undefined, timeZone: string) {
  if (!from && !to) return undefined;
  return dayRangeInZone(from, to ? nextDay(to) : undefined, timeZone);
}

const nonEmpty = <T>(values: T[] | undefined) => (values && values.length > 0 ? values : undefined);

/** The findBy body of a URL state (undefined fields are left out of the JSON). */
export function toProcessLogFilter(search: ProcessLogSearch, timeZone: string): ProcessLogFilter {
  return {
    processingTime: daysInZone(search.from, search.to, timeZone),
    observationTimeRange: daysInZone(search.obsFrom, search.obsTo, timeZone),
    statuses: nonEmpty(search.statuses),
    userId: search.user || undefined,
    consumptionPoint: search.cp || undefined,
    tractionUnits: nonEmpty(search.units),
    organisations: nonEmpty(search.orgs),
  };
}

export function useProcessLogSearch() {
  return useUrlSearch(processLogSearchSchema);
}

/**
 * A run's event list in the URL (the run page): page (1-based) and size (50), and the code and
 * severity its summary narrowed it to.
 */
export const runEventsSearchFields = {
  page,
  size: size(PAGE_SIZES.eventMonitor),
  codes: list,
  severities: listOf(SEVERITIES),
};

/**
 * The event monitor's state in the URL: process, error codes, severities, time days, entity and the
 * result whose events are shown (`result`, from the log's "events" link), sort and paging (50).
 */
export const eventSearchSchema = z.object({
  process: text,
  codes: list,
  severities: listOf(SEVERITIES),
  from: day,
  to: day,
  entity: text,
  result: positiveId,
  /** true: the events of days a later run processed again too (the filter's includeSuperseded). */
  superseded: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .catch(undefined),
  sortBy: z.enum(PROCESSING_EVENT_SORT_COLUMNS).catch('time').default('time'),
  desc: descending,
  page,
  size: size(PAGE_SIZES.eventMonitor),
});
export type EventSearch = z.infer<typeof eventSearchSchema>;
export type EventFilterFields = Pick<
  EventSearch,
  'process' | 'codes' | 'severities' | 'from' | 'to' | 'entity' | 'result' | 'superseded'
>;
export const EMPTY_EVENT_FILTERS: Record<keyof EventFilterFields, undefined> = {
  process: undefined,
  codes: undefined,
  severities: undefined,
  from: undefined,
  to: undefined,
  entity: undefined,
  result: undefined,
  superseded: undefined,
};

export function toEventFilter(search: EventFilterFields, timeZone: string): ProcessingEventFilter {
  return {
    processNames: search.process ? [search.process] : undefined,
    errorCodes: nonEmpty(search.codes),
    severities: nonEmpty(search.severities),
    timeRange: daysInZone(search.from, search.to, timeZone),
    entityIdentifier: search.entity || undefined,
    procedureResultIds: search.result ? [search.result] : undefined,
    includeSuperseded: search.superseded || undefined,
  };
}

export function useEventSearch() {
  return useUrlSearch(eventSearchSchema);
}

/** The event view (?id= one event's result, or the same filters as the monitor). */
export const viewSearchSchema = eventSearchSchema.extend({ id: positiveId });
export function useViewSearch() {
  return useUrlSearch(viewSearchSchema);
}
