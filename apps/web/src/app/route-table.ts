import { ALL_ROLES } from '@railwatt/contracts';
import { matchRoutes, type RouteObject } from 'react-router';
import { administrationRoutes } from '../features/administration/administration.routes';
import { dashboardRoutes } from '../features/dashboard/dashboard.routes';
import { dataLogScreens } from '../features/datalog/datalog.routes';
import { fleetRoutes } from '../features/fleet/fleet.routes';
import { infrastructureRoutes } from '../features/infrastructure/infrastructure.routes';
import { masterdataRoutes } from '../features/masterdata/masterdata.routes';
import { monitorRoutes } from '../features/monitor/monitor.routes';
import { reportsRoutes } from '../features/reports/reports.routes';
import { settlementRoutes } from '../features/settlement/settlement.routes';
import { joinPath, type AppRoute } from '../lib/routes';
import { NotFoundPage, UnauthorizedPage } from './status-pages';

/**
 * The data log's screens (features/datalog) on the Monitor section's datalog route: the route
 * (roles, areas, variant titles) stays with its section, the screens with their feature, and
 * neither feature imports the other.
 */
function withDataLogScreens(section: AppRoute): AppRoute {
  return {
    ...section,
    children: section.children?.map((child) => {
      if (child.path !== 'datalog') return child;
      const variants = Object.fromEntries(
        Object.entries(child.variants ?? {}).map(([area, variant]) => [
          area,
          { ...variant, ...dataLogScreens.variants[area as keyof typeof dataLogScreens.variants] },
        ]),
      );
      return { ...child, component: dataLogScreens.component, variants };
    }),
  };
}

/**
 * THE route table: every route of product.md §2, declared once. The router (router.tsx), the guards
 * (guards.ts), the redirect rules (redirects.ts), the menu (menu.ts) and the tests all read it.
 */
export const routeTable: readonly AppRoute[] = [
  dashboardRoutes,
  withDataLogScreens(monitorRoutes),
  settlementRoutes,
  fleetRoutes,
  infrastructureRoutes,
  administrationRoutes,
  reportsRoutes,
  ...masterdataRoutes,
  // No authentication needed (product.md §2).
  {
    path: '/unauthorized',
    titleKey: 'routes.unauthorized',
    roles: ALL_ROLES,
    ignoreAuth: true,
    component: UnauthorizedPage,
  },
  // Open to all ten roles.
  { path: '/notfound', titleKey: 'routes.notFound', roles: ALL_ROLES, component: NotFoundPage },
  // A route that matches nothing goes to Not found; the catch-all itself needs no authentication.
  { path: '*', roles: ALL_ROLES, ignoreAuth: true, redirectTo: '/notfound' },
];

export const isEnabled = (route: AppRoute): boolean => route.enabled !== false;

/** Route objects for matching only (no elements); `handle.route` carries the AppRoute. */
function matchTree(routes: readonly AppRoute[]): RouteObject[] {
  return routes
    .filter(isEnabled)
    .map((route) =>
      route.index
        ? { index: true, handle: { route } }
        : { path: route.path, handle: { route }, children: route.children ? matchTree(route.children) : undefined },
    );
}

/** The match tree of each route list, built once (the guards and menus ask for every link). */
const matchTrees = new WeakMap<readonly AppRoute[], RouteObject[]>();
/** Answers already found per route list and pathname (at most CHAIN_CACHE_SIZE each, then started anew). */
const chains = new WeakMap<readonly AppRoute[], Map<string, AppRoute[]>>();
const CHAIN_CACHE_SIZE = 1000;

/** The chain of routes (outermost first) that a pathname matches; empty when nothing matches. */
export function routeChain(pathname: string, routes: readonly AppRoute[] = routeTable): AppRoute[] {
  let known = chains.get(routes);
  if (!known || known.size >= CHAIN_CACHE_SIZE) chains.set(routes, (known = new Map()));
  const found = known.get(pathname);
  if (found) return [...found];
  let tree = matchTrees.get(routes);
  if (!tree) matchTrees.set(routes, (tree = matchTree(routes)));
  const matches = matchRoutes(tree, pathname) ?? [];
  const chain = matches.map((m) => (m.route.handle as { route: AppRoute }).route);
  known.set(pathname, chain);
  return [...chain];
}

/** True when a pathname matches a real route (not the catch-all). */
export function routeExists(pathname: string, routes: readonly AppRoute[] = routeTable): boolean {
  const chain = routeChain(pathname, routes);
  return chain.length > 0 && chain[0]!.path !== '*';
}

export interface FlatRoute {
  fullPath: string;
  route: AppRoute;
}

/** Every enabled route with its full path, depth first. */
export function flattenRoutes(routes: readonly AppRoute[] = routeTable, parent = ''): FlatRoute[] {
  return routes.filter(isEnabled).flatMap((route) => {
    const fullPath = route.index ? parent || '/' : joinPath(parent, route.path);
    return [{ fullPath, route }, ...flattenRoutes(route.children ?? [], fullPath)];
  });
}

/** The path of a named route (product.md §2 named redirect targets, userRegistration ...). */
export function namedPath(name: string, routes: readonly AppRoute[] = routeTable): string | null {
  return flattenRoutes(routes).find((f) => f.route.names?.includes(name))?.fullPath ?? null;
}
