import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EXPORT_FILE_NAMES,
  sftpIntegrationCalls as calls,
  type InterfaceExportRequest,
  type InterfaceRouteCreateInput,
  type CallBodyInput,
  type InterfaceRouteFilterInput,
  type InterfaceRouteTest,
  type InterfaceRouteUpdateInput,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

/**
 * SFTP interface routes (contracts calls/sftp-integration.ts): query keys, queries and mutations of
 * the interface pages. Keys narrowest last, so a save invalidates the lists and the one route.
 */
export interface InterfaceListParams extends InterfaceRouteFilterInput {
  /** 1-based in the UI; sent zero-based. */
  page: number;
  size: number;
}

export const interfaceKeys = {
  all: ['interfaces'] as const,
  lists: () => [...interfaceKeys.all, 'list'] as const,
  list: (params: InterfaceListParams) => [...interfaceKeys.lists(), params] as const,
  ids: () => [...interfaceKeys.all, 'ids'] as const,
  types: () => [...interfaceKeys.all, 'types'] as const,
  route: (routeId: string) => [...interfaceKeys.all, 'route', routeId.toLowerCase()] as const,
  history: (routeId: string) => [...interfaceKeys.all, 'history', routeId.toLowerCase()] as const,
};

export const interfaceListQuery = ({ page, size, ...filter }: InterfaceListParams) =>
  queryOptions({
    queryKey: interfaceKeys.list({ page, size, ...filter }),
    queryFn: ({ signal }) =>
      api.call(calls.filteredRoutes, {
        query: { ...filter, page: page - 1, size },
        signal,
        key: 'interface-overview',
      }),
    placeholderData: keepPreviousData,
  });

export const interfaceRouteIdsQuery = () =>
  queryOptions({
    queryKey: interfaceKeys.ids(),
    queryFn: ({ signal }) => api.call(calls.routeIds, { signal }),
  });

export const interfaceTypesQuery = () =>
  queryOptions({
    queryKey: interfaceKeys.types(),
    queryFn: ({ signal }) => api.call(calls.interfaceTypes, { signal }),
    staleTime: Infinity,
  });

export const interfaceRouteQuery = (routeId: string) =>
  queryOptions({
    queryKey: interfaceKeys.route(routeId),
    queryFn: ({ signal }) => api.call(calls.routeByRouteId, { query: { routeId }, signal }),
  });

export const interfaceHistoryQuery = (routeId: string) =>
  queryOptions({
    queryKey: interfaceKeys.history(routeId),
    queryFn: ({ signal }) => api.call(calls.routeHistory, { query: { routeId }, signal }),
  });

function useInvalidateRoutes() {
  const queryClient = useQueryClient();
  return (routeIds: readonly string[]) => {
    void queryClient.invalidateQueries({ queryKey: interfaceKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: interfaceKeys.ids() });
    for (const id of routeIds) {
      void queryClient.invalidateQueries({ queryKey: interfaceKeys.route(id) });
      void queryClient.invalidateQueries({ queryKey: interfaceKeys.history(id) });
    }
  };
}

/** create-route or update-route, by whether the route is new. */
export function useSaveInterfaceRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (
      input: { create: true; route: InterfaceRouteCreateInput } | { create: false; route: InterfaceRouteUpdateInput },
    ) =>
      input.create
        ? api.call(calls.createRoute, { body: input.route })
        : api.call(calls.updateRoute, { body: input.route }),
    onSuccess: (saved) => invalidate([saved.routeId]),
  });
}

export function useEnableDisableRoutes() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (request: CallBodyInput<typeof calls.enableDisable>) =>
      api.call(calls.enableDisable, { body: request }),
    onSuccess: (_routes, request) => invalidate(request.routeIds),
  });
}

/** Test connection (our addition): never changes anything, so nothing to invalidate. */
export function useTestConnection() {
  return useMutation({
    mutationFn: (request: InterfaceRouteTest) => api.call(calls.testConnection, { body: request }),
  });
}

/** InterfaceConfigurations.xlsx of the selected routes, or of what the filters select. */
export async function exportInterfaceConfigurations(request: InterfaceExportRequest) {
  saveBlob(await api.call(calls.exportConfigurations, { body: request }), EXPORT_FILE_NAMES.interfaceConfigurations);
}
