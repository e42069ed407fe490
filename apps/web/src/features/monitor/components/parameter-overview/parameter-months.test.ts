// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { addMonths, defaultMonths, monthCount, monthOf, monthsInZone } from './parameter-months';

describe('parameter overview months', () => {
  it('defaults to January of this year up to next month, in the area’s zone', () => {
    expect(defaultMonths(new Date('2024-06-15T12:00:00Z'), 'Europe/Oslo')).toEqual({ from: '2024-01', to: '2024-07' });
    // In December next month is January of the next year.
    expect(defaultMonths(new Date('2024-12-10T12:00:00Z'), 'Europe/Oslo')).toEqual({ from: '2024-01', to: '2025-01' });
    // 23:30 UTC on New Year's Eve is already 2025 in Oslo.
    expect(defaultMonths(new Date('2024-12-31T23:30:00Z'), 'Europe/Oslo')).toEqual({ from: '2025-01', to: '2025-02' });
  });

  it('turns months into the instants they start and end at in the zone', () => {
    expect(monthsInZone('2024-01', '2024-03', 'Europe/Oslo')).toEqual({
      start: '2023-12-31T23:00:00Z',
      end: '2024-03-31T22:00:00Z',
    });
    expect(monthOf('2024-02-29T23:00:00Z', 'Europe/Oslo')).toBe('2024-03');
  });

  it('counts and steps months across years', () => {
    expect(addMonths('2024-12', 1)).toBe('2025-01');
    expect(addMonths('2024-01', -1)).toBe('2023-12');
    expect(monthCount('2024-11', '2025-02')).toBe(4);
    expect(monthCount('2024-03', '2024-02')).toBe(0);
  });
});
