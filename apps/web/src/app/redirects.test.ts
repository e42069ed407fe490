// @vitest-environment node
import { ROLES, type AreaKind, type Role } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import {
  errorSummaryTarget,
  HOME_LANDINGS,
  homeLanding,
  importTarget,
  loadsProcessingEventErrorCodes,
  pageVariant,
  resolveRedirect,
} from './redirects';
import { guardRedirect } from './guards';
import { menuItems } from './menu';
import { namedPath, routeChain, routeExists } from './route-table';

const go = (pathname: string, roles: Role[], area: AreaKind = 'norway'): string | null =>
  resolveRedirect({ pathname, roles, area, exists: (p) => routeExists(p) });

const SBV = '/settlementandverification/settlementbaseverification';

describe('redirect rules (product.md §2), one by one', () => {
  it('1. consumer + train-run-data-provider land on data search (exchange) or settlement base verification', () => {
    expect(go('/', ['consumer', 'train-run-data-provider'], 'norway')).toBe(SBV);
    expect(go('/', ['train-run-data-provider', 'consumer'], 'exchange')).toBe('/monitor/datasearch');
  });

  it('1. a train-run-data provider lands on the data log', () => {
    expect(go('/', ['train-run-data-provider'], 'sweden')).toBe('/monitor/datalog');
    expect(go('/monitor/datalog', ['train-run-data-provider'], 'sweden')).toBeNull();
  });

  it('2. a consumer on the data log goes to data search (exchange) or the event monitor', () => {
    expect(go('/monitor/datalog', ['consumer'], 'exchange')).toBe('/monitor/datasearch');
    expect(go('/monitor/datalog', ['consumer'], 'norway')).toBe('/monitor/eventmonitor');
    expect(go('/monitor/datalog', ['consumer', 'erex-administrator'], 'norway')).toBeNull();
  });

  it("3. a consumer opening a process log goes to that process's configuration view", () => {
    expect(go('/monitor/processes/profile/log', ['consumer'])).toBe('/monitor/processes/profile/configuration/view');
    expect(go('/monitor/processes/energy-outside-train-run/log', ['consumer'])).toBe(
      '/monitor/processes/energy-outside-train-run/configuration/view',
    );
    // A log-only process has no configuration to go to.
    expect(go('/monitor/processes/reported-train-consumption/log', ['consumer'])).toBeNull();
    expect(go('/monitor/processes/profile/log', ['settlement-area-responsible'])).toBeNull();
  });

  it('4. in the exchange area, data search, data log and security time series types render their exchange variants', () => {
    const variant = (path: string, area: AreaKind) => pageVariant(routeChain(path).at(-1)!, area);
    for (const path of ['/monitor/datasearch', '/monitor/datalog', '/administration/security/timeseriestypes']) {
      expect(variant(path, 'exchange').variant).toBe('exchange');
      expect(variant(path, 'norway').variant).toBeNull();
      expect(go(path, ['erex-administrator'], 'exchange')).toBeNull();
    }
    expect(variant('/monitor/datalog', 'exchange').titleKey).toBe('routes.monitor.datalogExchange');
    expect(variant('/monitor/datalog', 'masterdata').titleKey).toBe('routes.monitor.datalogMasterData');
  });

  it('5. vehicle-keeper-only users go from / to /fleet in the exchange area and land on /fleet/overview', () => {
    expect(go('/', ['vehicle-keeper'], 'exchange')).toBe('/fleet');
    expect(go('/', ['vehicle-keeper'], 'belgium')).toBe('/fleet/overview');
    expect(go('/', ['vehicle-keeper', 'cp-admin'], 'belgium')).toBeNull();
  });

  it('6. users holding only cp-admin and vehicle-keeper reaching the data log go to Reports', () => {
    expect(go('/monitor/datalog', ['cp-admin', 'vehicle-keeper'])).toBe('/reports');
    expect(go('/monitor/datalog', ['cp-admin'])).toBeNull();
  });

  it('7. the administration area has no dashboard: / goes to its users for who administers them, not an empty form', () => {
    expect(go('/', ['erex-administrator'], 'administration')).toBe('/administration/user/overview');
    expect(go('/', ['settlement-area-responsible'], 'administration')).toBe('/administration/user/overview');
    expect(go('/', ['audit-erex-settlement-operator'], 'administration')).toBe('/administration/entities/overview');
    expect(go('/', ['erex-administrator'], 'norway')).toBeNull();
  });

  it('leaves everyone else where they are', () => {
    expect(go('/', ['settlement-area-responsible'], 'belgium')).toBeNull();
    expect(go('/fleet/overview', ['vehicle-keeper'])).toBeNull();
  });
  it('named redirect targets {parentPage}_errorsummary and {parentPage}_import, default parent areasOverview', () => {
    expect(errorSummaryTarget()).toBe('areasOverview_errorsummary');
    expect(importTarget()).toBe('areasOverview_import');
    expect(namedPath(errorSummaryTarget())).toBe('/infrastructure/areas/overview/errorsummary');
    expect(namedPath(importTarget())).toBe('/infrastructure/import');
    expect(namedPath(errorSummaryTarget('fleetOverview'))).toBe('/fleet/overview/errorsummary');
    expect(namedPath(importTarget('fleetOverview'))).toBe('/fleet/import');
    expect(namedPath(errorSummaryTarget('entitiesOverview'))).toBe('/administration/entities/overview/errorsummary');
    expect(namedPath('userRegistration')).toBe('/administration/user/registration');
    expect(namedPath('settlementBaseVerification')).toBe(SBV);
  });

  it('exchange and administration areas skip loading processing-event error codes', () => {
    expect(loadsProcessingEventErrorCodes('exchange')).toBe(false);
    expect(loadsProcessingEventErrorCodes('administration')).toBe(false);
    expect(loadsProcessingEventErrorCodes('norway')).toBe(true);
  });
});

