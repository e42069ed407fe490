import { useNamespaceT } from '../../../lib/use-namespace-t';

/**
 * Administration texts live under the top-level key `administration`
 * (locales/<lng>/administration.json), so `t('users.overview.title')` reads
 * 'administration.users.overview.title'.
 */
export function useAdminT() {
  const { t, tRoot } = useNamespaceT('administration');
  return { t, tRoot };
}
