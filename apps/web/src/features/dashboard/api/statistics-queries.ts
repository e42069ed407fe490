import { queryOptions } from '@tanstack/react-query';
import { DASHBOARD_DAYS, statisticsCalls } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** How often the dashboard refreshes itself (the manual refresh button refetches at once). */
export const DASHBOARD_REFRESH_MS = 30_000;

/** Query keys of the dashboard's statistics, per area; `all` is what the refresh button refetches. */
export const statisticsKeys = {
  all: ['statistics'] as const,
  area: (area: string) => [...statisticsKeys.all, area] as const,
  categories: (area: string, zone: string) => [...statisticsKeys.area(area), 'categories', zone] as const,
  events: (area: string, zone: string) => [...statisticsKeys.area(area), 'events', zone] as const,
  cebd: (area: string, zone: string) => [...statisticsKeys.area(area), 'cebd', zone] as const,
  queues: (area: string) => [...statisticsKeys.area(area), 'queues'] as const,
  offsetLag: (area: string) => [...statisticsKeys.area(area), 'offset-lag'] as const,
};

/**
 * The dashboard's window, the previous DASHBOARD_DAYS days up to the moment of the request
 * ("start,end" as the contract's timeRange reads it). Computed in the query function, so each
 * refresh moves the window and the key stays stable.
 */
export const previousDays = (now = new Date()): string =>
  `${new Date(now.getTime() - DASHBOARD_DAYS * 86_400_000).toISOString()},${now.toISOString()}`;

const live = { refetchInterval: DASHBOARD_REFRESH_MS, staleTime: 5_000 } as const;

export const dashboardStatisticsQuery = (area: string, zoneId: string) =>
  queryOptions({
    queryKey: statisticsKeys.categories(area, zoneId),
    queryFn: ({ signal }) =>
      api.call(statisticsCalls.dashboardStatistics, { query: { timeRange: previousDays(), zoneId }, signal }),
    ...live,
  });

export const dashboardEventsQuery = (area: string, zoneId: string) =>
  queryOptions({
    queryKey: statisticsKeys.events(area, zoneId),
    queryFn: ({ signal }) =>
      api.call(statisticsCalls.dashboardEvents, { query: { timeRange: previousDays(), zoneId }, signal }),
    ...live,
  });

export const cebdStatisticsQuery = (area: string, zoneId: string) =>
  queryOptions({
    queryKey: statisticsKeys.cebd(area, zoneId),
    queryFn: ({ signal }) => api.call(statisticsCalls.cebd, { query: { zoneId }, signal }),
    ...live,
  });

export const queueSizeQuery = (area: string) =>
  queryOptions({
    queryKey: statisticsKeys.queues(area),
    queryFn: ({ signal }) => api.call(statisticsCalls.queueSize, { signal }),
    ...live,
  });

export const offsetLagQuery = (area: string) =>
  queryOptions({
    queryKey: statisticsKeys.offsetLag(area),
    queryFn: ({ signal }) => api.call(statisticsCalls.offsetLag, { signal }),
    ...live,
  });