/** Where / ends for a user, through the redirect rules and the guard (null: the guard refuses). */
function homeEnds(roles: readonly Role[], area: AreaKind): string | null {
  const to = go('/', [...roles], area) ?? '/';
  const chain = routeChain(to);
  const market = { areas: [], area: null, timeZone: null, rolesInArea: [...roles] };
  const denied = guardRedirect({ chain, authenticated: true, roles, area, from: null, to, market });
  return denied ? null : to;
}

describe('the landing on / by role (issue 18 item 1: a user lands where their role works)', () => {
  it('is data: each rule says who, where and why', () => {
    for (const rule of HOME_LANDINGS) expect(rule.why.length).toBeGreaterThan(10);
    expect(homeLanding(['consumer'], 'norway')).toBe(SBV);
    expect(homeLanding(['erex-settlement-operator'], 'norway')).toBeNull();
  });

  it("lands a consumer on its own settlement figures, not the operators' queues", () => {
    expect(go('/', ['consumer'], 'belgium')).toBe(SBV);
    expect(go('/', ['consumer'], 'exchange')).toBe('/monitor/datasearch');
  });

  it('opens a page the user may see for every role alone and the demo pairs, in every area they could hold', () => {
    const roleSets: Role[][] = [
      ...ROLES.map((r) => [r]),
      ['consumer', 'train-run-data-provider'],
      ['cp-admin', 'vehicle-keeper'],
      ['consumer', 'settlement-area-responsible'],
    ];
    for (const roles of roleSets) {
      for (const area of ['norway', 'netherlands', 'exchange', 'administration'] as const) {
        // Only where the user has a section at all (a vehicle keeper has nothing in the administration area).
        if (menuItems(roles, area).length === 0) continue;
        expect({ roles, area, lands: homeEnds(roles, area) !== null }).toEqual({ roles, area, lands: true });
      }
    }
  });
});
