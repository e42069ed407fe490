import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EVENTS_EXPORT_FILE,
  PAGE_SIZES,
  procedureTaskCalls,
  processingCalls,
  TENANT_ZONE_HEADER,
  UNDER_WAY_STATUSES,
  type ProcedureName,
  type ProcedureResult,
  type ProcedureResultPage,
  type MeteredEnergyAggregation,
  type ProcedureRunRequest,
  type ProcessingEventFilter,
  type ProcessLogFilter,
  PROCEDURE_RESULT_SORT_COLUMNS,
  PROCESSING_EVENT_SORT_COLUMNS,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

/** How often a screen showing a run under way asks again (its progress, then its outcome). */
export const LIVE_INTERVAL_MS = 1_000;

export const isUnderWay = (result: Pick<ProcedureResult, 'status'>) => UNDER_WAY_STATUSES.includes(result.status);

/** Query keys of the Monitor's process screens, narrowest last. */
export const processingKeys = {
  all: ['processing'] as const,
  processes: () => [...processingKeys.all, 'processes'] as const,
  results: () => [...processingKeys.all, 'results'] as const,
  resultList: (query: ProcessLogQuery) => [...processingKeys.results(), 'list', query] as const,
  result: (id: number) => [...processingKeys.results(), 'one', id] as const,
  statuses: (procedure: ProcedureName) => [...processingKeys.all, 'statuses', procedure] as const,
  events: () => [...processingKeys.all, 'events'] as const,
  eventList: (query: EventQuery) => [...processingKeys.events(), 'list', query] as const,
  eventCount: (filter: ProcessingEventFilter) => [...processingKeys.events(), 'count', filter] as const,
  eventSummary: (filter: ProcessingEventFilter) => [...processingKeys.events(), 'summary', filter] as const,
  errorCodes: (process?: string) => [...processingKeys.all, 'error-codes', process ?? null] as const,
  settled: (id: number) => [...processingKeys.results(), 'settled', id] as const,
};

/** The allocation steps: their results allocate metered energy to payers (allocated_energy_hourly). */
export const ALLOCATING_PROCEDURES: readonly ProcedureName[] = [
  'combine',
  'shunting-and-stabling',
  'energy-outside-train-run',
];

/**
 * The energy allocated per paying organisation over a result's period (POST
 * /eventlog/procedure-result/settledConsumption/findByProcedureResultIds): what the result view
 * shows of an allocation step's outcome.
 */
export const settledConsumptionQuery = (id: number) =>
  queryOptions({
    queryKey: processingKeys.settled(id),
    queryFn: ({ signal }) => api.call(procedureTaskCalls.settledConsumption, { body: [id], signal }),
  });

/** The process log's call: the zone the screen shows travels in Current-Tenant-ZoneId (calls.md §7). */
const zoneHeader = (timeZone: string) => ({ [TENANT_ZONE_HEADER]: timeZone });

export const processesQuery = () =>
  queryOptions({
    queryKey: processingKeys.processes(),
    queryFn: ({ signal }) => api.call(processingCalls.processes, { signal }),
    staleTime: 5 * 60_000,
  });

export interface ProcessLogQuery {
  procedureName: ProcedureName;
  page: number;
  size: number;
  sortBy: (typeof PROCEDURE_RESULT_SORT_COLUMNS)[number];
  descendingOrder: boolean;
  filter: ProcessLogFilter;
  timeZone: string;
}

/**
 * POST /eventlog/procedure-result/findBy (zero-based page). While a row on the page is under way the
 * page is asked again every second, so its progress and outcome appear without a reload.
 */
