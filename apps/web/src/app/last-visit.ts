import type { AreaKind, Role } from '@railwatt/contracts';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { useLastVisitStore, type LastVisit } from '../lib/stores/last-visit-store';
import { guardRedirect, UNAUTHORIZED_PATH } from './guards';
import { resolveRedirect } from './redirects';
import { routeChain, routeExists } from './route-table';

/** Pages not worth remembering: the status pages. */
const NOT_REMEMBERED = new Set([UNAUTHORIZED_PATH, '/notfound']);

/**
 * Is this a page to remember as the last one (a real route, not a status page)? The landing `/` is
 * remembered too, so that a user who went back to the dashboard and reloads stays there.
 */
export const worthReturning = (pathname: string): boolean => !NOT_REMEMBERED.has(pathname) && routeExists(pathname);

/**
 * Would the shell open this page for the user as it stands now: no redirect rule moves them on and
 * the guard admits them (roles, area, extra check)? A page left in another role or before a change of
 * rights is not reopened.
 */
export function reopens(path: string, roles: readonly Role[], area: AreaKind, market: MarketSnapshot): boolean {
  const pathname = path.split('?')[0]!;
  // The landing itself is where the user already is: nothing to go back to.
  if (pathname === '/' || !worthReturning(pathname)) return false;
  const redirect = resolveRedirect({ pathname, roles, area, exists: (p) => routeExists(p) });
  if (redirect !== null && redirect !== pathname) return false;
  const chain = routeChain(pathname);
  return guardRedirect({ chain, authenticated: true, roles, area, from: null, to: pathname, market }) === null;
}

/** The page to return to on landing in `areaId`: the one last left there, when it still opens; else null. */
export function returnPath(
  visit: LastVisit | undefined,
  areaId: string,
  roles: readonly Role[],
  area: AreaKind,
  market: MarketSnapshot,
): string | null {
  if (!visit || visit.areaId !== areaId) return null;
  return reopens(visit.path, roles, area, market) ? visit.path : null;
}

/** The area a user last worked in (the initial area's "local storage" value, per user). */
export const rememberedAreaId = (username: string): string | null =>
  (username && useLastVisitStore.getState().visits[username]?.areaId) || null;

/**
 * Issue 18 item 1: "a returning user finds the area and page they left". Remembers every page the
 * user opens (with its area) and, once per load, when the first page the shell settles on is the
 * landing `/`, answers the page to go back to instead (the initial area is the remembered one, see
 * use-area-bootstrap.ts). `settled`: an area is selected and no switch is under way.
 */
export function useLastVisit(username: string, settled: boolean, market: MarketSnapshot): string | null {
  const location = useLocation();
  const decided = useRef(false);
  const areaId = market.area?.uuid ?? null;
  useEffect(() => {
    if (!settled || !areaId || !username) return;
    decided.current = true;
    if (!worthReturning(location.pathname)) return;
    useLastVisitStore.getState().remember(username, { areaId, path: `${location.pathname}${location.search}` });
  }, [settled, areaId, username, location.pathname, location.search]);

  if (decided.current || !settled || !market.area || !username || location.pathname !== '/') return null;
  const visit = useLastVisitStore.getState().visits[username];
  return returnPath(visit, market.area.uuid, market.rolesInArea, market.area.kind, market);
}
