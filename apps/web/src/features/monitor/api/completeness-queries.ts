import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { statisticsCalls } from '@railwatt/contracts';
import { api } from '../../../lib/api';

export const completenessKeys = {
  all: ['completeness'] as const,
  list: (area: string, threshold: number) => [...completenessKeys.all, area, threshold] as const,
};

/** GET /statistics/completenessverification/tractionunits for a threshold in hours (24 or more). */
export const completenessQuery = (area: string, threshold: number) =>
  queryOptions({
    queryKey: completenessKeys.list(area, threshold),
    queryFn: ({ signal }) =>
      api.call(statisticsCalls.completenessTractionUnits, { query: { threshold }, signal, key: 'completeness' }),
    placeholderData: keepPreviousData,
  });
