import { userCalls } from '@railwatt/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api';
import type { AppAuth } from '../lib/auth/auth';
import { pickInitialArea, toAreaOptions } from '../lib/stores/area-selection';
import { selectInitialArea, storedAreaIds, useMarketStore } from '../lib/stores/market-store';
import { rememberedAreaId } from './last-visit';

/** GET /api/user/settlementareas (no tenant header: it is what the tenant is chosen from). */
export const settlementAreasQuery = {
  queryKey: ['user', 'settlementareas'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.call(userCalls.settlementAreas, { signal }),
  staleTime: Infinity,
};

/** Loads the user's areas into the market store and selects the initial area (product.md §1). */
export function useAreaBootstrap(auth: AppAuth): void {
  const { data } = useQuery(settlementAreasQuery);
  const functions = auth.functions;
  useEffect(() => {
    if (!data) return;
    const options = toAreaOptions(data, functions);
    const store = useMarketStore.getState();
    store.setAreas(options, functions);
    if (store.area) return;
    const { session, local } = storedAreaIds();
    // The user's own last area (app/last-visit.ts) before the browser's: several people may share one.
    const initial = pickInitialArea(options, session, rememberedAreaId(auth.username) ?? local);
    if (initial) selectInitialArea(initial);
  }, [data, functions, auth.username]);
}
