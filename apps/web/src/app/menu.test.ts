// @vitest-environment node
import { ROLES, type AreaKind, type Role } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { logoTarget, menuItems } from './menu';

const M = 'menu.monitor';
const S = 'menu.settlement';
const F = 'menu.fleet';
const I = 'menu.infrastructure';
const A = 'menu.administration';

/** product.md §2 visibility table, written out per role and area kind (not derived from the route table). */
const EXPECTED: Record<Role, Record<'belgium' | 'netherlands' | 'exchange' | 'administration', string[]>> = {
  'erex-administrator': {
    belgium: [M, S, F, I, A],
    netherlands: [M, S, F, I, A],
    exchange: [M, F, I, A],
    administration: [I, A],
  },
  'settlement-area-responsible': {
    belgium: [M, S, F, I, A],
    netherlands: [M, S, F, I, A],
    exchange: [M, F, I],
    administration: [I, A],
  },
  'audit-settlement-area-responsible': {
    belgium: [M, S, F, I, A],
    netherlands: [M, S, F, I, A],
    exchange: [M, F, I],
    administration: [I, A],
  },
  'erex-settlement-operator': {
    belgium: [M, S, F, I, A],
    netherlands: [M, S, F, I, A],
    exchange: [M, F, I],
    administration: [I, A],
  },
  'audit-erex-settlement-operator': {
    belgium: [M, S, F, I, A],
    netherlands: [M, S, F, I, A],
    exchange: [M, F, I],
    administration: [I, A],
  },
  'exchange-operator': { belgium: [M, F, I], netherlands: [M, F, I], exchange: [M, F, I], administration: [I] },
  'cp-admin': { belgium: [M, F, I], netherlands: [M, F, I], exchange: [M, F, I], administration: [I] },
  'vehicle-keeper': { belgium: [F], netherlands: [F], exchange: [F], administration: [] },
  consumer: { belgium: [M, S, F, I, A], netherlands: [M, S, F, I, A], exchange: [M, F, I], administration: [I, A] },
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
