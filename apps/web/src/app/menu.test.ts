// @vitest-environment node
import {
  AREA_KINDS,
  domainCalls,
  excelCalls,
  organisationCalls,
  POLICIES,
  ROLES,
  userAdminCalls,
  type AreaKind,
  type Role,
} from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { configurationLinks, PROCESS_PAGES } from '../features/monitor/process-pages';
import { COUNTRIES } from '../lib/access';
import { joinPath } from '../lib/routes';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { guardRedirect, UNAUTHORIZED_PATH } from './guards';
import { logoTarget, menuItems } from './menu';
import { resolveRedirect } from './redirects';
import { routeChain, routeExists, flattenRoutes } from './route-table';
import { groupLinks, sectionNav } from './section-nav';

const D = 'menu.dashboard';
const M = 'menu.monitor';
const S = 'menu.settlement';
const F = 'menu.fleet';
const I = 'menu.infrastructure';
const A = 'menu.administration';

/** product.md §2 visibility table, written out per role and area kind (not derived from the route table). */
const EXPECTED: Record<Role, Record<'belgium' | 'netherlands' | 'exchange' | 'administration', string[]>> = {
  'erex-administrator': {
    belgium: [D, M, S, F, I, A],
    netherlands: [D, M, S, F, I, A],
    exchange: [D, M, F, I, A],
    administration: [I, A],
  },
  'settlement-area-responsible': {
    belgium: [D, M, S, F, I, A],
    netherlands: [D, M, S, F, I, A],
    exchange: [D, M, F, I],
    administration: [I, A],
  },
  'audit-settlement-area-responsible': {
    belgium: [D, M, S, F, I, A],
    netherlands: [D, M, S, F, I, A],
    exchange: [D, M, F, I],
    administration: [I, A],
  },
  'erex-settlement-operator': {
    belgium: [D, M, S, F, I, A],
    netherlands: [D, M, S, F, I, A],
    exchange: [D, M, F, I],
    administration: [I, A],
  },
  'audit-erex-settlement-operator': {
    belgium: [D, M, S, F, I, A],
    netherlands: [D, M, S, F, I, A],
    exchange: [D, M, F, I],
    administration: [I, A],
  },
  'exchange-operator': {
    belgium: [D, M, F, I],
    netherlands: [D, M, F, I],
    exchange: [D, M, F, I],
    administration: [I],
  },
  'cp-admin': { belgium: [D, M, F, I], netherlands: [D, M, F, I], exchange: [D, M, F, I], administration: [I] },
  'vehicle-keeper': { belgium: [F], netherlands: [F], exchange: [F], administration: [] },
  // Fleet reads through domainRead, which leaves out the consumer (issue 6: the menu derives from route access).
  // No dashboard entry: a consumer's / lands on its settlement figures (redirects.ts HOME_LANDINGS).
  consumer: { belgium: [M, S, I, A], netherlands: [M, S, I, A], exchange: [M, I], administration: [I, A] },
  'train-run-data-provider': { belgium: [M], netherlands: [M], exchange: [M], administration: [] },
};

describe('main menu visibility (product.md §2)', () => {
  for (const role of ROLES) {
    for (const area of ['belgium', 'netherlands', 'exchange', 'administration'] as const) {
      it(`${role} in ${area}`, () => {
        expect(menuItems([role], area).map((i) => i.labelKey)).toEqual(EXPECTED[role][area]);
      });
    }
  }

  it('links each entry to its section', () => {
    expect(menuItems(['erex-administrator'], 'norway')).toEqual([
      { to: '/', labelKey: D },
      { to: '/monitor', labelKey: M },
      { to: '/settlementandverification', labelKey: S },
      { to: '/fleet', labelKey: F },
      { to: '/infrastructure', labelKey: I },
      { to: '/administration', labelKey: A },
    ]);
  });

  it('shows nothing before an area is selected, and the master-data sections in master-data mode', () => {
    expect(menuItems(['erex-administrator'], null)).toEqual([]);
    expect(menuItems(['erex-administrator'], 'masterdata').map((i) => i.to)).toEqual([
      '/',
      '/monitor',
      '/masterdata',
      '/management',
      '/subscriptions',
    ]);
  });
});

describe('logo target', () => {
  const cases: [Role[], AreaKind, string][] = [
    [['vehicle-keeper'], 'norway', '/fleet/overview'],
    [['vehicle-keeper'], 'exchange', '/fleet/overview'],
    [['vehicle-keeper', 'cp-admin'], 'norway', '/'],
    [['consumer'], 'norway', '/'],
    [['erex-administrator'], 'administration', '/administration/user/registration'],
    [['settlement-area-responsible'], 'administration', '/administration/user/registration'],
  ];
  it.each(cases)('%j in %s -> %s', (roles, area, target) => {
    expect(logoTarget(roles, area)).toBe(target);
  });
});

