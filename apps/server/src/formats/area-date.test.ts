import { describe, expect, it } from 'vitest';
import { formatAreaDay, formatAreaInstant, parseDottedDay } from './area-date.js';

describe('dates in files', () => {
  it('writes instants as dd.MM.yyyy on the area wall clock, with the time only when not midnight', () => {
    expect(formatAreaInstant('2024-03-14T23:00:00Z', 'Europe/Oslo')).toBe('15.03.2024');
    expect(formatAreaInstant('2024-01-01T00:00:00Z', 'Europe/Oslo')).toBe('01.01.2024 01:00');
    expect(formatAreaInstant('2024-07-01T10:15:30Z', 'Europe/Helsinki')).toBe('01.07.2024 13:15:30');
    expect(formatAreaInstant('2024-01-01T00:00:00Z', 'UTC')).toBe('01.01.2024');
  });

  it('writes the exact instant where the wall clock is ambiguous (the hour repeated when daylight saving ends)', () => {
    // 2024-10-27 02:30 happens twice in Oslo; the second one is 01:30Z.
    const second = '2024-10-27T01:30:00.000Z';
    const first = '2024-10-27T00:30:00.000Z';
    const written = [formatAreaInstant(first, 'Europe/Oslo'), formatAreaInstant(second, 'Europe/Oslo')];
    expect(written).toContain('27.10.2024 02:30');
    expect(written.filter((w) => w.endsWith('Z'))).toHaveLength(1);
  });

  it('writes and reads calendar days as dd.MM.yyyy', () => {
    expect(formatAreaDay('2024-12-24')).toBe('24.12.2024');
    expect(parseDottedDay('24.12.2024')).toBe('2024-12-24');
    expect(parseDottedDay('1.2.2024')).toBe('2024-02-01');
    expect(parseDottedDay('31.02.2024')).toBeUndefined();
    expect(parseDottedDay('2024-12-24')).toBeUndefined();
  });
});
