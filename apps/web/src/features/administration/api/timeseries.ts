import { queryOptions, useMutation } from '@tanstack/react-query';
import { timeSeriesCalls } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Time-series calls of the administration screens (contracts calls/timeseries.ts). */
export const timeSeriesKeys = {
  all: ['timeseries'] as const,
  types: () => [...timeSeriesKeys.all, 'types'] as const,
};

/** GET /timeseries/types: the reference table of the import page. */
export const timeSeriesTypesQuery = () =>
  queryOptions({
    queryKey: timeSeriesKeys.types(),
    queryFn: ({ signal }) => api.call(timeSeriesCalls.types, { signal }),
    staleTime: 5 * 60_000,
  });

/** GET /integration/prices/import-prices: fetch the waiting Nord Pool files, a job per file. */
export function useImportPrices() {
  return useMutation({ mutationFn: () => api.call(timeSeriesCalls.importPrices) });
}
