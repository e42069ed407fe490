import { useTranslation } from 'react-i18next';
import type { Translate } from './errors';

/**
 * A feature's texts live under one top-level key (locales/<lng>/<feature>.json), so with
 * `keyPrefix: 'fleet'` `t('overview.title')` reads 'fleet.overview.title'. `tRoot` reads unprefixed
 * keys such as 'api_error_code.<code>'. Each feature's use<Feature>T() is this with its prefix.
 */
export function useNamespaceT(keyPrefix: string) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix });
  const tRoot: Translate = (key, options) => i18n.t(key, options ?? {});
  return { t, tRoot, i18n };
}
