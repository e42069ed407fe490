import type { AreaKind, Role } from '@railwatt/contracts';
import type { AppRoute } from '../lib/routes';
import { USER_REGISTRATION_PATH } from '../lib/stores/area-selection';
import { routePermits } from './guards';
import { isEnabled, routeTable } from './route-table';
import { onlyRoles } from './redirects';

export interface MenuItem {
  to: string;
  labelKey: string;
}

/**
 * The main menu: the sections that carry a menu entry and that the user may open in the selected area.
 * The visibility table of product.md §2 is the sections' own roles and areas, so menu and guard agree.
 */
export function menuItems(
  roles: readonly Role[],
  area: AreaKind | null,
  routes: readonly AppRoute[] = routeTable,
): MenuItem[] {
  if (area === null) return [];
  return routes
    .filter((r) => r.menu && isEnabled(r) && routePermits(r, roles, area))
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
