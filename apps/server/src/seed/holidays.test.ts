import { describe, expect, it } from 'vitest';
import { easterSunday, publicHolidays } from './holidays.js';

describe('public holidays of the demo data', () => {
  it('finds Easter Sunday', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
  });

  it('gives each country its own days, moving feasts included', () => {
    const norway = publicHolidays('norway', 2026);
    expect(norway.find((h) => h.name === 'Grunnlovsdag')?.date).toBe('2026-05-17');
    expect(norway.find((h) => h.name === 'Kristi himmelfartsdag')?.date).toBe('2026-05-14');
    expect(publicHolidays('sweden', 2026).find((h) => h.name === 'Midsommardagen')?.date).toBe('2026-06-20');
    expect(publicHolidays('finland', 2026).find((h) => h.name === 'Pyhäinpäivä')?.date).toBe('2026-10-31');
    expect(publicHolidays('netherlands', 2025).find((h) => h.name === 'Koningsdag')?.date).toBe('2025-04-26');
    expect(publicHolidays('portugal', 2026).find((h) => h.name === 'Corpo de Deus')?.date).toBe('2026-06-04');
    const dates = norway.map((h) => h.date);
    expect(dates).toEqual([...dates].sort());
  });
});
