import { z } from 'zod';
import {
  DATA_LOG_SORT_COLUMNS,
  dayStartInZone,
  PAGE_SIZES,
  PAGINATION_OPTIONS,
  type DataLogFilterInput,
} from '@railwatt/contracts';
import { urlParams, useUrlSearch } from '../../../lib/use-url-search';

const { list, text, day } = urlParams;

/**
 * The data log's state in the URL (STYLE.md §5): filters, sort, page (1-based here, zero-based on the
 * wire) and size (100 by default, calls.md §9). Anything unreadable falls back to its default.
 */
export const dataLogSearchSchema = z.object({
  from: day,
  to: day,
  observation: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .catch(undefined),
  obsFrom: day,
  obsTo: day,
  types: list,
  statuses: list,
  consumptionPoints: list,
  entityIdentifiers: list,
  fileName: text,
  baseId: text,
  trainId: text,
  sortBy: z.enum(DATA_LOG_SORT_COLUMNS).catch('logTimeStamp').default('logTimeStamp'),
  desc: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .catch(true)
    .default(true),
  page: z.coerce.number().int().min(1).catch(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGINATION_OPTIONS as readonly number[]).includes(n))
    .catch(PAGE_SIZES.dataLog)
    .default(PAGE_SIZES.dataLog),
});
export type DataLogSearch = z.infer<typeof dataLogSearchSchema>;
export type DataLogFilterFields = Omit<DataLogSearch, 'page' | 'size' | 'sortBy' | 'desc'>;

export const EMPTY_FILTERS: DataLogFilterFields = {
  from: undefined,
  to: undefined,
  observation: undefined,
  obsFrom: undefined,
  obsTo: undefined,
  types: undefined,
  statuses: undefined,
  consumptionPoints: undefined,
  entityIdentifiers: undefined,
  fileName: undefined,
  baseId: undefined,
  trainId: undefined,
};

/** The day after 'YYYY-MM-DD' (a "to" day is inclusive: the range ends at the next midnight). */
const nextDay = (value: string): string => {
  const d = new Date(`${value}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/** Days as a "start,end" pair of instants in the area's zone; an empty side is the product's bound. */
function dayRange(from: string | undefined, to: string | undefined, timeZone: string): string[] | undefined {
  if (!from && !to) return undefined;
  return [
    from ? dayStartInZone(from, timeZone) : '1970-01-01T00:00:00Z',
    to ? dayStartInZone(nextDay(to), timeZone) : '2070-01-01T00:00:00Z',
  ];
}

const joined = (values: string[] | undefined) => (values && values.length > 0 ? values.join(',') : undefined);

/** GET /eventlog/datalog's query for a URL state (calls.md §3). */
export function toDataLogQuery(search: DataLogSearch, timeZone: string): DataLogFilterInput {
  const observationTimeRange = dayRange(search.obsFrom, search.obsTo, timeZone);
  const processingTimeRange = dayRange(search.from, search.to, timeZone);
  return {
    page: search.page - 1,
    size: search.size,
    sortBy: search.sortBy,
    descendingOrder: search.desc,
    processingTimeRange: processingTimeRange?.join(','),
    observationTimeRange: observationTimeRange?.join(','),
    enableObservationTime: Boolean(search.observation && observationTimeRange),
    typeName: joined(search.types),
    status: joined(search.statuses),
    consumptionPoints: joined(search.consumptionPoints),
    entityIdentifiers: joined(search.entityIdentifiers),
    fileName: search.fileName || undefined,
    baseId: search.baseId || undefined,
    trainId: search.trainId || undefined,
  };
}

export function useDataLogSearch() {
  return useUrlSearch(dataLogSearchSchema);
}
