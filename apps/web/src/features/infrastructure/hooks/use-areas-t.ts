import { useNamespaceT } from '../../../lib/use-namespace-t';

/**
 * Area screen texts live under the top-level key `areas` (locales/<lng>/areas.json, which also holds
 * the map's `map` key); `tRoot` also reads 'map.area_types.<kind>'.
 */
export function useAreasT() {
  const { t, tRoot } = useNamespaceT('areas');
  return { t, tRoot };
}
