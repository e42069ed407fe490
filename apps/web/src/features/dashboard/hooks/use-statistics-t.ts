import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Dashboard statistics texts (locales/<lng>/statistics.json, top-level key `statistics`). */
export function useStatisticsT() {
  return useNamespaceT('statistics');
}
