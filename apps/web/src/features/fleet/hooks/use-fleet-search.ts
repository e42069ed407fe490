import { z } from 'zod';
import {
  FLEET_SEARCH_MODES,
  PAGE_SIZES,
  PAGINATION_OPTIONS,
  type FleetFilter,
  type FleetSearchMode,
} from '@railwatt/contracts';
import { urlParams, useUrlSearch } from '../../../lib/use-url-search';

const { list, text, day } = urlParams;

/**
 * The overview's state in the URL (STYLE.md §5): filters, page (1-based here; sent zero-based)
 * and size. Anything unreadable falls back to its default instead of breaking the screen.
 */
export const fleetSearchSchema = z.object({
  mode: z.enum(FLEET_SEARCH_MODES).optional().catch(undefined),
  evn: text,
  vkm: text,
  nvr: text,
  description: text,
  name: text,
  types: list,
  owners: list,
  statuses: list,
  emsType: text,
  emsId: text,
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).catch(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGINATION_OPTIONS as readonly number[]).includes(n))
    .catch(PAGE_SIZES.fleet)
    .default(PAGE_SIZES.fleet),
});
export type FleetSearch = z.infer<typeof fleetSearchSchema>;
export type FleetFilterFields = Omit<FleetSearch, 'page' | 'size' | 'mode'>;

export const EMPTY_FILTERS: FleetFilterFields = {
  evn: undefined,
  vkm: undefined,
  nvr: undefined,
  description: undefined,
  name: undefined,
  types: undefined,
  owners: undefined,
  statuses: undefined,
  emsType: undefined,
  emsId: undefined,
  from: undefined,
  to: undefined,
};

/**
 * The body of POST /domain/fleet for a URL state. Days are turned into a range by `toRange` (midnight
 * in the area's zone; an empty side is open).
 */
export function toFleetFilter(
  search: FleetSearch,
  mode: FleetSearchMode,
  toRange: (from: string | undefined, to: string | undefined) => { start: string; end: string },
): FleetFilter {
  const nonEmpty = <T>(v: T[] | undefined) => (v && v.length > 0 ? v : undefined);
  return {
    searchMode: mode,
    evn: search.evn || undefined,
    vkm: search.vkm || undefined,
    nvr: search.nvr || undefined,
    description: search.description || undefined,
    tractionUnitName: search.name || undefined,
    emsType: search.emsType || undefined,
    emsId: search.emsId || undefined,
    tractionUnitTypes: nonEmpty(search.types),
    owners: nonEmpty(search.owners),
    statuses: nonEmpty(search.statuses),
    includeInactive: true,
    timeRange: search.from || search.to ? toRange(search.from, search.to) : undefined,
    sortBy: 'evn',
    descendingOrder: false,
  };
}

export function useFleetSearch() {
  return useUrlSearch(fleetSearchSchema);
}
