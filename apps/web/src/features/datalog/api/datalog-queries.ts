import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { dataLogCalls, type DataLogFilterInput, type MasterDataLogPage } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Query keys of the data logs, narrowest last. */
export const dataLogKeys = {
  all: ['datalog'] as const,
  lists: () => [...dataLogKeys.all, 'list'] as const,
  list: (query: DataLogFilterInput) => [...dataLogKeys.lists(), query] as const,
  types: () => [...dataLogKeys.all, 'types'] as const,
  statuses: () => [...dataLogKeys.all, 'statuses'] as const,
  masterData: () => ['masterdata-datalog'] as const,
  masterDataList: (query: MasterDataQuery) => [...dataLogKeys.masterData(), 'list', query] as const,
};

/** GET /eventlog/datalog with the wire query (zero-based page). Latest wins (keyed). */
export const dataLogListQuery = (query: DataLogFilterInput) =>
  queryOptions({
    queryKey: dataLogKeys.list(query),
    queryFn: ({ signal }) => api.call(dataLogCalls.list, { query, signal, key: 'datalog-list' }),
    placeholderData: keepPreviousData,
  });

export const dataLogTypesQuery = () =>
  queryOptions({
    queryKey: dataLogKeys.types(),
    queryFn: ({ signal }) => api.call(dataLogCalls.types, { signal }),
    staleTime: 60_000,
  });

export const dataLogStatusesQuery = () =>
  queryOptions({
    queryKey: dataLogKeys.statuses(),
    queryFn: ({ signal }) => api.call(dataLogCalls.statuses, { signal }),
    staleTime: 60_000,
  });

export interface MasterDataQuery {
  page: number;
  size: number;
  typeName?: string[];
  status?: string[];
  fileName?: string;
}

/** GET /masterdata/datalog (zero-based page on the wire). */
export const masterDataLogQuery = (query: MasterDataQuery) =>
  queryOptions({
    queryKey: dataLogKeys.masterDataList(query),
    queryFn: ({ signal }): Promise<MasterDataLogPage> =>
      api.call(dataLogCalls.masterDataList, {
        query: {
          page: query.page,
          size: query.size,
          typeName: query.typeName?.length ? query.typeName.join(',') : undefined,
          status: query.status?.length ? query.status.join(',') : undefined,
          fileName: query.fileName || undefined,
        },
        signal,
        key: 'masterdata-datalog-list',
      }),
    placeholderData: keepPreviousData,
  });

export const masterDataTypesQuery = () =>
  queryOptions({
    queryKey: [...dataLogKeys.masterData(), 'types'],
    queryFn: ({ signal }) => api.call(dataLogCalls.masterDataTypes, { signal }),
    staleTime: 60_000,
  });

export const masterDataStatusesQuery = () =>
  queryOptions({
    queryKey: [...dataLogKeys.masterData(), 'statuses'],
    queryFn: ({ signal }) => api.call(dataLogCalls.masterDataStatuses, { signal }),
    staleTime: 60_000,
  });
