import { useMemo } from 'react';
import { useMarketStore } from '../../../lib/stores/market-store';
import { dayRangeInZone, dayStartInZone } from '../../../components/ui/set-status-dialog';
import { fleetAccess, type FleetAccess } from './fleet-access';

/** Europe/Oslo is the fallback when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

export interface FleetContext extends FleetAccess {
  timeZone: string;
  /** A calendar day as the instant it starts in the area's time zone. */
  toInstant: (day: string) => string;
  /**
   * Days typed without a time (a form's or filter's from and to) as a range in the area's time zone;
   * an empty end is open-ended (the fixed end of time, not midnight of 2070 in the zone).
   */
  toRange: (from: string | null | undefined, to: string | null | undefined) => { start: string; end: string };
}

/** What the fleet screens need of the selected area: its time zone and what the user may do there. */
export function useFleetContext(): FleetContext {
  const roles = useMarketStore((s) => s.rolesInArea);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  return useMemo(
    () => ({
      ...fleetAccess(roles),
      timeZone,
      toInstant: (day: string) => dayStartInZone(day, timeZone),
      toRange: (from: string | null | undefined, to: string | null | undefined) => dayRangeInZone(from, to, timeZone),
    }),
    [roles, timeZone],
  );
}
