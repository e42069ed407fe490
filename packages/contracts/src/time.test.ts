import { describe, expect, it } from 'vitest';
import { wallClockToInstant } from './time.js';

const at = (timeZone: string, y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  wallClockToInstant(Date.UTC(y, mo - 1, d, h, mi, s), timeZone).toISOString();

describe('wall-clock time in a time zone to an instant', () => {
  it('applies the winter and the summer offset of the zone', () => {
    expect(at('Europe/Oslo', 2024, 1, 15)).toBe('2024-01-14T23:00:00.000Z');
    expect(at('Europe/Oslo', 2024, 7, 1)).toBe('2024-06-30T22:00:00.000Z');
    expect(at('Europe/Helsinki', 2024, 7, 1, 12, 30, 15)).toBe('2024-07-01T09:30:15.000Z');
  });

  it('settles on the right side of a daylight-saving change', () => {
    // Europe/Oslo moves to summer time at 02:00 on 2024-03-31: midnight is still winter time.
    expect(at('Europe/Oslo', 2024, 3, 31)).toBe('2024-03-30T23:00:00.000Z');
    expect(at('Europe/Oslo', 2024, 3, 31, 3)).toBe('2024-03-31T01:00:00.000Z');
    // Back to winter time at 03:00 on 2024-10-27.
    expect(at('Europe/Oslo', 2024, 10, 27, 12)).toBe('2024-10-27T11:00:00.000Z');
  });

  it('keeps UTC and zones west of Greenwich', () => {
    expect(at('UTC', 2024, 2, 29, 6)).toBe('2024-02-29T06:00:00.000Z');
    expect(at('Atlantic/Azores', 2024, 1, 1)).toBe('2024-01-01T01:00:00.000Z');
  });

  it('keeps milliseconds of the wall time', () => {
    expect(wallClockToInstant(Date.UTC(2024, 0, 1, 0, 0, 0, 250), 'Europe/Oslo').toISOString()).toBe(
      '2023-12-31T23:00:00.250Z',
    );
  });
});
