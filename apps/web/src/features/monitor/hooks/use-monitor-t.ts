import { useNamespaceT } from '../../../lib/use-namespace-t';

/** Monitor process texts (locales/<lng>/monitor.json, top-level key `monitor`): `t('log.title')` reads 'monitor.log.title'. */
export function useMonitorT() {
  const { t, tRoot, i18n } = useNamespaceT('monitor');
  return { t, tRoot, i18n };
}
