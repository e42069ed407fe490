import { useNamespaceT } from '../../../../lib/use-namespace-t';

/** Interface texts live under the top-level key `interfaces` (locales/<lng>/interfaces.json). */
export function useInterfacesT() {
  const { t, tRoot } = useNamespaceT('interfaces');
  return { t, tRoot };
}
