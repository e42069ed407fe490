import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Settlement texts (locales/<lng>/settlement.json, top-level key `settlement`): `t('process.approve')`. */
export function useSettlementT() {
  return useNamespaceT('settlement');
}
