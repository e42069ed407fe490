import { AREA_SWITCH_RERENDER_MS, type MarketFunction, type Role } from '@railwatt/contracts';
import { create } from 'zustand';
import { AREA_STORAGE_KEY, landingAfterSwitch, rolesForArea, type AreaOption } from './area-selection';

export interface MarketState {
  /** Areas offered in the selector. */
  areas: AreaOption[];
  area: AreaOption | null;
  timeZone: string | null;
  /** Every market function of the user (all areas). */
  functions: MarketFunction[];
  /** The user's functions in the selected area. */
  rolesInArea: Role[];
  /** False during the 10 ms after a switch, so every screen mounts afresh for the new area. */
  rendered: boolean;
  /**
   * Where a switch is heading (the new area's landing) until the router is there: the page that was
   * open belongs to the old area, and the guard must not judge it with the new area's functions
   * (it would send the user to /unauthorized on the way, e.g. when choosing Master Data).
   */
  landing: string | null;
  setAreas(areas: AreaOption[], functions: MarketFunction[]): void;
  applyArea(area: AreaOption): void;
  setRendered(rendered: boolean): void;
  setLanding(landing: string | null): void;
}

/** What guards and extra checks may read of the market store. */
export type MarketSnapshot = Pick<MarketState, 'areas' | 'area' | 'timeZone' | 'rolesInArea'>;

export const useMarketStore = create<MarketState>()((set, get) => ({
  areas: [],
  area: null,
  timeZone: null,
  functions: [],
  rolesInArea: [],
  rendered: true,
  landing: null,
  setAreas: (areas, functions) => set({ areas, functions }),
  applyArea: (area) => set({ area, timeZone: area.timeZone, rolesInArea: rolesForArea(get().functions, area) }),
  setRendered: (rendered) => set({ rendered }),
  setLanding: (landing) => set({ landing }),
}));

export interface AreaStorage {
  session: Pick<Storage, 'getItem' | 'setItem'>;
  local: Pick<Storage, 'getItem' | 'setItem'>;
}

const browserStorage = (): AreaStorage => ({ session: window.sessionStorage, local: window.localStorage });

export function storedAreaIds(storage: AreaStorage = browserStorage()): {
  session: string | null;
  local: string | null;
} {
  return { session: storage.session.getItem(AREA_STORAGE_KEY), local: storage.local.getItem(AREA_STORAGE_KEY) };
}

export function persistArea(id: string, storage: AreaStorage = browserStorage()): void {
  storage.local.setItem(AREA_STORAGE_KEY, id);
  storage.session.setItem(AREA_STORAGE_KEY, id);
}

/** The initial selection at load: set and remember the area, no token refresh and no navigation. */
export function selectInitialArea(area: AreaOption, storage?: AreaStorage): void {
  useMarketStore.getState().applyArea(area);
  persistArea(area.uuid, storage);
}

export interface AreaSwitchDeps {
  /** Refreshes the access token (auth.signinSilent when it is close to expiry). */
  refreshToken(): Promise<unknown>;
  /** Aborts the API client's in-flight requests. */
  abortAll(): void;
  /** Resets every registered store and the query cache. */
  resetStores(): void;
  navigate(path: string): void;
  wait?(ms: number): Promise<void>;
  storage?: AreaStorage;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Switching area, in the order of product.md §1: refresh the token; set the area, its time zone and the
 * user's functions there; store the id in local and session storage; abort in-flight requests; reset
 * all stores; re-render after 10 ms; navigate to the landing of the new area. A failed token refresh
 * stops the switch (the old area stays) and is logged.
 */
export async function switchArea(area: AreaOption, deps: AreaSwitchDeps): Promise<boolean> {
  try {
    await deps.refreshToken();
  } catch (error) {
    console.error('session failed or expired: token refresh before area switch failed', error);
    return false;
  }
  const store = useMarketStore.getState();
  store.applyArea(area);
  const landing = landingAfterSwitch(area.kind, useMarketStore.getState().rolesInArea);
  store.setLanding(landing);
  persistArea(area.uuid, deps.storage);
  deps.abortAll();
  deps.resetStores();
  store.setRendered(false);
  await (deps.wait ?? sleep)(AREA_SWITCH_RERENDER_MS);
  useMarketStore.getState().setRendered(true);
  deps.navigate(landing);
  return true;
}
