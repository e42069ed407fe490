import type { MarketFunction } from '@railwatt/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AREA_STORAGE_KEY, toAreaOptions } from './area-selection';
import { selectInitialArea, switchArea, useMarketStore, type AreaStorage } from './market-store';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const functions: MarketFunction[] = [
  { role: 'consumer', areaId: uuid(1) },
  { role: 'settlement-area-responsible', areaId: uuid(2) },
  { role: 'consumer', areaId: uuid(3) },
];
const options = toAreaOptions(
  [
    { uuid: uuid(1), name: 'Norway', timeZone: 'Europe/Oslo', settlementPartner: true },
    { uuid: uuid(2), name: 'Sweden', timeZone: 'Europe/Stockholm', settlementPartner: true },
    { uuid: uuid(3), name: 'Exchange', timeZone: 'Europe/Oslo', settlementPartner: true },
    { uuid: uuid(4), name: 'Administration', timeZone: 'Europe/Oslo', settlementPartner: true },
  ],
  functions,
);
const byName = (name: string) => options.find((o) => o.name === name)!;

function recordingStorage(log: string[]): AreaStorage {
  const store = (kind: string) => {
    const values = new Map<string, string>();
    return {
      getItem: (k: string) => values.get(k) ?? null,
      setItem: (k: string, v: string) => {
        log.push(`${kind}:${k}=${v}`);
        values.set(k, v);
      },
    };
  };
  return { local: store('local'), session: store('session') };
}

beforeEach(() => {
  useMarketStore.setState({ areas: options, area: null, timeZone: null, functions, rolesInArea: [], rendered: true });
});
afterEach(() => vi.useRealTimers());

describe('switching area (product.md §1)', () => {
  it('refreshes the token, sets area, storage, aborts, resets, re-renders after 10 ms, then navigates', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const deps = {
      refreshToken: vi.fn(async () => {
        log.push('refresh');
      }),
      abortAll: vi.fn(() => log.push('abort')),
      resetStores: vi.fn(() => log.push('reset')),
      navigate: vi.fn((path: string) => log.push(`navigate ${path}`)),
      storage: recordingStorage(log),
    };
    const unsubscribe = useMarketStore.subscribe((s, prev) => {
      if (s.area !== prev.area) log.push(`set ${s.area?.name} ${s.timeZone} ${s.rolesInArea.join(',')}`);
      if (s.rendered !== prev.rendered) log.push(`rendered=${s.rendered}`);
    });
    const done = switchArea(byName('Sweden'), deps);
    await vi.advanceTimersByTimeAsync(9);
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(useMarketStore.getState().rendered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe(true);
    unsubscribe();
    expect(log).toEqual([
      'refresh',
      'set Sweden Europe/Stockholm settlement-area-responsible',
      `local:${AREA_STORAGE_KEY}=${uuid(2)}`,
      `session:${AREA_STORAGE_KEY}=${uuid(2)}`,
      'abort',
      'reset',
      'rendered=false',
      'rendered=true',
      'navigate /',
    ]);
  });

  it.each([
    ['Norway', '/settlementandverification/settlementbaseverification'],
    ['Exchange', '/monitor'],
    ['Administration', '/administration/user/registration'],
    ['Sweden', '/'],
  ])('after switching to %s it navigates to %s', async (name, target) => {
    const navigate = vi.fn();
    await switchArea(byName(name), {
      refreshToken: async () => undefined,
      abortAll: () => undefined,
      resetStores: () => undefined,
      navigate,
      wait: async () => undefined,
      storage: recordingStorage([]),
    });
    expect(navigate).toHaveBeenCalledWith(target);
  });

  it('stops (and logs) when the token refresh fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const navigate = vi.fn();
    const ok = await switchArea(byName('Sweden'), {
      refreshToken: async () => Promise.reject(new Error('expired')),
      abortAll: () => undefined,
      resetStores: () => undefined,
      navigate,
      storage: recordingStorage([]),
    });
    expect(ok).toBe(false);
    expect(useMarketStore.getState().area).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(log.mock.calls[0]?.[0]).toMatch(/session failed or expired/);
    log.mockRestore();
  });

  it('the initial selection sets and stores the area without refreshing or navigating', () => {
    const log: string[] = [];
    selectInitialArea(byName('Norway'), recordingStorage(log));
    expect(useMarketStore.getState()).toMatchObject({ timeZone: 'Europe/Oslo', rolesInArea: ['consumer'] });
    expect(log).toEqual([`local:${AREA_STORAGE_KEY}=${uuid(1)}`, `session:${AREA_STORAGE_KEY}=${uuid(1)}`]);
  });
});
