import { useMarketStore } from '../../../lib/stores/market-store';
import { dayStartInZone } from '../../../components/ui/set-status-dialog';
import { fleetAccess, type FleetAccess } from './fleet-access';

/** Europe/Oslo is the fallback when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

export interface FleetContext extends FleetAccess {
  timeZone: string;
  /** A calendar day as the instant it starts in the area's time zone. */
  toInstant: (day: string) => string;
}

/** What the fleet screens need of the selected area: its time zone and what the user may do there. */
export function useFleetContext(): FleetContext {
  const roles = useMarketStore((s) => s.rolesInArea);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  return { ...fleetAccess(roles), timeZone, toInstant: (day) => dayStartInZone(day, timeZone) };
}
