import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  parameterOverviewCalls,
  type ParameterInvalidate,
  type ParameterSave,
  type TimeSeriesTypeName,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** The months [start, end) a read asks for, as instants in the area's zone. */
export interface ParameterRange {
  start: string;
  end: string;
}

/** Query keys of the parameter overview, narrowest last: a write refreshes its type's tables in the area. */
export const parameterOverviewKeys = {
  all: ['parameter-overview'] as const,
  types: () => [...parameterOverviewKeys.all, 'types'] as const,
  ofType: (area: string, typeName: TimeSeriesTypeName) => [...parameterOverviewKeys.all, area, typeName] as const,
  table: (area: string, typeName: TimeSeriesTypeName, range: ParameterRange) =>
    [...parameterOverviewKeys.ofType(area, typeName), range.start, range.end] as const,
};

/** GET /timeseries/parameterOverview/types: the types (the same in every area; they change with a release). */
export const parameterTypesQuery = () =>
  queryOptions({
    queryKey: parameterOverviewKeys.types(),
    queryFn: ({ signal }) => api.call(parameterOverviewCalls.types, { signal }),
    staleTime: 5 * 60_000,
  });

/** GET /timeseries/parameterOverview: every entity of the type's kind with its value per month of the range. */
export const parameterOverviewQuery = (area: string, typeName: TimeSeriesTypeName, range: ParameterRange) =>
  queryOptions({
    queryKey: parameterOverviewKeys.table(area, typeName, range),
    queryFn: ({ signal }) =>
      api.call(parameterOverviewCalls.overview, {
        query: { typeName, start: range.start, end: range.end },
        signal,
        key: 'parameter-overview',
      }),
    // A new range of the same type keeps the shown table until its answer; another type's rows never
    // stand in (a selection of them would be written under the new type).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === typeName ? previous : undefined),
  });

/** POST /timeseries/parameterOverview: the value for every month of the range of each ref. */
export function useSaveParameter(area: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParameterSave) => api.call(parameterOverviewCalls.save, { body }),
    onSuccess: (_answer, body) =>
      queryClient.invalidateQueries({ queryKey: parameterOverviewKeys.ofType(area, body.typeName) }),
  });
}

/** POST /timeseries/parameterOverview/invalidate: removes the values of the range of each ref. */
export function useInvalidateParameter(area: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParameterInvalidate) => api.call(parameterOverviewCalls.invalidate, { body }),
    onSuccess: (_answer, body) =>
      queryClient.invalidateQueries({ queryKey: parameterOverviewKeys.ofType(area, body.typeName) }),
  });
}
