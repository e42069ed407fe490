import { POLICIES, type AreaKind, type Role } from '@railwatt/contracts';
import { SETTLEMENT_STAFF } from '../lib/access';
import type { AppRoute, RouteVariant } from '../lib/routes';
import { SETTLEMENT_BASE_VERIFICATION_PATH } from '../lib/stores/area-selection';

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

export const USER_OVERVIEW_PATH = '/administration/user/overview';
export const ENTITIES_OVERVIEW_PATH = '/administration/entities/overview';
const INFRASTRUCTURE_PATH = '/infrastructure';

/** One landing rule for / : who it is for, in which areas, where they land and why. */
export interface HomeLanding {
  /** The user's functions in the selected area this rule is for. */
  holds: (roles: readonly Role[]) => boolean;
  /** The areas it applies in (every area when absent). */
  areas?: readonly AreaKind[];
  /** Where / goes, by area. */
  to: (area: AreaKind) => string;
  /** The rule of product.md §2 it is, or why it was chosen where the spec leaves the landing open. */
  why: string;
}

const consumerLanding = (area: AreaKind): string =>
  area === 'exchange' ? DATA_SEARCH_PATH : SETTLEMENT_BASE_VERIFICATION_PATH;

/**
 * Where a user lands on / (the sign-in landing), by role, as data: the first rule that holds wins, and
 * a user no rule names stays on the dashboard. The landing after an area switch is product.md §1's
 * own (lib/stores/area-selection.ts landingAfterSwitch) and the logo's is §2's (menu.ts logoTarget);
 * a returning user goes back to the page last left instead (app/last-visit.ts).
 */
export const HOME_LANDINGS: readonly HomeLanding[] = [
  {
    // Rule 7: the area has no dashboard. Its pages for the user, not an empty form: the users of the
    // area for those who administer them (the settlement-area responsible, the administrator), else
    // the entities overview (the section's default page).
    holds: (roles) => roles.some((r) => POLICIES.userAreaAdmin.roles.includes(r)),
    areas: ['administration'],
    to: () => USER_OVERVIEW_PATH,
    why: 'no dashboard in the administration area (issue 18: not an empty user form)',
  },
  {
    // The Administration section's roles (administration.routes.tsx ADMIN_ROLES).
    holds: (roles) => roles.some((r) => SETTLEMENT_STAFF.includes(r)),
    areas: ['administration'],
    to: () => ENTITIES_OVERVIEW_PATH,
    why: "no dashboard in the administration area; the Administration section's default page",
  },
  {
    // exchange-operator, cp-admin: their one section there.
    holds: () => true,
    areas: ['administration'],
    to: () => INFRASTRUCTURE_PATH,
    why: 'no dashboard in the administration area and no Administration section for the user: Infrastructure',
  },
  {
    holds: (roles) => onlyRoles(roles, ['consumer', 'train-run-data-provider']),
    to: consumerLanding,
    why: 'product.md §2 rule 1: consumer landing, data search (exchange) or settlement base verification',
  },
  {
    holds: (roles) => onlyRoles(roles, ['consumer']),
    to: consumerLanding,
    why: "issue 18: a consumer sees its own settlement figures, not the operators' queues (as rule 1)",
  },
  {
    holds: (roles) => onlyRoles(roles, ['train-run-data-provider']),
    to: () => DATA_LOG_PATH,
    why: 'product.md §2 rule 1: a provider lands on the data log',
  },
  {
    holds: (roles) => onlyRoles(roles, ['vehicle-keeper']),
    to: (area) => (area === 'exchange' ? '/fleet' : '/fleet/overview'),
    why: 'product.md §2 rule 5: vehicle-keeper-only users go to /fleet (exchange) or land on /fleet/overview',
  },
];

/** Where / sends a user (HOME_LANDINGS), or null to stay on the dashboard. */
export function homeLanding(roles: readonly Role[], area: AreaKind): string | null {
  const rule = HOME_LANDINGS.find((r) => (!r.areas || r.areas.includes(area)) && r.holds(roles));
  return rule ? rule.to(area) : null;
}

/**
 * The redirect rules of product.md §2 "Redirect rules", as one pure function. Returns the path to go to,
 * or null to stay. "Consumer" below is a user whose only function in the area is consumer (the demo
 * "consumer-provider" also holds train-run-data-provider, which is what gives the data log).
 *
 * The rules for / (1, 5 and the administration area's) are the landing table HOME_LANDINGS.
 * Rule 4 (exchange variants of data search, data log and security time series types) moves nobody: the
 * exchange variant renders at the same path when the exchange area is selected — see pageVariant().
 */
export function resolveRedirect({ pathname, roles, area, exists }: RedirectInput): string | null {
  const path = normalise(pathname);
  const exchange = area === 'exchange';
  const consumer = onlyRoles(roles, ['consumer']);

  // 1, 5 and 7: where / lands.
  if (path === '/') return homeLanding(roles, area);

  // 2. A consumer on the data log goes to data search (exchange) or the event monitor.
  if (path === DATA_LOG_PATH && consumer) return exchange ? DATA_SEARCH_PATH : EVENT_MONITOR_PATH;

  // 3. A consumer opening a process log goes to that process's configuration view (where it has one).
  const log = /^\/monitor\/processes\/([^/]+)\/log$/.exec(path);
  if (log && consumer) {
    const view = `/monitor/processes/${log[1]}/configuration/view`;
    if (exists(view)) return view;
  }

  // 6. Users holding only cp-admin and vehicle-keeper reaching the data log go to Reports.
  if (path === DATA_LOG_PATH && onlyRoles(roles, ['cp-admin', 'vehicle-keeper'])) return '/reports';

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