/**
 * Where following a link ends, as the shell does it: the redirect rules, a default child that only
 * redirects, then the guard (root-layout.tsx Content). Null when the guard refuses.
 */
function landing(start: string, roles: readonly Role[], area: AreaKind): string | null {
  const market: MarketSnapshot = { areas: [], area: null, timeZone: null, rolesInArea: [...roles] };
  let path = start;
  for (let hop = 0; hop < 10; hop += 1) {
    const redirect = resolveRedirect({ pathname: path, roles, area, exists: (p) => routeExists(p) });
    if (redirect && redirect !== path) {
      path = redirect;
      continue;
    }
    const chain = routeChain(path);
    const last = chain.at(-1);
    if (last?.index && last.redirectTo && !last.component) {
      path = joinPath(path, last.redirectTo);
      continue;
    }
    const denied = guardRedirect({ chain, authenticated: true, roles, area, from: null, to: path, market });
    return denied === UNAUTHORIZED_PATH ? null : path;
  }
  throw new Error(`redirect loop from ${start}`);
}

/** Users holding several roles in one area (the demo users consumer-provider and keeper-cpadmin, and more). */
const DEMO_ROLE_SETS: readonly (readonly Role[])[] = [
  ['consumer', 'train-run-data-provider'],
  ['cp-admin', 'vehicle-keeper'],
  ['consumer', 'settlement-area-responsible'],
  ['consumer', 'audit-settlement-area-responsible'],
  ['consumer', 'cp-admin'],
];

describe('menu and guards agree (issue 6: the menu never offers a link whose route refuses the user)', () => {
  const roleSets: (readonly Role[])[] = [...ROLES.map((r) => [r]), ...DEMO_ROLE_SETS];
  for (const roles of roleSets) {
    it(`${roles.join(' + ')}: every menu link opens a page in every area`, () => {
      for (const area of AREA_KINDS) {
        // In master-data mode the user holds the administrator function only, or nothing (rolesForArea).
        const held = area === 'masterdata' ? roles.filter((r) => r === 'erex-administrator') : roles;
        for (const item of menuItems(held, area)) {
          expect({ area, link: item.to, lands: landing(item.to, held, area) !== null }).toEqual({
            area,
            link: item.to,
            lands: true,
          });
        }
      }
    });
  }

  it('offers a consumer in a country area no Fleet, and a consumer who is also area-responsible Fleet', () => {
    expect(menuItems(['consumer'], 'norway').map((i) => i.to)).not.toContain('/fleet');
    expect(landing('/fleet/overview', ['consumer'], 'norway')).toBeNull();
    expect(menuItems(['consumer', 'settlement-area-responsible'], 'norway').map((i) => i.to)).toContain('/fleet');
  });

  it('lets the erex-settlement-operator, a fleet writer on the server, open fleet registration and import', () => {
    expect(landing('/fleet/import', ['erex-settlement-operator'], 'norway')).toBe('/fleet/import');
    expect(landing('/fleet/registration', ['erex-settlement-operator'], 'norway')).toBe('/fleet/registration');
    expect(landing('/fleet/import', ['audit-erex-settlement-operator'], 'norway')).toBeNull();
  });

  it('gives the pages that make calls the policies of those calls, as the server enforces them', () => {
    const policyAt = (path: string) => flattenRoutes().find((f) => f.fullPath === path)?.route.policy;
    expect(policyAt('/fleet')).toBe(domainCalls.fleet.access);
    expect(policyAt('/fleet/overview')).toBe(domainCalls.fleet.access);
    expect(policyAt('/fleet/registration')).toBe(domainCalls.tractionUnitSave.access);
    expect(policyAt('/fleet/import')).toBe(excelCalls.domainImport.access);
    expect(policyAt('/administration/user/registration')).toBe(userAdminCalls.save.access);
    expect(policyAt('/administration/organisation/registration')).toBe(organisationCalls.typeSave.access);
  });
});

/** The second level's links of a section, as paths, for a user in an area. */
const secondLevel = (section: string, roles: readonly Role[], area: AreaKind): string[] =>
  sectionNav(section, roles, area)?.links.map((l) => l.to) ?? [];

