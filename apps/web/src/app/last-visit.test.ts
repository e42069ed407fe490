// @vitest-environment node
import type { Role } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { reopens, returnPath, worthReturning } from './last-visit';

const market = (roles: Role[]): MarketSnapshot => ({ areas: [], area: null, timeZone: null, rolesInArea: roles });
const SAR: Role[] = ['settlement-area-responsible'];

describe('the page a returning user goes back to (issue 18 item 1)', () => {
  it('remembers real pages and the landing, not the status pages or unknown paths', () => {
    expect(worthReturning('/monitor/eventmonitor')).toBe(true);
    // The dashboard too: a user who went back to it and reloads stays there.
    expect(worthReturning('/')).toBe(true);
    expect(worthReturning('/unauthorized')).toBe(false);
    expect(worthReturning('/notfound')).toBe(false);
    expect(worthReturning('/no/such/page')).toBe(false);
  });

  it('reopens a page only where the guard admits the user and no redirect rule moves them on', () => {
    expect(reopens('/monitor/eventmonitor?page=2', SAR, 'norway', market(SAR))).toBe(true);
    expect(reopens('/administration/user/viewacrosssettlementareas', SAR, 'norway', market(SAR))).toBe(false);
    expect(reopens('/settlementandverification/settlementprocess', SAR, 'exchange', market(SAR))).toBe(false);
    expect(reopens('/monitor/datalog', ['consumer'], 'norway', market(['consumer']))).toBe(false);
  });

  it('does not send the landing back to itself', () => {
    expect(reopens('/', SAR, 'norway', market(SAR))).toBe(false);
    expect(returnPath({ areaId: 'norway-id', path: '/' }, 'norway-id', SAR, 'norway', market(SAR))).toBeNull();
  });

  it('returns to the page only in the area it was left in', () => {
    const visit = { areaId: 'norway-id', path: '/infrastructure/areas/overview?types=pricearea' };
    expect(returnPath(visit, 'norway-id', SAR, 'norway', market(SAR))).toBe(visit.path);
    expect(returnPath(visit, 'sweden-id', SAR, 'sweden', market(SAR))).toBeNull();
    expect(returnPath(undefined, 'norway-id', SAR, 'norway', market(SAR))).toBeNull();
  });
});
