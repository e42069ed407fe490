import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { domainCalls, type FleetFilter } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Query keys of the fleet feature, narrowest last so a mutation can invalidate exactly what it touched. */
export const fleetKeys = {
  all: ['fleet'] as const,
  lists: () => [...fleetKeys.all, 'list'] as const,
  list: (filter: FleetFilter, page: number, size: number) => [...fleetKeys.lists(), { filter, page, size }] as const,
  entities: () => [...fleetKeys.all, 'entity'] as const,
  entity: (kind: string, uuid: string) => [...fleetKeys.entities(), kind, uuid] as const,
  versions: (kind: string, uuid: string) => [...fleetKeys.all, 'versions', kind, uuid] as const,
  minimal: (kind: string) => [...fleetKeys.all, 'minimal', kind] as const,
  organisations: () => [...fleetKeys.all, 'organisations'] as const,
  ownerChoices: () => [...fleetKeys.organisations(), 'owner-choices'] as const,
  masterdataUpdates: () => [...fleetKeys.all, 'masterdata-updates'] as const,
};

/** POST /domain/fleet: the page is zero-based on the wire (product.md §9), 1-based in the UI. */
export const fleetListQuery = (filter: FleetFilter, page: number, size: number) =>
  queryOptions({
    queryKey: fleetKeys.list(filter, page, size),
    queryFn: ({ signal }) =>
      api.call(domainCalls.fleet, { query: { page: page - 1, size }, body: filter, signal, key: 'fleet-overview' }),
    placeholderData: keepPreviousData,
  });

export const entityQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: fleetKeys.entity(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.byId, { params: { type: kind, uuid }, signal }),
  });

/** GET /domain/{type}/versions/{uuid}: every segment, superseded ones included. */
export const versionsQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: fleetKeys.versions(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.versions, { params: { type: kind, uuid }, signal }),
  });

export const minimalAllQuery = (kind: string) =>
  queryOptions({
    queryKey: fleetKeys.minimal(kind),
    queryFn: ({ signal }) =>
      api.call(domainCalls.minimalAll, { params: { type: kind }, query: { includeInactive: true }, signal }),
    staleTime: 60_000,
  });

export interface OrganisationOption {
  uuid: string;
  name: string;
}

export const organisationsQuery = () =>
  queryOptions({
    queryKey: fleetKeys.organisations(),
    queryFn: async ({ signal }): Promise<OrganisationOption[]> =>
      api.call(domainCalls.organisations, { query: { includeInactive: true }, signal }),
    staleTime: 60_000,
  });

/**
 * The owners the user may choose for a traction unit (registration owner select, overview owner
 * filter): the server answers its own organisations for a vehicle keeper and all for the others.
 */
export const ownerChoicesQuery = () =>
  queryOptions({
    queryKey: fleetKeys.ownerChoices(),
    queryFn: async ({ signal }): Promise<OrganisationOption[]> =>
      api.call(domainCalls.organisations, { query: { includeInactive: true, ownerChoices: true }, signal }),
    staleTime: 60_000,
  });

/** The latest master-data changes of traction units (latest lastModified first). */
export const masterdataUpdatesQuery = () =>
  queryOptions({
    queryKey: fleetKeys.masterdataUpdates(),
    queryFn: async ({ signal }) => {
      const all = await api.call(domainCalls.all, {
        params: { type: 'tractionunit' },
        query: { includeInactive: true },
        signal,
      });
      return [...all].sort((a, b) => Date.parse(b.lastModified) - Date.parse(a.lastModified));
    },
  });
