import type { ParsedPoint, ParsedSeries } from './format.js';

/**
 * Energy units the UTILTS and sdv readers accept, as the power of ten that turns a value into kWh.
 * Series leave those readers in kWh (ParsedSeries.unit 'kWh'), so the store never sees MWh.
 */
const KWH_EXPONENT: Record<string, number> = { WH: -3, KWH: 0, MWH: 3, GWH: 6 };

/** The power of ten for a unit code (KWH, MWH, kWh ...), or undefined when it is not an energy unit. */
export const kwhExponent = (unit: string): number | undefined => KWH_EXPONENT[unit.trim().toUpperCase()];

const DECIMAL = /^([+-]?)(\d*)(?:[.,](\d*))?$/;

/**
 * Reads a decimal number as written ("-12.5", ".5", "3,25") and multiplies it by 10^exponent on the
 * digits, so that 1.234 MWh is exactly 1234 kWh (no 1233.9999999999998). Undefined when invalid.
 */
export function parseDecimal(text: string, exponent = 0): number | undefined {
  const t = text.trim();
  if (t.length === 0 || t.length > 40) return undefined;
  const m = DECIMAL.exec(t);
  if (!m) return undefined;
  const sign = m[1] ?? '';
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  if (whole.length + fraction.length === 0) return undefined;
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let shifted: string;
  if (point <= 0) shifted = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) shifted = digits + '0'.repeat(point - digits.length);
  else shifted = `${digits.slice(0, point)}.${digits.slice(point)}`;
  const value = Number(sign + shifted);
  return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : undefined;
}

/** At most this many points per ParsedSeries item; longer series come in several chunks. */
export const MAX_POINTS_PER_CHUNK = 5000;

/** Splits points (already in time order) into series items of at most MAX_POINTS_PER_CHUNK points. */
export function chunkSeries(base: Omit<ParsedSeries, 'points'>, points: ParsedPoint[]): ParsedSeries[] {
  const out: ParsedSeries[] = [];
  for (let i = 0; i < points.length; i += MAX_POINTS_PER_CHUNK) {
    out.push({ ...base, points: points.slice(i, i + MAX_POINTS_PER_CHUNK) });
  }
  return out;
}
