import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The page a user last had open, and in which area. */
export interface LastVisit {
  /** The area's id (AreaOption.uuid). */
  areaId: string;
  /** Path and query string, as the router had them. */
  path: string;
}

interface LastVisitState {
  /** By username: several people may use one browser. */
  visits: Record<string, LastVisit>;
  remember(username: string, visit: LastVisit): void;
}

/** The key in local storage. */
export const LAST_VISIT_STORAGE_KEY = 'railwatt.lastVisit';

/**
 * Where each user was, kept in local storage across sign-ins (issue 18 item 1: "a returning user finds
 * the area and page they left"). Not an area-scoped store: an area switch does not reset it, a switch
 * is itself a visit. app/last-visit.ts decides whether the page may be opened again.
 */
export const useLastVisitStore = create<LastVisitState>()(
  persist(
    (set) => ({
      visits: {},
      remember: (username, visit) => set((state) => ({ visits: { ...state.visits, [username]: visit } })),
    }),
    {
      name: LAST_VISIT_STORAGE_KEY,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state) => ({ visits: state.visits }),
    },
  ),
);
