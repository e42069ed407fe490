import { useMemo } from 'react';
import { excelCalls, POLICIES, policyAdmits } from '@railwatt/contracts';
import { dayRangeInZone } from '../../../components/ui/set-status-dialog';
import { useMarketStore } from '../../../lib/stores/market-store';

/** Europe/Oslo is the fallback when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

/**
 * What the area screens need of the selected area: its time zone and what the user may do (courtesy;
 * the server decides). Infrastructure kinds are written by the roles with the Administration section
 * (the server's per-entity policy), which is the administrationWrite policy.
 */
export function useAreaContext() {
  const roles = useMarketStore((s) => s.rolesInArea);
  const areaKind = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  return useMemo(
    () => ({
      timeZone,
      canWrite: policyAdmits(POLICIES.administrationWrite, roles, areaKind),
      canExport: policyAdmits(excelCalls.domainExport.access, roles, areaKind),
      toRange: (from: string | null | undefined, to: string | null | undefined) => dayRangeInZone(from, to, timeZone),
    }),
    [roles, areaKind, timeZone],
  );
}
