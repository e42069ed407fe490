// @vitest-environment node
import { MODAL_AUTO_CLOSE_MS } from '@railwatt/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODAL_TYPES, useModalStore } from './modal-store';
import { resetAllStores } from './reset-registry';

beforeEach(() => {
  vi.useFakeTimers();
  useModalStore.getState().close();
});
afterEach(() => vi.useRealTimers());

describe('modal store (product.md §4)', () => {
  it('knows every modal type of the spec', () => {
    // Written out on purpose: this is the spec's list, which the store's MODAL_TYPES must match.
    expect(MODAL_TYPES).toEqual([
      'none',
      'confirmation',
      'progress',
      'error',
      'entities_upload',
      'timeseries_upload',
      'organisation_upload',
      'serviceaccount_upload',
      'userConfirmation',
      'userConfirmationNew',
      'setactive',
      'setinactive',
      'retire',
      'approve',
      'unapprove',
    ]);
  });

  it.each(['confirmation', 'error', 'progress'] as const)('%s closes by itself after 3000 ms', (type) => {
    useModalStore.getState().open({ type, message: 'hello', redirectTo: '/fleet/overview' });
    vi.advanceTimersByTime(MODAL_AUTO_CLOSE_MS - 1);
    expect(useModalStore.getState().modal.type).toBe(type);
    vi.advanceTimersByTime(1);
    expect(useModalStore.getState().modal).toEqual({ type: 'none' });
  });

  it.each(['userConfirmation', 'entities_upload', 'setactive'] as const)('%s stays open until closed', (type) => {
    useModalStore.getState().open({ type });
    vi.advanceTimersByTime(10_000);
    expect(useModalStore.getState().modal.type).toBe(type);
    useModalStore.getState().close();
    expect(useModalStore.getState().modal.type).toBe('none');
  });

  it('a new modal restarts the timer; closing resets every field to none', () => {
    useModalStore.getState().open({ type: 'confirmation' });
    vi.advanceTimersByTime(2000);
    useModalStore.getState().open({ type: 'error', message: 'bad', storeKey: 'fleet', parentPage: 'fleetOverview' });
    vi.advanceTimersByTime(2000);
    expect(useModalStore.getState().modal.type).toBe('error');
    vi.advanceTimersByTime(1000);
    expect(useModalStore.getState().modal).toEqual({ type: 'none' });
  });

  it('an area switch (reset of all stores) closes the modal', () => {
    useModalStore.getState().open({ type: 'userConfirmation' });
    resetAllStores();
    expect(useModalStore.getState().modal.type).toBe('none');
  });
});
