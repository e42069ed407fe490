import type { AreaKind, Role } from '@railwatt/contracts';
import type { AppRoute } from '../lib/routes';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { USER_REGISTRATION_PATH } from '../lib/stores/area-selection';
import { routePermits } from './guards';
import { isEnabled, routeExists, routeTable } from './route-table';
import { onlyRoles, resolveRedirect } from './redirects';

export interface MenuItem {
  to: string;
  labelKey: string;
}

/**
 * The main menu: the dashboard and the sections that carry a menu entry and that the user may open in the selected area.
 * Visibility is the guard's own rule for the section (its roles, which come from the named access
 * policies of the calls where the section makes calls, its areas and its extra check), so the menu
 * never offers a link the guard refuses; menu.test.ts follows every link through redirects and guards.
 */
export function menuItems(
  roles: readonly Role[],
  area: AreaKind | null,
  routes: readonly AppRoute[] = routeTable,
  market: MarketSnapshot = { areas: [], area: null, timeZone: null, rolesInArea: [...roles] },
): MenuItem[] {
  if (area === null) return [];
  const checkPasses = (r: AppRoute) => (r.check ? r.check(roles, null, r.path!, market) : true);
  // A redirect rule that moves the user from the section's own path (the dashboard of a
  // vehicle-keeper-only user) would make the entry a second logo to elsewhere: not offered.
  const stays = (r: AppRoute) => {
    const redirect = resolveRedirect({ pathname: r.path!, roles, area, exists: (p) => routeExists(p, routes) });
    return redirect === null || redirect === r.path;
  };
  return routes
    .filter((r) => r.menu && isEnabled(r) && routePermits(r, roles, area) && checkPasses(r) && stays(r))
    .sort((a, b) => a.menu!.order - b.menu!.order)
    .map((r) => ({ to: r.path!, labelKey: r.menu!.labelKey }));
}

/**
 * The logo target (product.md §2): /fleet/overview for vehicle-keeper-only users, user registration in
 * the administration area (it has no dashboard), else the dashboard home.
 */
export function logoTarget(roles: readonly Role[], area: AreaKind | null): string {
  if (onlyRoles(roles, ['vehicle-keeper'])) return '/fleet/overview';
  if (area === 'administration') return USER_REGISTRATION_PATH;
  return '/';
}
