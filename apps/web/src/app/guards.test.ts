// @vitest-environment node
import { ROLES, type AreaKind, type Role } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../lib/routes';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { guardRedirect } from './guards';
import { routeChain } from './route-table';

const market: MarketSnapshot = { areas: [], area: null, timeZone: null, rolesInArea: [] };

function guard(path: string, roles: Role[], area: AreaKind | null, authenticated = true): string | null {
  return guardRedirect({ chain: routeChain(path), authenticated, roles, area, from: '/', to: path, market });
}

describe('route guards (product.md §2)', () => {
  it('needs one allowed role among the functions in the selected area', () => {
    expect(guard('/administration/user/overview', ['settlement-area-responsible'], 'norway')).toBeNull();
    expect(guard('/administration/user/overview', ['vehicle-keeper'], 'norway')).toBe('/unauthorized');
    expect(guard('/administration/user/viewacrosssettlementareas', ['settlement-area-responsible'], 'norway')).toBe(
      '/unauthorized',
    );
    expect(guard('/administration/user/viewacrosssettlementareas', ['erex-administrator'], 'norway')).toBeNull();
  });

  it('needs a matching area name where the route defines one', () => {
    expect(guard('/settlementandverification/tpa-settlementprocess', ['erex-administrator'], 'netherlands')).toBeNull();
    expect(guard('/settlementandverification/tpa-settlementprocess', ['erex-administrator'], 'norway')).toBe(
      '/unauthorized',
    );
    expect(guard('/administration/final-resting-place', ['erex-administrator'], 'exchange')).toBeNull();
    expect(guard('/administration/final-resting-place', ['erex-administrator'], 'sweden')).toBe('/unauthorized');
    expect(guard('/administration/interface/config/configuration', ['erex-administrator'], 'exchange')).toBeNull();
    expect(guard('/administration/interface/config/configuration', ['erex-administrator'], 'administration')).toBe(
      '/unauthorized',
    );
    expect(guard('/administration/interface/overview', ['erex-administrator'], 'administration')).toBeNull();
    expect(guard('/administration/interface/overview', ['erex-administrator'], 'exchange')).toBe('/unauthorized');
    expect(guard('/administration/settlementconfiguration', ['erex-administrator'], 'denmark')).toBeNull();
    expect(guard('/administration/settlementconfiguration', ['erex-administrator'], 'spain')).toBe('/unauthorized');
    expect(guard('/masterdata/overview', ['erex-administrator'], 'masterdata')).toBeNull();
    expect(guard('/masterdata/overview', ['erex-administrator'], 'norway')).toBe('/unauthorized');
    expect(guard('/monitor/datalog', ['erex-administrator'], 'masterdata')).toBeNull();
    expect(guard('/monitor/eventmonitor', ['erex-administrator'], 'masterdata')).toBe('/unauthorized');
  });

  it('a parent route applies to its children (Administration in exchange: administrator only)', () => {
    expect(guard('/administration/organisation/overview', ['settlement-area-responsible'], 'exchange')).toBe(
      '/unauthorized',
    );
    expect(guard('/administration/organisation/overview', ['consumer'], 'exchange')).toBe('/unauthorized');
    expect(guard('/administration/organisation/overview', ['consumer'], 'norway')).toBeNull();
    // The user overview takes its call's policy (userAreaAdmin): not the consumer's, even in a country area.
    expect(guard('/administration/user/overview', ['consumer'], 'norway')).toBe('/unauthorized');
    expect(guard('/administration/user/overview', ['settlement-area-responsible'], 'norway')).toBeNull();
  });

  it('audit roles get no run or edit pages', () => {
    expect(guard('/monitor/processes/profile/log', ['audit-settlement-area-responsible'], 'norway')).toBeNull();
    expect(
      guard('/monitor/processes/profile/configuration/view', ['audit-settlement-area-responsible'], 'norway'),
    ).toBeNull();
    expect(guard('/monitor/processes/profile/run', ['audit-settlement-area-responsible'], 'norway')).toBe(
      '/unauthorized',
    );
    expect(guard('/monitor/processes/profile/configuration/edit', ['audit-erex-settlement-operator'], 'norway')).toBe(
      '/unauthorized',
    );
    expect(guard('/monitor/processes/profile/run', ['settlement-area-responsible'], 'norway')).toBeNull();
  });

  it('sends an unauthenticated user to unauthorized', () => {
    expect(guard('/fleet/overview', ['erex-administrator'], 'norway', false)).toBe('/unauthorized');
    expect(guard('/notfound', ['erex-administrator'], 'norway', false)).toBe('/unauthorized');
  });

  it('lets routes flagged to ignore authentication pass: /unauthorized and the catch-all', () => {
    expect(guard('/unauthorized', [], null, false)).toBeNull();
    expect(guard('/no/such/page', [], null, false)).toBeNull();
    expect(routeChain('/no/such/page').at(-1)?.redirectTo).toBe('/notfound');
  });

  it.each(ROLES)('opens /notfound to %s', (role) => {
    expect(guard('/notfound', [role], 'norway')).toBeNull();
  });

  it('runs the extra check with the functions, from-route, to-route and market store (default: allow)', () => {
    const seen: unknown[] = [];
    const route: AppRoute = {
      path: '/x',
      roles: ['consumer'],
      check: (...args) => {
        seen.push(args);
        return false;
      },
    };
    const open: AppRoute = { path: '/y', roles: ['consumer'] };
    const input = {
      authenticated: true,
      roles: ['consumer'] as Role[],
      area: 'norway' as const,
      from: '/a',
      to: '/x',
      market,
    };
    expect(guardRedirect({ ...input, chain: [route] })).toBe('/unauthorized');
    expect(seen).toEqual([[['consumer'], '/a', '/x', market]]);
    expect(guardRedirect({ ...input, chain: [open] })).toBeNull();
  });

  it('Fleet excludes consumer unless also area-responsible or audit-responsible (the extra check)', () => {
    expect(guard('/fleet/overview', ['consumer'], 'norway')).toBe('/unauthorized');
    expect(guard('/fleet/overview', ['consumer', 'settlement-area-responsible'], 'norway')).toBeNull();
    expect(guard('/fleet/overview', ['consumer', 'audit-settlement-area-responsible'], 'norway')).toBeNull();
    expect(guard('/fleet/overview', ['vehicle-keeper'], 'norway')).toBeNull();
    expect(guard('/fleet/overview', ['train-run-data-provider'], 'norway')).toBe('/unauthorized');
    expect(guard('/fleet/overview', ['vehicle-keeper'], 'administration')).toBe('/unauthorized');
  });

  it('the dashboard home is not for train-run-data providers', () => {
    expect(guard('/', ['train-run-data-provider'], 'norway')).toBe('/unauthorized');
    expect(guard('/', ['cp-admin'], 'norway')).toBeNull();
  });
});
