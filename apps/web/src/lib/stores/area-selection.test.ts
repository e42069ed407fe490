// @vitest-environment node
import { formatMarketFunction, type MarketFunction, type SettlementArea } from '@railwatt/contracts';
import { describe, expect, it, vi } from 'vitest';
import {
  landingAfterSwitch,
  MASTER_DATA_ID,
  pickInitialArea,
  rolesForArea,
  toAreaOptions,
  USER_REGISTRATION_PATH,
  SETTLEMENT_BASE_VERIFICATION_PATH,
} from './area-selection';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const area = (n: number, name: string, settlementPartner = true): SettlementArea => ({
  uuid: uuid(n),
  name,
  timeZone: 'Europe/Oslo',
  settlementPartner,
});
const LIST = [
  area(1, 'Sweden'),
  area(2, 'Norway'),
  area(3, 'Exchange'),
  area(4, 'Denmark', false),
  area(5, 'Administration'),
];
const consumer: MarketFunction[] = [{ role: 'consumer', areaId: null }];
const admin: MarketFunction[] = [{ role: 'erex-administrator', areaId: uuid(5) }];

describe('areas offered in the selector (product.md §1)', () => {
  it('offers only settlement-partner areas', () => {
    expect(toAreaOptions(LIST, consumer).map((a) => a.name)).not.toContain('Denmark');
  });

  it('sorts by name and keeps the original and the lowercased space-free name', () => {
    const options = toAreaOptions([...LIST, area(6, 'Nether Lands')], consumer);
    expect(options.map((a) => a.name)).toEqual(['Administration', 'Exchange', 'Nether Lands', 'Norway', 'Sweden']);
    expect(options[2]).toMatchObject({ name: 'Nether Lands', key: 'netherlands', kind: 'netherlands' });
    expect(options[3]).toMatchObject({
      name: 'Norway',
      key: 'norway',
      kind: 'norway',
      uuid: uuid(2),
      tenantId: uuid(2),
    });
  });

  it('drops and logs an area of unknown type', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(toAreaOptions([area(8, 'Atlantis')], consumer)).toEqual([]);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('adds the Master Data area (Europe/Oslo) for the administrator only, selectable, with the administration tenant', () => {
    expect(toAreaOptions(LIST, consumer).some((a) => a.uuid === MASTER_DATA_ID)).toBe(false);
    const md = toAreaOptions(LIST, admin).find((a) => a.uuid === MASTER_DATA_ID);
    expect(md).toMatchObject({ name: 'Master Data', kind: 'masterdata', timeZone: 'Europe/Oslo', tenantId: uuid(5) });
    expect(rolesForArea(admin, md!)).toEqual(['erex-administrator']);
  });

  it("takes the user's functions in the selected area", () => {
    const fns = [
      { role: 'consumer', areaId: uuid(2) },
      { role: 'vehicle-keeper', areaId: uuid(1) },
    ] satisfies MarketFunction[];
    const [, , norway] = toAreaOptions(LIST, fns);
    expect(rolesForArea(fns, norway!)).toEqual(['consumer']);
    expect(formatMarketFunction(fns[0]!)).toContain(uuid(2));
  });
});

describe('initial area', () => {
  const options = toAreaOptions(LIST, consumer);
  it('is the session storage value first', () => {
    expect(pickInitialArea(options, uuid(2), uuid(1))?.name).toBe('Norway');
  });
  it('else the local storage value', () => {
    expect(pickInitialArea(options, null, uuid(1))?.name).toBe('Sweden');
    expect(pickInitialArea(options, 'not-in-list', uuid(1))?.name).toBe('Sweden');
  });
  it('else the first area; each only if it is in the list', () => {
    expect(pickInitialArea(options, null, null)?.name).toBe('Administration');
    expect(pickInitialArea(options, uuid(4), uuid(99))?.name).toBe('Administration');
    expect(pickInitialArea([], uuid(1), uuid(1))).toBeNull();
  });
});

describe('landing after a switch', () => {
  it('administration area goes to user registration', () => {
    expect(landingAfterSwitch('administration', ['erex-administrator'])).toBe(USER_REGISTRATION_PATH);
  });
  it('exchange goes to /monitor for a consumer, else /', () => {
    expect(landingAfterSwitch('exchange', ['consumer'])).toBe('/monitor');
    expect(landingAfterSwitch('exchange', ['exchange-operator'])).toBe('/');
  });
  it('other areas go to settlement base verification for a consumer, else /', () => {
    expect(landingAfterSwitch('norway', ['consumer'])).toBe(SETTLEMENT_BASE_VERIFICATION_PATH);
    expect(landingAfterSwitch('norway', ['consumer', 'train-run-data-provider'])).toBe(
      SETTLEMENT_BASE_VERIFICATION_PATH,
    );
    expect(landingAfterSwitch('norway', ['consumer', 'erex-administrator'])).toBe('/');
    expect(landingAfterSwitch('spain', ['cp-admin'])).toBe('/');
  });
});
