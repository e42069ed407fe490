import { describe, expect, it } from 'vitest';
import { areaDays } from './chunks.js';

describe('areaDays', () => {
  it('splits a month into area days, 23 hours on the day clocks go forward', () => {
    // March 2024 in Oslo: 2024-02-29T23:00Z .. 2024-03-31T22:00Z; summer time starts on 31 March.
    const chunks = areaDays('2024-02-29T23:00:00Z', '2024-03-31T22:00:00Z', 'Europe/Oslo');
    expect(chunks).toHaveLength(31);
    expect(chunks[0]).toEqual({
      start: '2024-02-29T23:00:00.000Z',
      end: '2024-03-01T23:00:00.000Z',
      day: '2024-03-01',
    });
    expect(chunks[30]).toEqual({
      start: '2024-03-30T23:00:00.000Z',
      end: '2024-03-31T22:00:00.000Z',
      day: '2024-03-31',
    });
  });

  it('clips the first and last chunk to the period', () => {
    const chunks = areaDays('2024-01-01T12:00:00Z', '2024-01-02T06:00:00Z', 'UTC');
    expect(chunks).toEqual([
      { start: '2024-01-01T12:00:00.000Z', end: '2024-01-02T00:00:00.000Z', day: '2024-01-01' },
      { start: '2024-01-02T00:00:00.000Z', end: '2024-01-02T06:00:00.000Z', day: '2024-01-02' },
    ]);
  });
});
