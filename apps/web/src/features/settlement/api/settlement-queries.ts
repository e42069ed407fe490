import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import {
  domainCalls,
  PAGE_SIZES,
  procedureTaskCalls,
  processingCalls,
  settlementCalls,
  TENANT_ZONE_HEADER,
  UNDER_WAY_STATUSES,
  type ProcedureResult,
  type SettlementBaseVerificationQuery,
  type SettlementCategory,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** A calendar month of the area, as the settlement calls take it. */
export interface SettlementMonth {
  year: number;
  month: number;
}

/** The month's [start, end) as instants in the area's zone (settlement-month.ts monthRange). */
export interface MonthRange {
  start: string;
  end: string;
}

export interface HourlyQuery extends SettlementMonth {
  organisation: string;
  priceArea: string;
  category: SettlementCategory;
}

export interface RecordsQuery {
  organisation: string;
  gridArea: string;
  hourStart: string;
}

export interface SettlementResultsQuery extends SettlementMonth {
  range: MonthRange;
  timeZone: string;
  /** The TPA settlement's versions (the tpa- twin page) or the plain ones. */
  tpa: boolean;
}

/** Query keys of the settlement screens, narrowest last (STYLE.md §4). */
export const settlementKeys = {
  all: ['settlement'] as const,
  baseVerification: (query: SettlementBaseVerificationQuery) =>
    [...settlementKeys.all, 'base-verification', query] as const,
  balance: (query: SettlementBaseVerificationQuery) => [...settlementKeys.all, 'balance', query] as const,
  hourly: (query: HourlyQuery) => [...settlementKeys.all, 'hourly', query] as const,
  records: (query: RecordsQuery) => [...settlementKeys.all, 'records', query] as const,
  eusaOptions: (range: MonthRange) => [...settlementKeys.all, 'eusa-options', range] as const,
  results: () => [...settlementKeys.all, 'results'] as const,
  resultList: (query: SettlementResultsQuery) => [...settlementKeys.results(), query] as const,
  lines: (procedureResultId: number) => [...settlementKeys.all, 'lines', procedureResultId] as const,
  pricesApproved: (month: SettlementMonth, timeZone: string) =>
    [...settlementKeys.all, 'prices-approved', month, timeZone] as const,
};

/** GET /timeseries/settlement/settlementbaseverification: per organisation and price area. */
export const baseVerificationQuery = (query: SettlementBaseVerificationQuery) =>
  queryOptions({
    queryKey: settlementKeys.baseVerification(query),
    queryFn: ({ signal }) =>
      api.call(settlementCalls.baseVerification, { query, signal, key: 'settlement-base-verification' }),
    placeholderData: keepPreviousData,
  });

/** GET .../settlementbaseverification/balance: supply against its parts, per price area. */
export const balanceQuery = (query: SettlementBaseVerificationQuery) =>
  queryOptions({
    queryKey: settlementKeys.balance(query),
    queryFn: ({ signal }) => api.call(settlementCalls.balance, { query, signal, key: 'settlement-balance' }),
    placeholderData: keepPreviousData,
  });

/** GET /timeseries/settlement/hourly: the hourly values behind one figure of the verification table. */
export const hourlyQuery = (query: HourlyQuery) =>
  queryOptions({
    queryKey: settlementKeys.hourly(query),
    queryFn: ({ signal }) =>
      api.call(settlementCalls.hourly, {
        query: {
          startYear: query.year,
          startMonth: query.month,
          organisation: query.organisation,
          priceArea: query.priceArea,
          category: query.category,
        },
        signal,
      }),
  });

/** GET /timeseries/settlement/records: the CEBD records behind one hour of an organisation in a grid area. */
export const recordsQuery = (query: RecordsQuery) =>
  queryOptions({
    queryKey: settlementKeys.records(query),
    queryFn: ({ signal }) => api.call(settlementCalls.records, { query, signal }),
  });

/** GET /domain/infrastructure/options/eusa: the energy use settlement areas valid in the month. */
export const eusaOptionsQuery = (range: MonthRange) =>
  queryOptions({
    queryKey: settlementKeys.eusaOptions(range),
    queryFn: ({ signal }) => api.call(domainCalls.infrastructureOptionsEusa, { query: range, signal }),
    staleTime: 5 * 60_000,
  });

const isUnderWay = (result: Pick<ProcedureResult, 'status'>) => UNDER_WAY_STATUSES.includes(result.status);

/** How often the list is asked again while one of its results is under way: the throttle's pace. */
const LIVE_INTERVAL_MS = 1_000;

/**
 * The month's settlement results (calls.md §9 "settlement lookup page 0, size 1000, sorted by
 * execution start descending"), through the process log's findBy with the month as the observation
 * range and the screen's zone in Current-Tenant-ZoneId. The caller throttles month changes
 * (SETTLEMENT_THROTTLE_MS); while a result is under way it is followed at the same pace.
 */
export const settlementResultsQuery = (query: SettlementResultsQuery) =>
  queryOptions({
    queryKey: settlementKeys.resultList(query),
    queryFn: ({ signal }) =>
      api.call(processingCalls.findBy, {
        query: {
          procedureName: 'settlement',
          page: 0,
          size: PAGE_SIZES.lookup,
          sortBy: 'executeStartTime',
          descendingOrder: true,
        },
        body: { observationTimeRange: query.range, tpa: query.tpa },
        headers: { [TENANT_ZONE_HEADER]: query.timeZone },
        signal,
        key: 'settlement-results',
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.content.some(isUnderWay) ? LIVE_INTERVAL_MS : false),
    meta: { liveRefresh: true },
  });

/**
 * GET /timeseries/settlement/lines: one settlement result's lines per organisation and price area.
 * The result's status is part of the key: a result followed while it runs is read again when it
 * finishes (its days write their lines as they go), and after a verdict.
 */
export const settlementLinesQuery = (procedureResultId: number, status: string) =>
  queryOptions({
    queryKey: [...settlementKeys.lines(procedureResultId), status],
    queryFn: ({ signal }) =>
      api.call(settlementCalls.lines, { query: { procedureResultId }, signal, key: 'settlement-lines' }),
  });

/**
 * Whether prices and supply of the month are approved (POST /eventlog/procedure-result/exists for an
 * approved price-and-supply result in the month, any entity): product.md §4 "Settlement page warns
 * when prices and supply for the month are not approved".
 */
/**
 * Whether the month's prices and supply are approved: the newest finished price-and-supply result
 * of the month (POST /eventlog/procedure-result/findLatest, success or approved) is the approved one.
 * price-and-supply rewrites the month's prices each run, so an older approved result does not count
 * once a newer run has replaced its figures. No result at all: not approved.
 */
export const pricesApprovedQuery = (month: SettlementMonth, range: MonthRange, timeZone: string) =>
  queryOptions({
    queryKey: settlementKeys.pricesApproved(month, timeZone),
    queryFn: async ({ signal }) => {
      const latest = await api.call(processingCalls.findLatest, {
        query: {
          procedureName: 'price-and-supply',
          interval: `${range.start},${range.end}`,
          status: 'success,approved',
        },
        body: [],
        headers: { [TENANT_ZONE_HEADER]: timeZone },
        signal,
      });
      return latest?.status === 'approved';
    },
  });

/** A mutation on a settlement result that then asks for the list it changed (`listKey`) again. */
function useResultMutation<V, R>(listKey: QueryKey, mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}

/**
 * POST /eventlog/procedure-result/approve-procedure-results. An earlier approved result of the same
 * scope has the same period, so it is in the same month's list: that list is the narrowest key.
 */
export const useApproveSettlement = (listKey: QueryKey) =>
  useResultMutation(listKey, ({ id, markCorrected }: { id: number; markCorrected: boolean }) =>
    api.call(procedureTaskCalls.approve, {
      query: { updatePreviouslyApprovedToCorrected: markCorrected },
      body: [id],
    }),
  );

/** POST /eventlog/procedure-result/saveProcedureResult/save: unapprove (success) or invalidate (invalid). */
export const useSaveSettlementStatus = (listKey: QueryKey) =>
  useResultMutation(listKey, ({ id, status }: { id: number; status: 'success' | 'invalid' }) =>
    api.call(procedureTaskCalls.save, { body: { id, status } }),
  );

/** POST /processing/tasks/set-settlement-procedure-to-failure/{procedureResultId}. */
export const useSetSettlementToFailure = (listKey: QueryKey) =>
  useResultMutation(listKey, (id: number) =>
    api.call(procedureTaskCalls.setSettlementToFailure, { params: { procedureResultId: id }, body: {} }),
  );

/**
 * POST /processing/settlement/run for the month (the area's zone): a new settlement result, a new
 * version of the month's figures; the list follows it live while it runs.
 */
/** POST /processing/settlement/run for the month; tpa: a version of the TPA settlement (its own chain). */
export const useRunSettlement = (listKey: QueryKey) =>
  useResultMutation(listKey, ({ range, timeZone, tpa }: { range: MonthRange; timeZone: string; tpa: boolean }) =>
    api.call(processingCalls.run, {
      params: { procedure: 'settlement' },
      query: { zoneId: timeZone, ...(tpa ? { tpa: true } : {}) },
      body: { timeRange: range, refs: [] },
    }),
  );

/**
 * Approves the month's prices and supply from the settlement page (the page warns until they are,
 * product.md §4): the newest successful price-and-supply result overlapping the month (findBy),
 * approved with any earlier approved one of the same scope marked corrected. Answers its id and the
 * approve call's answer (who approved), or null when the month has none to approve.
 */
export const useApprovePrices = (month: SettlementMonth, range: MonthRange, timeZone: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<{ id: number; answer: ProcedureResult[] } | null> => {
      const found = await api.call(processingCalls.findBy, {
        query: {
          procedureName: 'price-and-supply',
          page: 0,
          size: 1,
          sortBy: 'executeStartTime',
          descendingOrder: true,
        },
        body: { observationTimeRange: range, statuses: ['success'] },
        headers: { [TENANT_ZONE_HEADER]: timeZone },
      });
      const newest = found.content[0];
      if (!newest) return null;
      const answer = await api.call(procedureTaskCalls.approve, {
        query: { updatePreviouslyApprovedToCorrected: true },
        body: [newest.id],
      });
      return { id: newest.id, answer };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settlementKeys.pricesApproved(month, timeZone) }),
  });
};

/**
 * GET /timeseries/settlement/warnings (issue 18 item 5): what the result's figures lack or no longer
 * match. Keyed under the result's lines with its status, so a finished run or a verdict reads it again.
 */
export const settlementWarningsQuery = (procedureResultId: number, status: string) =>
  queryOptions({
    queryKey: [...settlementKeys.lines(procedureResultId), 'warnings', status],
    queryFn: ({ signal }) =>
      api.call(settlementCalls.warnings, { query: { procedureResultId }, signal, key: 'settlement-warnings' }),
  });

/**
 * POST /processing/price-and-supply/run for the month (the area's zone): prices and supply again after
 * a corrected supply file. The run's result is the answer; the settlement screens read again once it
 * is started (its figures change day by day while it runs).
 */
export const useRunPriceAndSupply = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ range, timeZone }: { range: MonthRange; timeZone: string }) =>
      api.call(processingCalls.run, {
        params: { procedure: 'price-and-supply' },
        query: { zoneId: timeZone },
        body: { timeRange: range, refs: [] },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settlementKeys.all }),
  });
};
