import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Parameter overview texts (locales/<lng>/parameters.json, top-level key `parameters`). */
export function useParametersT() {
  return useNamespaceT('parameters');
}
