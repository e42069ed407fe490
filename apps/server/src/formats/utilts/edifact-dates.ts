/**
 * EDIFACT dates (DTM, data element 2379 format codes) as UTC milliseconds. Supported formats:
 * 102 CCYYMMDD, 203 CCYYMMDDHHMM, 204 CCYYMMDDHHMMSS, 303 CCYYMMDDHHMMZZZ, 718 CCYYMMDD-CCYYMMDD,
 * 719 CCYYMMDDHHMM-CCYYMMDDHHMM, and 406 ZHHMM for a UTC offset. Nordic Ediel writes the offset
 * after the time (`202610010000?+00`, released); 303's ZZZ may be `+01`, `UTC`, `GMT` or `Z`. A time
 * without its own offset is read with the message's offset (DTM+735), else as UTC.
 */

/** An instant and the UTC offset (minutes) its wall clock was written in. */
export interface EdiInstant {
  ms: number;
  offset: number;
}

const ZONE = '([+-]\\d{2}|Z|UTC|GMT)';
const SINGLE: Record<string, RegExp> = {
  '102': /^(\d{4})(\d{2})(\d{2})()()()$/,
  '203': new RegExp(`^(\\d{4})(\\d{2})(\\d{2})(\\d{2})(\\d{2})()${ZONE}?$`),
  '204': new RegExp(`^(\\d{4})(\\d{2})(\\d{2})(\\d{2})(\\d{2})(\\d{2})${ZONE}?$`),
  '303': new RegExp(`^(\\d{4})(\\d{2})(\\d{2})(\\d{2})(\\d{2})()${ZONE}$`),
};
const RANGE: Record<string, { length: number; single: string }> = {
  '718': { length: 8, single: '102' },
  '719': { length: 12, single: '203' },
};

export const MIN_YEAR = 1970;
export const MAX_YEAR = 2070;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function zoneMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === '') return undefined;
  if (zone === 'Z' || zone === 'UTC' || zone === 'GMT') return 0;
  return (zone.startsWith('-') ? -1 : 1) * Number(zone.slice(1)) * 60;
}

/** A single date in format `format`; the default format follows from the length when none is given. */
export function parseEdiDate(value: string, format: string, defaultOffset: number): EdiInstant | undefined {
  const f = format || ({ 8: '102', 12: '203', 14: '204' } as Record<number, string>)[value.length] || '203';
  const m = SINGLE[f]?.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => (x ? Number(x) : 0)) as number[];
  if (y === undefined || mo === undefined || d === undefined || h === undefined || mi === undefined) return undefined;
  if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return undefined;
  // 24:00 is the end of the day some writers use for a period end.
  if (h > 24 || (h === 24 && (mi !== 0 || s !== 0)) || mi > 59 || (s ?? 0) > 59) return undefined;
  const offset = zoneMinutes(m[7]) ?? defaultOffset;
  return { ms: Date.UTC(y, mo - 1, d, h, mi, s) - offset * 60_000, offset };
}

/** A period: format 718/719 (the two ends written together, with or without a hyphen), start before end. */
export function parseEdiRange(
  value: string,
  format: string,
  defaultOffset: number,
): [EdiInstant, EdiInstant] | undefined {
  const r = RANGE[format || '719'];
  if (!r) return undefined;
  const zone = r.length === 12 ? '(?:[+-]\\d{2}|Z|UTC)?' : '';
  const m = new RegExp(`^(\\d{${r.length}}${zone})-?(\\d{${r.length}}${zone})$`).exec(value);
  if (!m) return undefined;
  const start = parseEdiDate(m[1] ?? '', r.single, defaultOffset);
  const end = parseEdiDate(m[2] ?? '', r.single, defaultOffset);
  return start !== undefined && end !== undefined && start.ms < end.ms ? [start, end] : undefined;
}

/** A UTC offset in format 406 (ZHHMM: `+0100`, `-0030`; `+01` is read too) as minutes. */
export function parseOffset(value: string): number | undefined {
  const m = /^([+-])(\d{2})(\d{2})?$/.exec(value.trim());
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? '0');
  return minutes <= 14 * 60 ? (m[1] === '-' ? -minutes : minutes) : undefined;
}

/**
 * Adds n calendar months to an instant on the wall clock of a fixed offset (a month of October in
 * Norway written +01 starts 2026-09-30T23:00Z and ends 2026-10-31T23:00Z).
 */
export function addMonths(ms: number, n: number, offsetMinutes: number): number {
  const wall = new Date(ms + offsetMinutes * 60_000);
  const moved = Date.UTC(
    wall.getUTCFullYear(),
    wall.getUTCMonth() + n,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  );
  return moved - offsetMinutes * 60_000;
}

/** Whole calendar months from start to end on the wall clock of the offset, or undefined. */
export function wholeMonths(start: number, end: number, offsetMinutes: number): number | undefined {
  const a = new Date(start + offsetMinutes * 60_000);
  const b = new Date(end + offsetMinutes * 60_000);
  const months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  return months > 0 && addMonths(start, months, offsetMinutes) === end ? months : undefined;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
