import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@railwatt/contracts';
import {
  clockChangesOn,
  formatAmount,
  formatDate,
  formatDateHour,
  formatDateTime,
  formatDay,
  formatEnergy,
  formatHour,
  formatKilobytes,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  minorUnitDigits,
  numberLocale,
} from './format';

/** Intl writes narrow and non-breaking spaces, and nb/sv/fi a true minus: compare with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ').replace(/\u2212/g, '-');

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

describe("numbers in the user's language", () => {
  // 1234567.891 with at most 4 decimals, per language (es groups from five digits: CLDR's rule).
  const expected: Record<
    (typeof LANGUAGES)[number],
    { number: string; small: string; amount: string; percent: string }
  > = {
    en: { number: '1,234,567.891', small: '1,234.5', amount: 'NOK 1,234,567.89', percent: '12.35%' },
    da: { number: '1.234.567,891', small: '1.234,5', amount: '1.234.567,89 NOK', percent: '12,35 %' },
    nb: { number: '1 234 567,891', small: '1 234,5', amount: '1 234 567,89 NOK', percent: '12,35 %' },
    sv: { number: '1 234 567,891', small: '1 234,5', amount: '1 234 567,89 NOK', percent: '12,35 %' },
    fi: { number: '1 234 567,891', small: '1 234,5', amount: '1 234 567,89 NOK', percent: '12,35 %' },
    es: { number: '1.234.567,891', small: '1234,5', amount: '1.234.567,89 NOK', percent: '12,35 %' },
  };
  for (const language of LANGUAGES) {
    it(`${language}: separators, at most 4 decimals, amounts in the minor unit, percentages with 2`, () => {
      const want = expected[language];
      expect(plain(formatNumber(1234567.891, language))).toBe(want.number);
      expect(plain(formatNumber(1234.5, language))).toBe(want.small);
      expect(plain(formatAmount(1234567.891, 'NOK', language))).toBe(want.amount);
      expect(plain(formatPercent(12.345, language))).toBe(want.percent);
    });
  }

  it('drops trailing zeros and rounds to 4 decimals', () => {
    expect(formatNumber(2, 'en')).toBe('2');
    expect(formatNumber(2.5, 'en')).toBe('2.5');
    expect(formatNumber(0.123456, 'en')).toBe('0.1235');
    expect(formatNumber(-0.00001, 'en')).toBe('0');
  });

  it('shows amounts with 2 decimals in each area currency, with or without its code', () => {
    for (const currency of ['NOK', 'SEK', 'DKK', 'CHF', 'EUR']) expect(minorUnitDigits(currency)).toBe(2);
    expect(plain(formatAmount(1000, 'SEK', 'sv'))).toBe('1 000,00 SEK');
    expect(plain(formatAmount(-12.5, 'DKK', 'da'))).toBe('-12,50 DKK');
    expect(plain(formatAmount(0.004, 'EUR', 'fi'))).toBe('0,00 EUR');
    expect(plain(formatAmount(99.999, 'CHF', 'en'))).toBe('CHF 100.00');
    expect(plain(formatMoney(1234.5, 'NOK', 'nb'))).toBe('1 234,50');
    expect(formatMoney(1234.5, 'EUR', 'en')).toBe('1,234.50');
  });

  it('shows energies with their unit and prices per MWh with their currency', () => {
    expect(plain(formatEnergy(1234.5, 'kWh', 'nb'))).toBe('1 234,5 kWh');
    expect(formatEnergy(0.25, 'MWh', 'en')).toBe('0.25 MWh');
    expect(plain(formatPrice(45.12, 'NOK', 'da'))).toBe('45,12 NOK/MWh');
  });

  it('shows file sizes in kB with two decimals (bytes / 1000)', () => {
    expect(formatKilobytes(1_000_000, 'en')).toBe('1,000.00');
    expect(plain(formatKilobytes(1234, 'nb'))).toBe('1,23');
  });

  it('shows nothing for a missing figure, and reads an unknown language as English', () => {
    expect(formatNumber(null, 'en')).toBe('');
    expect(formatAmount(undefined, 'NOK', 'nb')).toBe('');
    expect(formatEnergy(Number.NaN, 'kWh', 'en')).toBe('');
    expect(numberLocale('xx')).toBe('en-GB');
    expect(numberLocale('nb-NO')).toBe('nb-NO');
  });
});

describe('days and hours', () => {
  it('shows a calendar day (a public holiday) as dd.MM.yyyy', () => {
    expect(formatDay('2026-12-25')).toBe('25.12.2026');
    expect(formatDay(null)).toBe('');
  });

  it('gives the two 02:00 hours of 25 October 2026 in Oslo their offsets', () => {
    // 00:00Z is 02:00 summer time, 01:00Z is 02:00 again in winter time.
    expect(formatHour('2026-10-25T00:00:00Z', 'Europe/Oslo')).toBe('02:00 +02:00');
    expect(formatHour('2026-10-25T01:00:00Z', 'Europe/Oslo')).toBe('02:00 +01:00');
    expect(formatHour('2026-10-24T22:00:00Z', 'Europe/Oslo')).toBe('00:00 +02:00');
    expect(formatHour('2026-10-25T22:00:00Z', 'Europe/Oslo')).toBe('23:00 +01:00');
    expect(formatDateHour('2026-10-25T01:00:00Z', 'Europe/Oslo')).toBe('25.10.2026 02:00 +01:00');
    expect(clockChangesOn('2026-10-25T12:00:00Z', 'Europe/Oslo')).toBe(true);
  });

  it('marks 29 March 2026 in Oslo, whose 02:00 hour does not exist', () => {
    expect(formatHour('2026-03-29T00:00:00Z', 'Europe/Oslo')).toBe('01:00 +01:00');
    expect(formatHour('2026-03-29T01:00:00Z', 'Europe/Oslo')).toBe('03:00 +02:00');
    expect(formatDateHour('2026-03-28T23:00:00Z', 'Europe/Oslo')).toBe('29.03.2026 00:00 +01:00');
  });

  it('leaves the offset out on days without a clock change, and in zones without summer time', () => {
    expect(formatHour('2026-10-24T00:00:00Z', 'Europe/Oslo')).toBe('02:00');
    expect(formatHour('2026-10-26T01:00:00Z', 'Europe/Oslo')).toBe('02:00');
    expect(formatDateHour('2026-06-01T10:00:00Z', 'Europe/Helsinki')).toBe('01.06.2026 13:00');
    expect(formatHour('2026-10-25T01:00:00Z', 'UTC')).toBe('01:00');
    expect(formatHour(null, 'Europe/Oslo')).toBe('');
  });
});
