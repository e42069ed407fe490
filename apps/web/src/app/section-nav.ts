import type { AreaKind, Role } from '@railwatt/contracts';
import { joinPath, type AppRoute } from '../lib/routes';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { routePermits } from './guards';
import { pageVariant, resolveRedirect } from './redirects';
import { isEnabled, routeChain, routeExists, routeTable } from './route-table';

export interface SectionLink {
  to: string;
  titleKey: string;
  /** Interpolation values for the title; each value is itself an i18n key (as a screen's title). */
  titleArgs?: Record<string, string>;
  /** The page the current path is on (or under, for a page's own sub-pages). */
  active: boolean;
  /** The heading (i18n key) the link is listed under, where the section groups its pages. */
  groupKey?: string;
}

export interface SectionNavGroup {
  /** The heading's i18n key, or null for the links of a section that does not group its pages. */
  labelKey: string | null;
  links: SectionLink[];
}

/**
 * The links in groups, each group where its first page falls in the order (so the order of the route
 * flags decides the order of the headings too); one unnamed group for a section without groups.
 */
export function groupLinks(links: readonly SectionLink[]): SectionNavGroup[] {
  const groups: SectionNavGroup[] = [];
  for (const link of links) {
    const labelKey = link.groupKey ?? null;
    const group = groups.find((g) => g.labelKey === labelKey);
    if (group) group.links.push(link);
    else groups.push({ labelKey, links: [link] });
  }
  return groups;
}

export interface SectionNav {
  /** The section's main-menu label, which names the second level's landmark. */
  labelKey: string;
  links: SectionLink[];
}

const normalise = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
const isStatic = (path: string): boolean => !/[:*]/.test(path);
const within = (pathname: string, to: string): boolean => pathname === to || pathname.startsWith(`${to}/`);

interface NavPage {
  fullPath: string;
  route: AppRoute;
  /** The routes the guard judges on the way to it, outermost first (what routeChain would match). */
  chain: AppRoute[];
}

/**
 * The flagged static pages under some routes, with their chains. Walked here rather than matched one
 * by one with routeChain: matching ranks the whole route table per path, too slow to do for every
 * link on every render.
 */
function navPages(routes: readonly AppRoute[], parent: string, ancestors: AppRoute[]): NavPage[] {
  return routes.filter(isEnabled).flatMap((route) => {
    const fullPath = route.index ? parent : joinPath(parent, route.path);
    const chain = [...ancestors, route];
    const own = route.nav && isStatic(fullPath) ? [{ fullPath, route, chain }] : [];
    return [...own, ...navPages(route.children ?? [], fullPath, chain)];
  });
}

/** The main-menu section (a top-level route with a menu entry) that a path is in, or null. */
export function sectionOf(pathname: string, routes: readonly AppRoute[] = routeTable): AppRoute | null {
  const top = routeChain(pathname, routes)[0];
  return top?.menu ? top : null;
}

/**
 * The second level of the section the path is in: its child routes flagged `nav` (static pages), in
 * their order, each offered only when the user would reach it as linked: the redirect rules leave it
 * where it is (a consumer is not offered the data log that sends it to the event monitor), and the
 * guard's own rule passes for every route of its chain (roles, areas, extra check), as for the main
 * menu. menu.test.ts follows every link for every role and area. The active link is the
 * longest one the path is in, so a process log under Processes marks Processes.
 */
export function sectionNav(
  pathname: string,
  roles: readonly Role[],
  area: AreaKind | null,
  routes: readonly AppRoute[] = routeTable,
  market: MarketSnapshot = { areas: [], area: null, timeZone: null, rolesInArea: [...roles] },
): SectionNav | null {
  if (area === null) return null;
  const section = sectionOf(pathname, routes);
  // The dashboard has a menu entry but no pages of its own.
  if (!section?.menu || !section.path || !section.children) return null;
  const reachable = ({ fullPath, chain }: NavPage): boolean => {
    const redirect = resolveRedirect({ pathname: fullPath, roles, area, exists: (p) => routeExists(p, routes) });
    if (redirect !== null && redirect !== fullPath) return false;
    return chain.every(
      (r) => routePermits(r, roles, area) && (r.check ? r.check(roles, null, fullPath, market) : true),
    );
  };
  const pages = navPages(section.children ?? [], section.path, [section])
    .filter(reachable)
    .sort((a, b) => a.route.nav!.order - b.route.nav!.order);
  const current = normalise(pathname);
  const active = pages
    .map((p) => p.fullPath)
    .filter((to) => within(current, to))
    .sort((a, b) => b.length - a.length)[0];
  return {
    labelKey: section.menu.labelKey,
    links: pages.map(({ fullPath, route }) => ({
      to: fullPath,
      titleKey: pageVariant(route, area).titleKey,
      ...(route.titleArgs ? { titleArgs: route.titleArgs } : {}),
      active: fullPath === active,
      ...(route.nav?.group ? { groupKey: route.nav.group } : {}),
    })),
  };
}
