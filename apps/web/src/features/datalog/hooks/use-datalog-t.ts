import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Data-log texts (locales/<lng>/datalog.json, top-level key `datalog`): `t('status.ok')` reads 'datalog.status.ok'. */
export function useDataLogT() {
  const { t, tRoot } = useNamespaceT('datalog');
  return { t, tRoot };
}
