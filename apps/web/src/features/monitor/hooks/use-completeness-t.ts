import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Completeness verification texts (locales/<lng>/completeness.json, top-level key `completeness`). */
export function useCompletenessT() {
  return useNamespaceT('completeness');
}
