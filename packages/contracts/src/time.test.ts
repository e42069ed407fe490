import { describe, expect, it } from 'vitest';
import {
  dayEndInZone,
  dayInZone,
  dayRangeInZone,
  dayStartInZone,
  OPEN_END,
  OPEN_START,
  wallClockToInstant,
} from './time.js';

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

describe('calendar days typed without a time', () => {
  it('start at midnight in the area time zone, in winter, summer and on the day of a change', () => {
    expect(dayStartInZone('2024-01-15', 'Europe/Oslo')).toBe('2024-01-14T23:00:00Z');
    expect(dayStartInZone('2024-07-01', 'Europe/Oslo')).toBe('2024-06-30T22:00:00Z');
    expect(dayStartInZone('2024-03-31', 'Europe/Oslo')).toBe('2024-03-30T23:00:00Z');
    expect(dayStartInZone('2024-07-01', 'Europe/Helsinki')).toBe('2024-06-30T21:00:00Z');
    expect(dayStartInZone('2024-07-01', 'UTC')).toBe('2024-07-01T00:00:00Z');
    expect(() => dayStartInZone('01.07.2024', 'Europe/Oslo')).toThrow(RangeError);
  });

  it('read back as the same day in that zone', () => {
    expect(dayInZone('2024-06-30T22:00:00Z', 'Europe/Oslo')).toBe('2024-07-01');
    expect(dayInZone('2024-06-30T22:00:00Z', 'UTC')).toBe('2024-06-30');
  });

  it('make a range whose empty end is open (the fixed end of time, not midnight of 2070 in the zone)', () => {
    expect(dayRangeInZone('2024-05-10', null, 'Europe/Oslo')).toEqual({
      start: '2024-05-09T22:00:00Z',
      end: OPEN_END,
    });
    expect(OPEN_END).toBe('2070-01-01T00:00:00Z');
    // The picker's last day is the end of time too, not 2069-12-31T23:00Z.
    expect(dayEndInZone('2070-01-01', 'Europe/Oslo')).toBe(OPEN_END);
    expect(dayEndInZone('2069-12-31', 'Europe/Oslo')).toBe('2069-12-30T23:00:00Z');
    expect(dayRangeInZone(undefined, '2024-06-01', 'Europe/Oslo')).toEqual({
      start: OPEN_START,
      end: '2024-05-31T22:00:00Z',
    });
  });
});

describe('nextPeriodStart', () => {
  it('steps fixed resolutions and the area calendar, with 23- and 25-hour days', async () => {
    const { nextPeriodStart } = await import('./time.js');
    expect(nextPeriodStart('2026-10-01T00:00:00Z', 'PT5M', 'Europe/Oslo').toISOString()).toBe(
      '2026-10-01T00:05:00.000Z',
    );
    // Spring: Oslo's 29 March 2026 has 23 hours; autumn: 25 October 2026 has 25.
    expect(nextPeriodStart('2026-03-28T23:00:00Z', 'P1D', 'Europe/Oslo').toISOString()).toBe(
      '2026-03-29T22:00:00.000Z',
    );
    expect(nextPeriodStart('2026-10-24T22:00:00Z', 'P1D', 'Europe/Oslo').toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    );
    expect(nextPeriodStart('2026-09-30T22:00:00Z', 'P1M', 'Europe/Oslo').toISOString()).toBe(
      '2026-10-31T23:00:00.000Z',
    );
    expect(nextPeriodStart('2025-12-31T23:00:00Z', 'P1Y', 'Europe/Oslo').toISOString()).toBe(
      '2026-12-31T23:00:00.000Z',
    );
  });
});
