import type { AreaKind, Role } from '@railwatt/contracts';
import type { AppRoute } from '../lib/routes';
import type { MarketSnapshot } from '../lib/stores/market-store';

export const UNAUTHORIZED_PATH = '/unauthorized';

/** The roles a route admits in an area (a per-area list replaces the general one). */
export function allowedRoles(route: AppRoute, area: AreaKind | null): readonly Role[] {
  return (area ? route.areaRoles?.[area] : undefined) ?? route.roles;
}

/**
 * One route's own rule (product.md §2): one allowed role among the user's functions in the selected
 * area and, where defined, a matching area name. A default child that only redirects passes: its
 * target is checked when it is reached.
 */
export function routePermits(route: AppRoute, roles: readonly Role[], area: AreaKind | null): boolean {
  if (route.ignoreAuth) return true;
  if (route.redirectTo && !route.component) return true;
  const allowed = allowedRoles(route, area);
  if (!roles.some((r) => allowed.includes(r))) return false;
  if (route.areas && (area === null || !route.areas.includes(area))) return false;
  return true;
}

export interface AccessInput {
  /** The matched routes, outermost first. */
  chain: readonly AppRoute[];
  authenticated: boolean;
  roles: readonly Role[];
  area: AreaKind | null;
  from: string | null;
  to: string;
  market: MarketSnapshot;
}

/**
 * The guard: routes flagged to ignore authentication pass; an unauthenticated user is unauthorized;
 * otherwise every route of the chain must permit the user, and each route's extra check (which
 * defaults to allow) must agree. Returns null to allow, else the path to go to.
 */
export function guardRedirect(input: AccessInput): string | null {
  if (input.chain.some((r) => r.ignoreAuth)) return null;
  if (!input.authenticated) return UNAUTHORIZED_PATH;
  for (const route of input.chain) {
    if (!routePermits(route, input.roles, input.area)) return UNAUTHORIZED_PATH;
    const check = route.check ?? (() => true);
    if (!check(input.roles, input.from, input.to, input.market)) return UNAUTHORIZED_PATH;
  }
  return null;
}
