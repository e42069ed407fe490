import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Fleet texts (locales/<lng>/fleet.json, top-level key `fleet`): `t('overview.title')` reads 'fleet.overview.title'. */
export function useFleetT() {
  const { t, tRoot } = useNamespaceT('fleet');
  return { t, tRoot };
}