export const procedureResultsQuery = (query: ProcessLogQuery) =>
  queryOptions({
    queryKey: processingKeys.resultList(query),
    queryFn: ({ signal }): Promise<ProcedureResultPage> =>
      api.call(processingCalls.findBy, {
        query: {
          procedureName: query.procedureName,
          page: query.page,
          size: query.size,
          sortBy: query.sortBy,
          descendingOrder: query.descendingOrder,
        },
        body: query.filter,
        headers: zoneHeader(query.timeZone),
        signal,
        key: 'process-log',
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.content.some(isUnderWay) ? LIVE_INTERVAL_MS : false),
    // Its re-reads do not raise the loading overlay (components/ui/loading-overlay.tsx).
    meta: { liveRefresh: true },
  });

/**
 * One procedure result (the result view, the run page) through the log's call and its `ids` filter;
 * followed every second while it is under way. The result's own progress is followed rather than
 * GET /jobs/{id}: the audit roles and the consumer read results but not jobs, and the result's
 * status is the outcome the log shows.
 */
export const procedureResultQuery = (id: number, timeZone: string) =>
  queryOptions({
    queryKey: processingKeys.result(id),
    queryFn: async ({ signal }): Promise<ProcedureResult | null> => {
      const page = await api.call(processingCalls.findBy, {
        query: { page: 0, size: 1 },
        body: { ids: [id] },
        headers: zoneHeader(timeZone),
        signal,
      });
      return page.content[0] ?? null;
    },
    refetchInterval: (q) => (q.state.data && isUnderWay(q.state.data) ? LIVE_INTERVAL_MS : false),
    meta: { liveRefresh: true },
  });

/**
 * The area's runs under way, of every procedure (the processes page): asked again every second while
 * one runs, else every ten seconds, so a run started elsewhere appears and its days move.
 */
export const runsUnderWayQuery = (timeZone: string) =>
  queryOptions({
    queryKey: [...processingKeys.results(), 'under-way'] as const,
    queryFn: ({ signal }): Promise<ProcedureResultPage> =>
      api.call(processingCalls.findBy, {
        query: { page: 0, size: PAGE_SIZES.lookup, sortBy: 'executeStartTime', descendingOrder: true },
        body: { statuses: [...UNDER_WAY_STATUSES] },
        headers: zoneHeader(timeZone),
        signal,
      }),
    refetchInterval: (q) => ((q.state.data?.content.length ?? 0) > 0 ? LIVE_INTERVAL_MS : 10 * LIVE_INTERVAL_MS),
    meta: { liveRefresh: true },
  });

export const resultStatusesQuery = (procedure: ProcedureName) =>
  queryOptions({
    queryKey: processingKeys.statuses(procedure),
    queryFn: ({ signal }) => api.call(processingCalls.statuses, { query: { procedureName: procedure }, signal }),
    staleTime: 5 * 60_000,
  });

export interface EventQuery {
  page: number;
  size: number;
  sortBy: (typeof PROCESSING_EVENT_SORT_COLUMNS)[number];
  descendingOrder: boolean;
  filter: ProcessingEventFilter;
}

/** POST /eventlog/processingevent (zero-based page; the monitor pages by 50). */
export const eventsQuery = (query: EventQuery, key = 'processing-events') =>
  queryOptions({
    queryKey: processingKeys.eventList(query),
    queryFn: ({ signal }) =>
      api.call(processingCalls.events, {
        query: { page: query.page, size: query.size, sortBy: query.sortBy, descendingOrder: query.descendingOrder },
        body: query.filter,
        signal,
        key,
      }),
    placeholderData: keepPreviousData,
  });

export const eventCountQuery = (filter: ProcessingEventFilter) =>
  queryOptions({
    queryKey: processingKeys.eventCount(filter),
    queryFn: ({ signal }) => api.call(processingCalls.eventCount, { body: filter, signal, key: 'event-count' }),
  });

/** POST /eventlog/processingevent/summary: the filter's events by code and severity, most first. */
export const eventSummaryQuery = (filter: ProcessingEventFilter) =>
  queryOptions({
    queryKey: processingKeys.eventSummary(filter),
    queryFn: ({ signal }) => api.call(processingCalls.eventSummary, { body: filter, signal }),
    placeholderData: keepPreviousData,
  });

/** The area's error codes, or one process's (GET .../errorcodes, .../{process}/errorcodesByProcess). */
export const errorCodesQuery = (process?: string) =>
  queryOptions({
    queryKey: processingKeys.errorCodes(process),
    queryFn: ({ signal }) =>
      process
        ? api.call(processingCalls.errorCodesByProcess, { params: { process }, signal })
        : api.call(processingCalls.errorCodes, { signal }),
    staleTime: 60_000,
  });

/** events.xlsx of the filter, in the monitor's sort, saved under the server's name. */
export async function exportEvents(query: Pick<EventQuery, 'sortBy' | 'descendingOrder' | 'filter'>): Promise<void> {
  const blob = await api.call(processingCalls.eventExport, {
    query: { sortBy: query.sortBy, descendingOrder: query.descendingOrder },
    body: query.filter,
  });
  saveBlob(blob, EVENTS_EXPORT_FILE);
}

/** POST /processing/{procedure}/run in the screen's zone; the answer is the queued result. */
export function useRunProcedure(procedure: ProcedureName, timeZone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // `aggregation` is metered-energy-aggregation's extra param (FIRST or SECOND), sent in the query.
    mutationFn: ({ aggregation, ...request }: ProcedureRunRequest & { aggregation?: MeteredEnergyAggregation }) =>
      api.call(processingCalls.run, {
        params: { procedure },
        query: { zoneId: timeZone, ...(aggregation ? { aggregation } : {}) },
        body: request,
      }),
    onSuccess: (result) => {
      queryClient.setQueryData(processingKeys.result(result.id), result);
      void queryClient.invalidateQueries({ queryKey: [...processingKeys.results(), 'list'] });
    },
  });
}

/** POST /processing/{procedure}/rerun for one row; the log is asked again (the rows change status). */
export function useRerun(procedure: ProcedureName, timeZone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.call(processingCalls.rerun, { params: { procedure }, query: { zoneId: timeZone }, body: { rows: [id] } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: processingKeys.results() }),
  });
}
