import { useTranslation } from 'react-i18next';
import type { Translate } from '../../../lib/errors';

/**
 * Fleet texts live under the top-level key `fleet` (locales/<lng>/fleet.json), so `t('overview.title')`
 * reads 'fleet.overview.title'. `tRoot` reads unprefixed keys such as 'api_error_code.<code>'.
 */
export function useFleetT() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'fleet' });
  const tRoot: Translate = (key, options) => i18n.t(key, options ?? {});
  return { t, tRoot };
}
