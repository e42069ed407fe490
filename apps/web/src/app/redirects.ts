import type { AreaKind, Role } from '@railwatt/contracts';
import type { AppRoute, RouteVariant } from '../lib/routes';
import { SETTLEMENT_BASE_VERIFICATION_PATH, USER_REGISTRATION_PATH } from '../lib/stores/area-selection';

export const DATA_LOG_PATH = '/monitor/datalog';
export const DATA_SEARCH_PATH = '/monitor/datasearch';
export const EVENT_MONITOR_PATH = '/monitor/eventmonitor';

/** Does the user hold exactly these functions in the area (no more, no fewer)? */
export function onlyRoles(roles: readonly Role[], exactly: readonly Role[]): boolean {
  const held = new Set(roles);
  return held.size === exactly.length && exactly.every((r) => held.has(r));
}

export interface RedirectInput {
  pathname: string;
  roles: readonly Role[];
  area: AreaKind;
  /** Does a route exist at this path? (the route table's routeExists) */
  exists: (pathname: string) => boolean;
}

const normalise = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/**
 * The redirect rules of product.md §2 "Redirect rules", as one pure function. Returns the path to go to,
 * or null to stay. "Consumer" below is a user whose only function in the area is consumer (the demo
 * "consumer-provider" also holds train-run-data-provider, which is what gives the data log).
 *
 * Rule 4 (exchange variants of data search, data log and security time series types) moves nobody: the
 * exchange variant renders at the same path when the exchange area is selected — see pageVariant().
 */
export function resolveRedirect({ pathname, roles, area, exists }: RedirectInput): string | null {
  const path = normalise(pathname);
  const exchange = area === 'exchange';
  const consumer = onlyRoles(roles, ['consumer']);

  // 1. Users holding only consumer and train-run-data-provider land on data search (exchange) or
  //    settlement base verification; a (train-run-data) provider lands on the data log.
  if (path === '/' && onlyRoles(roles, ['consumer', 'train-run-data-provider'])) {
    return exchange ? DATA_SEARCH_PATH : SETTLEMENT_BASE_VERIFICATION_PATH;
  }
  if (path === '/' && onlyRoles(roles, ['train-run-data-provider'])) return DATA_LOG_PATH;

  // 2. A consumer on the data log goes to data search (exchange) or the event monitor.
  if (path === DATA_LOG_PATH && consumer) return exchange ? DATA_SEARCH_PATH : EVENT_MONITOR_PATH;

  // 3. A consumer opening a process log goes to that process's configuration view (where it has one).
  const log = /^\/monitor\/processes\/([^/]+)\/log$/.exec(path);
  if (log && consumer) {
    const view = `/monitor/processes/${log[1]}/configuration/view`;
    if (exists(view)) return view;
  }

  // 5. Vehicle-keeper-only users: from / to /fleet in the exchange area; elsewhere they land on /fleet/overview.
  if (path === '/' && onlyRoles(roles, ['vehicle-keeper'])) return exchange ? '/fleet' : '/fleet/overview';

  // 6. Users holding only cp-admin and vehicle-keeper reaching the data log go to Reports.
  if (path === DATA_LOG_PATH && onlyRoles(roles, ['cp-admin', 'vehicle-keeper'])) return '/reports';

  // 7. The administration area has no dashboard: / goes to user registration (as the logo does).
  if (path === '/' && area === 'administration') return USER_REGISTRATION_PATH;

  return null;
}

/**
 * Rule 4: in the exchange area (and in master-data mode for the data log) a route with a variant for the
 * area renders that variant at the same path. Returns the title and screen to render.
 */
export function pageVariant(route: AppRoute, area: AreaKind | null): RouteVariant & { variant: AreaKind | null } {
  const variant = area ? route.variants?.[area] : undefined;
  if (variant) return { titleKey: variant.titleKey, component: variant.component ?? route.component, variant: area };
  return { titleKey: route.titleKey ?? '', component: route.component, variant: null };
}

/**
 * Named redirect targets (product.md §2): `{parentPage}_errorsummary` and `{parentPage}_import`, the
 * parent page defaulting to areasOverview. Resolve the name to a path with namedPath().
 */
export function errorSummaryTarget(parentPage = 'areasOverview'): string {
  return `${parentPage}_errorsummary`;
}

export function importTarget(parentPage = 'areasOverview'): string {
  return `${parentPage}_import`;
}

/** Exchange and administration areas skip loading processing-event error codes (product.md §2). */
export const loadsProcessingEventErrorCodes = (area: AreaKind): boolean =>
  area !== 'exchange' && area !== 'administration';
