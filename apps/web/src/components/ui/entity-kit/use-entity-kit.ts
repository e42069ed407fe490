import { useMemo } from 'react';
import { ADMINISTRATOR_ONLY, type EntityFormKind } from '@railwatt/contracts';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { useMarketStore } from '../../../lib/stores/market-store';
import { dayRangeInZone } from '../set-status-dialog';
import { mayWrite, type EntitySection } from './section';

/** Europe/Oslo when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

/**
 * Entity kit texts live under the top-level key `entityKit` (locales/<lng>/entities.json); kind
 * labels under `entities.<kind>` (routes.json). `tRoot` reads unprefixed keys ('api_error_code.<code>').
 */
export function useEntityKitT() {
  const { t, tRoot, i18n } = useNamespaceT('entityKit');
  /** 'supply metering point' -> 'Supply metering point' (labels are lower case for use in sentences). */
  const kindLabel = (kind: EntityFormKind | string) => {
    const label = i18n.t(`entities.${kind}`, { defaultValue: kind });
    return label.charAt(0).toUpperCase() + label.slice(1);
  };
  return { t, tRoot, kindLabel };
}

export interface EntityKitContext {
  timeZone: string;
  canWrite: boolean;
  /** product.md §6: fields flagged for_erex_admin_only are shown and writable only for the erex-administrator. */
  isAdministrator: boolean;
  /** Days (YYYY-MM-DD) as a range in the area's zone; an empty end is open-ended. */
  toRange: (from: string | null | undefined, to: string | null | undefined) => { start: string; end: string };
}

export function useEntityKitContext(section: EntitySection): EntityKitContext {
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  return useMemo(
    () => ({
      timeZone,
      canWrite: mayWrite(section, roles, area),
      isAdministrator: roles.some((r) => ADMINISTRATOR_ONLY.includes(r)),
      toRange: (from: string | null | undefined, to: string | null | undefined) => dayRangeInZone(from, to, timeZone),
    }),
    [section, roles, area, timeZone],
  );
}