describe("each section's second level (issue 18 item 1: every page one click away)", () => {
  const roleSets: (readonly Role[])[] = [...ROLES.map((r) => [r]), ...DEMO_ROLE_SETS];
  for (const roles of roleSets) {
    it(`${roles.join(' + ')}: every second-level link opens its page in every area, and keeps the level`, () => {
      for (const area of AREA_KINDS) {
        const held = area === 'masterdata' ? roles.filter((r) => r === 'erex-administrator') : roles;
        for (const item of menuItems(held, area)) {
          const links = secondLevel(item.to, held, area);
          for (const to of links) {
            // No redirect rule moves the user elsewhere and the guard lets it in (a page whose index child
            // only redirects, interface configuration, ends on that child).
            const lands = landing(to, held, area);
            expect({ area, to, lands: lands !== null && (lands === to || lands.startsWith(`${to}/`)) }).toEqual({
              area,
              to,
              lands: true,
            });
            // On that page the same second level shows, with that link marked.
            const there = sectionNav(to, held, area);
            expect(there?.links.map((l) => l.to)).toEqual(links);
            expect(there?.links.filter((l) => l.active).map((l) => l.to)).toEqual([to]);
          }
        }
      }
    });
  }

  it('flags only static pages with a title, each section its own order', () => {
    const flagged = flattenRoutes().filter((f) => f.route.nav);
    for (const { fullPath, route } of flagged) {
      expect({ fullPath, static: !/[:*]/.test(fullPath), titled: Boolean(route.titleKey) }).toEqual({
        fullPath,
        static: true,
        titled: true,
      });
    }
  });

  it('offers the administrator in a country area the pages of Monitor, Infrastructure, Settlement and Fleet', () => {
    expect(secondLevel('/monitor', ['erex-administrator'], 'norway')).toEqual([
      '/monitor/datalog',
      '/monitor/processes',
      '/monitor/eventmonitor',
      '/monitor/errorview',
      '/monitor/eventview',
      '/monitor/processresultview',
      '/monitor/completenessverification',
      '/monitor/completenessverificationcp',
      '/monitor/parameteroverview',
      '/monitor/processes/combine/deadletterqueue',
      '/monitor/processes/shunting-and-stabling/delayedtasks',
    ]);
    expect(secondLevel('/infrastructure', ['erex-administrator'], 'norway')).toEqual([
      '/infrastructure/entity/overview',
      '/infrastructure/entity/registration',
      '/infrastructure/areas/overview',
      '/infrastructure/areas/registration',
      '/infrastructure/import',
    ]);
    expect(secondLevel('/settlementandverification', ['erex-administrator'], 'norway')).toEqual([
      '/settlementandverification/settlementbaseverification',
      '/settlementandverification/settlementprocess',
      '/settlementandverification/settlementconfiguration/view',
    ]);
    expect(secondLevel('/fleet', ['erex-administrator'], 'norway')).toEqual([
      '/fleet/overview',
      '/fleet/registration',
      '/fleet/import',
    ]);
  });

  it('adds the tpa settlement pages in the netherlands, and Administration its own pages', () => {
    expect(secondLevel('/settlementandverification', ['settlement-area-responsible'], 'netherlands')).toEqual([
      '/settlementandverification/settlementbaseverification',
      '/settlementandverification/settlementprocess',
      '/settlementandverification/settlementconfiguration/view',
      '/settlementandverification/tpa-settlementbaseverification',
      '/settlementandverification/tpa-settlementprocess',
      '/settlementandverification/tpa-settlementconfiguration/view',
    ]);
    expect(secondLevel('/administration', ['erex-administrator'], 'administration')).toEqual(
      expect.arrayContaining([
        '/administration/entities/overview',
        '/administration/user/registration',
        '/administration/user/overview',
        '/administration/organisation/overview',
        '/administration/interface/overview',
      ]),
    );
    expect(secondLevel('/administration', ['erex-administrator'], 'exchange')).toContain(
      '/administration/interface/config',
    );
  });

  it('offers a consumer the event monitor, not the data log that would send it there, and no write pages', () => {
    const monitor = secondLevel('/monitor', ['consumer'], 'norway');
    expect(monitor).toContain('/monitor/eventmonitor');
    expect(monitor).not.toContain('/monitor/datalog');
    expect(secondLevel('/infrastructure', ['consumer'], 'norway')).toEqual([
      '/infrastructure/entity/overview',
      '/infrastructure/areas/overview',
    ]);
  });

  it('marks the page a path is under, and is empty outside a menu section or before an area', () => {
    const nav = sectionNav('/monitor/processes/combine/log', ['erex-administrator'], 'norway');
    expect(nav?.labelKey).toBe('menu.monitor');
    expect(nav?.links.filter((l) => l.active).map((l) => l.to)).toEqual(['/monitor/processes']);
    expect(
      sectionNav('/infrastructure/entity/registration/track', ['erex-administrator'], 'norway')?.links.find(
        (l) => l.active,
      )?.to,
    ).toBe('/infrastructure/entity/registration');
    expect(sectionNav('/', ['erex-administrator'], 'norway')).toBeNull();
    expect(sectionNav('/reports', ['erex-administrator'], 'norway')).toBeNull();
    expect(sectionNav('/monitor', ['erex-administrator'], null)).toBeNull();
  });

  it("titles each link with its route's title, the area's variant where it has one", () => {
    const exchange = sectionNav('/monitor', ['erex-administrator'], 'exchange')?.links;
    expect(exchange?.find((l) => l.to === '/monitor/datalog')?.titleKey).toBe('routes.monitor.datalogExchange');
    const norway = sectionNav('/monitor', ['erex-administrator'], 'norway')?.links;
    expect(norway?.find((l) => l.to.endsWith('/deadletterqueue'))).toMatchObject({
      titleKey: 'routes.monitor.process.deadLetterQueue',
      titleArgs: { process: 'processes.combine' },
    });
  });
});

