import type { AccessPolicy, AreaKind, Role } from '@railwatt/contracts';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { messagesReady } from './i18n';
import type { MarketSnapshot } from './stores/market-store';

/** What every screen receives from its route: the title to show. */
export interface ScreenProps {
  titleKey: string;
  /** Interpolation values for the title; each value is itself an i18n key. */
  titleArgs?: Record<string, string>;
}

export type Screen = ComponentType<ScreenProps> | LazyExoticComponent<ComponentType<ScreenProps>>;

/**
 * The extra check of product.md §2: it receives the functions in the selected area, the from-route,
 * the to-route and the market store, and allows by default.
 */
export type ExtraCheck = (
  functionsInArea: readonly Role[],
  fromRoute: string | null,
  toRoute: string,
  market: MarketSnapshot,
) => boolean;

/** A screen rendered instead of the route's own one in some areas, at the same path. */
export interface RouteVariant {
  titleKey: string;
  component?: Screen;
}

/**
 * One route, declared once (STYLE.md §6). The router, the guards, the menu and the tests read these
 * objects; there is no second list of who sees what.
 */
export interface AppRoute {
  /** Segment relative to the parent; top-level routes are absolute ("/fleet"). */
  path?: string;
  index?: boolean;
  /** Named-route names (e.g. userRegistration, areasOverview_errorsummary). */
  names?: readonly string[];
  titleKey?: string;
  titleArgs?: Record<string, string>;
  /** The user needs one of these functions in the selected area. */
  roles: readonly Role[];
  /** Per-area replacement of `roles` (Administration in the exchange area: administrator only). */
  areaRoles?: Partial<Record<AreaKind, readonly Role[]>>;
  /** The named policy `roles` and `areaRoles` come from (lib/access.ts fromPolicy), where the page makes calls. */
  policy?: AccessPolicy;
  /** Where defined, the selected area's kind (lowercased name) must be one of these. */
  areas?: readonly AreaKind[];
  component?: Screen;
  variants?: Partial<Record<AreaKind, RouteVariant>>;
  /** A default child that only redirects (relative to the parent, or absolute). */
  redirectTo?: string;
  ignoreAuth?: boolean;
  check?: ExtraCheck;
  /** Main-menu entry (sections only). */
  menu?: { labelKey: string; order: number };
  /**
   * An entry in its section's second level (app/section-nav.ts), in this order: a page a user navigates
   * to, at a static path. Flagged here, route by route, so that which pages the section offers is data.
   * `group` (an i18n key) gathers a long second level under headings (Administration's users,
   * organisations, interfaces ...); a section whose pages carry groups shows them as a side menu.
   */
  nav?: { order: number; group?: string };
  /** A feature switch; a disabled route does not exist. */
  enabled?: boolean;
  children?: AppRoute[];
}

/**
 * A feature's page builder: each page gets the feature's defaults (its roles, its screen ...), which
 * `extra` overrides where a page differs.
 */
export function pageBuilder(
  defaults: Pick<AppRoute, 'roles'> & Partial<AppRoute>,
): (path: string, titleKey: string, extra?: Partial<AppRoute>) => AppRoute {
  return (path, titleKey, extra = {}) => ({ path, titleKey, ...defaults, ...extra });
}

/** React.lazy for a named export (the house style has no default exports). */
export function lazyScreen<K extends string>(
  load: () => Promise<Record<K, ComponentType<ScreenProps>>>,
  name: K,
): LazyExoticComponent<ComponentType<ScreenProps>> {
  // A screen renders once its chunk and the features' English texts are in (lib/i18n.ts).
  return lazy(() => Promise.all([load(), messagesReady]).then(([module]) => ({ default: module[name] })));
}

/** Joins a parent path and a child segment. */
export function joinPath(parent: string, segment: string | undefined): string {
  if (!segment) return parent || '/';
  if (segment.startsWith('/')) return segment;
  return `${parent.replace(/\/$/, '')}/${segment}`;
}
