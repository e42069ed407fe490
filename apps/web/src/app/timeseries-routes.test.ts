// @vitest-environment node
import type { AreaKind, Role } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../lib/stores/market-store';
import { guardRedirect } from './guards';
import { routeChain } from './route-table';

const market: MarketSnapshot = { areas: [], area: null, timeZone: null, rolesInArea: [] };

const guard = (path: string, roles: Role[], area: AreaKind = 'norway'): string | null =>
  guardRedirect({ chain: routeChain(path), authenticated: true, roles, area, from: '/', to: path, market });

describe('time-series administration routes (product.md §2, §6)', () => {
  it('import-prices is for the administrator only', () => {
    expect(guard('/administration/import-prices', ['erex-administrator'])).toBeNull();
    for (const role of ['settlement-area-responsible', 'erex-settlement-operator', 'consumer'] as Role[]) {
      expect(guard('/administration/import-prices', [role])).toBe('/unauthorized');
    }
  });

  it('timeseries/import is for the administration writers who may upload time series', () => {
    expect(guard('/administration/timeseries/import', ['erex-administrator'])).toBeNull();
    expect(guard('/administration/timeseries/import', ['settlement-area-responsible'])).toBeNull();
    expect(guard('/administration/timeseries/import', ['audit-settlement-area-responsible'])).toBe('/unauthorized');
    expect(guard('/administration/timeseries/import', ['consumer'])).toBe('/unauthorized');
  });
});