describe("the processes page's configuration links (issue 18 item 1: every configuration one click away)", () => {
  it('opens the configuration of every process that has one, for every reader of configurations, in every country', () => {
    for (const area of COUNTRIES) {
      for (const role of POLICIES.processingConfigRead.roles) {
        for (const pages of PROCESS_PAGES) {
          for (const link of configurationLinks(pages, area)) {
            expect({ area, role, link: link.to, lands: landing(link.to, [role], area) }).toEqual({
              area,
              role,
              link: link.to,
              lands: link.to,
            });
          }
        }
      }
    }
  });

  it('links every configuration route of the Monitor, the Swiss one in Switzerland only', () => {
    const linked = new Set(
      COUNTRIES.flatMap((area) => PROCESS_PAGES.flatMap((p) => configurationLinks(p, area))).map((l) => l.to),
    );
    const routes = flattenRoutes()
      .map((f) => f.fullPath)
      .filter((path) => /^\/monitor\/processes\/[^/]+\/configuration[^/]*\/view$/.test(path));
    expect(routes.length).toBeGreaterThan(10);
    expect([...linked].sort()).toEqual(routes.sort());
    const swiss = '/monitor/processes/train-preprocessing/configuration-switzerland/view';
    expect(
      configurationLinks(
        PROCESS_PAGES.find((p) => p.name === 'train-preprocessing'),
        'norway',
      ),
    ).not.toContainEqual(expect.objectContaining({ to: swiss }));
    expect(landing(swiss, ['settlement-area-responsible'], 'switzerland')).toBe(swiss);
  });
});

describe("Administration's second level in groups (issue 18 item 1: many links, readable)", () => {
  it('lists every administrator page under a heading, each group overview first', () => {
    const groups = groupLinks(sectionNav('/administration', ['erex-administrator'], 'administration')!.links);
    expect(groups.map((g) => g.labelKey)).toEqual([
      'shell.navGroup.entities',
      'shell.navGroup.users',
      'shell.navGroup.organisations',
      'shell.navGroup.interfaces',
      'shell.navGroup.exportLimitations',
      'shell.navGroup.timeSeries',
      'shell.navGroup.operations',
    ]);
    const users = groups.find((g) => g.labelKey === 'shell.navGroup.users')!.links.map((l) => l.to);
    expect(users).toEqual([
      '/administration/user/overview',
      '/administration/user/registration',
      '/administration/user/viewacrosssettlementareas',
      '/administration/user/registeracrosssettlementareas',
    ]);
  });

  it('keeps the short sections ungrouped', () => {
    for (const section of ['/monitor', '/infrastructure', '/settlementandverification', '/fleet']) {
      const groups = groupLinks(sectionNav(section, ['erex-administrator'], 'norway')!.links);
      expect({ section, groups: groups.map((g) => g.labelKey) }).toEqual({ section, groups: [null] });
    }
  });
});

describe('the dashboard in the main menu (issue 18 item 1: a labelled link, not only the logo)', () => {
  it('offers the dashboard first where the user lands on it, not where a redirect rule sends the user on', () => {
    expect(menuItems(['settlement-area-responsible'], 'norway')[0]).toEqual({ to: '/', labelKey: D });
    expect(menuItems(['vehicle-keeper'], 'norway').map((i) => i.to)).not.toContain('/');
    expect(menuItems(['consumer', 'train-run-data-provider'], 'norway').map((i) => i.to)).not.toContain('/');
    expect(menuItems(['erex-administrator'], 'administration').map((i) => i.to)).not.toContain('/');
  });
});
