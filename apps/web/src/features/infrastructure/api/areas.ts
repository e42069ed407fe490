import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  domainCalls,
  ENTITY_KINDS,
  toEntityKind,
  type InfrastructureAreaKind,
  type SaveEntity,
  type StatusChangeItem,
  type StatusChangeRequest,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Query keys of the area screens, narrowest last (a mutation invalidates what it touched). */
export const areaKeys = {
  all: ['areas'] as const,
  lists: () => [...areaKeys.all, 'list'] as const,
  list: (filter: AreaListFilter) => [...areaKeys.lists(), filter] as const,
  entity: (kind: string, uuid: string) => [...areaKeys.all, 'entity', kind, uuid] as const,
  versions: (kind: string, uuid: string) => [...areaKeys.all, 'versions', kind, uuid] as const,
  minimal: (kind: string) => [...areaKeys.all, 'minimal', kind] as const,
};

export interface AreaListFilter {
  types: InfrastructureAreaKind[];
  active: boolean;
  inactive: boolean;
}

/** GET /domain/fleet/areas with the area type and state toggles (product.md §4 defaults are the caller's). */
export const areasListQuery = (filter: AreaListFilter) =>
  queryOptions({
    queryKey: areaKeys.list(filter),
    queryFn: ({ signal }) =>
      api.call(domainCalls.fleetAreas, {
        query: { areaTypes: filter.types, includeActive: filter.active, includeInactive: filter.inactive },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const areaQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: areaKeys.entity(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.byId, { params: { type: kind, uuid }, signal }),
  });

/** GET /domain/{type}/versions/{uuid}: every segment, superseded ones included. */
export const areaVersionsQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: areaKeys.versions(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.versions, { params: { type: kind, uuid }, signal }),
  });

/** Names of every entity of a kind (parent names in the table, parent options in the form). */
export const minimalAreasQuery = (kind: string) =>
  queryOptions({
    queryKey: areaKeys.minimal(kind),
    queryFn: ({ signal }) =>
      api.call(domainCalls.minimalAll, { params: { type: kind }, query: { includeInactive: true }, signal }),
    staleTime: 60_000,
  });

/** POST /domain/save of one area; the lists and the area itself are what it changes. */
export function useSaveArea() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveEntity) => api.call(domainCalls.save, { body }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: areaKeys.lists() });
      const kind = toEntityKind(saved.type);
      if (kind) {
        void queryClient.invalidateQueries({ queryKey: areaKeys.entity(kind, saved.uuid) });
        void queryClient.invalidateQueries({ queryKey: areaKeys.versions(kind, saved.uuid) });
        void queryClient.invalidateQueries({ queryKey: areaKeys.minimal(kind) });
      }
    },
  });
}

export interface AreaStatusChange extends Omit<StatusChangeRequest, 'type' | 'uuids'> {
  /** The selected areas with their kinds: one POST /domain/status per kind (the call takes one type). */
  areas: { uuid: string; kind: InfrastructureAreaKind }[];
}

/** The set-status dialog over areas of several types: the answers merged into one result. */
export function useAreaStatusChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ areas, ...change }: AreaStatusChange) => {
      const byKind = new Map<InfrastructureAreaKind, string[]>();
      for (const a of areas) byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a.uuid]);
      const items: StatusChangeItem[] = [];
      for (const [kind, uuids] of byKind) {
        const result = await api.call(domainCalls.status, { body: { ...change, type: ENTITY_KINDS[kind], uuids } });
        items.push(...result.items);
      }
      return { success: items.every((i) => !i.error), items };
    },
    onSuccess: (_result, request) => {
      void queryClient.invalidateQueries({ queryKey: areaKeys.lists() });
      for (const a of request.areas)
        void queryClient.invalidateQueries({ queryKey: areaKeys.versions(a.kind, a.uuid) });
    },
  });
}
