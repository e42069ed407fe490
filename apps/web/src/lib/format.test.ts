import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

describe('date formats in the area time zone', () => {
  it('shows a day as dd.MM.yyyy in the given zone, not UTC', () => {
    expect(formatDate('2024-03-31T22:30:00Z', 'Europe/Oslo')).toBe('01.04.2024');
  });
  it('shows the open end (2070) and missing or invalid instants as empty', () => {
    expect(formatDate('2070-01-01T00:00:00Z', 'Europe/Oslo')).toBe('');
    expect(formatDate(null, 'Europe/Oslo')).toBe('');
    expect(formatDateTime('nonsense', 'Europe/Oslo')).toBe('');
  });
  it('shows an instant as dd.MM.yyyy HH:mm on a 24-hour clock', () => {
    expect(formatDateTime('2024-06-01T12:05:00Z', 'Europe/Helsinki')).toBe('01.06.2024 15:05');
  });
});
