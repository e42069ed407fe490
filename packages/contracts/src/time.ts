/**
 * Wall-clock times in an IANA time zone, shared by the server (dates typed into workbooks) and the web
 * (calendar days in forms): both read days in the selected area's zone. Written with Intl to avoid a
 * time-zone library.
 */
import { DEFAULT_TIME_RANGE } from './constants.js';

/** How far the zone's wall clock is ahead of UTC at the given instant, in milliseconds. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * What the wall clock of `timeZone` shows at the instant `utcMs`, written as if it were UTC (the
 * inverse of wallClockToInstant): 2024-03-30T23:00:00Z in Europe/Oslo is Date.UTC(2024, 2, 31, 0, 0).
 */
export function instantToWallClock(utcMs: number, timeZone: string): number {
  return utcMs + zoneOffsetMs(utcMs, timeZone);
}

/**
 * The instant at which the wall clock of `timeZone` shows the given wall time, written as if it were
 * UTC (`Date.UTC(year, month - 1, day, hour, minute, second)`): 2024-03-31 00:00 in Europe/Oslo is
 * 2024-03-30T23:00:00Z.
 */
export function wallClockToInstant(wallUtcMs: number, timeZone: string): Date {
  const first = wallUtcMs - zoneOffsetMs(wallUtcMs, timeZone);
  // A second pass settles instants next to a daylight-saving change.
  return new Date(wallUtcMs - zoneOffsetMs(first, timeZone));
}

/**
 * The end of an open-ended validity range: a fixed instant, never a day in a zone. An empty "Valid to"
 * means this; turning the day 2070-01-01 into midnight Oslo instead left a one-hour segment
 * [2069-12-31T23:00Z, 2070-01-01T00:00Z) with the old state behind every change.
 */
export const OPEN_END: string = DEFAULT_TIME_RANGE.end;
/** The start of time for a range without a "from" (DEFAULT_TIME_RANGE.start). */
export const OPEN_START: string = DEFAULT_TIME_RANGE.start;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A calendar day typed without a time ('YYYY-MM-DD') as the instant it starts: midnight in the area's
 * time zone (DOMAIN.md: days are in the area's zone). 2024-03-31 in Europe/Oslo is 2024-03-30T23:00:00Z.
 * Every date input of the web and every day read by the server goes through this one function.
 */
export function dayStartInZone(day: string, timeZone: string): string {
  const match = DAY.exec(day);
  if (!match) throw new RangeError(`Not a calendar day: ${day}`);
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  return wallClockToInstant(Date.UTC(y, m - 1, d), timeZone)
    .toISOString()
    .replace('.000Z', 'Z');
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in a time zone. */
export function dayInZone(instant: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(typeof instant === 'string' ? new Date(instant) : instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The last day a date picker offers (product.md §5: max 2070): as an end it is the end of time. */
export const OPEN_END_DAY = '2070-01-01';

/**
 * A "to" day (exclusive) as an instant: its midnight in the area's zone, except that no day and the
 * picker's last day (2070-01-01) are the open end. Midnight of 2070-01-01 in Oslo is
 * 2069-12-31T23:00Z, one hour short of the end of time, which left the old state in that hour.
 */
export function dayEndInZone(day: string | null | undefined, timeZone: string): string {
  return !day || day >= OPEN_END_DAY ? OPEN_END : dayStartInZone(day, timeZone);
}

/**
 * A range of days from a form or filter as instants in the area's zone: `from` starts at its midnight,
 * `to` (exclusive) at its midnight; an empty end is open (OPEN_END, dayEndInZone), an empty start is
 * OPEN_START.
 */
export function dayRangeInZone(
  from: string | null | undefined,
  to: string | null | undefined,
  timeZone: string,
): { start: string; end: string } {
  return {
    start: from ? dayStartInZone(from, timeZone) : OPEN_START,
    end: dayEndInZone(to, timeZone),
  };
}

/**
 * The start of the next period after `start` at a resolution: fixed steps for 5, 15 and 60 minutes,
 * the area's calendar for days, months and years (so a day is 23, 24 or 25 hours long).
 */
export function nextPeriodStart(
  start: string | Date,
  resolution: 'PT5M' | 'PT15M' | 'PT1H' | 'P1D' | 'P1M' | 'P1Y',
  timeZone: string,
): Date {
  const ms = typeof start === 'string' ? Date.parse(start) : start.getTime();
  if (resolution === 'PT5M') return new Date(ms + 5 * 60_000);
  if (resolution === 'PT15M') return new Date(ms + 15 * 60_000);
  if (resolution === 'PT1H') return new Date(ms + 60 * 60_000);
  const wall = new Date(instantToWallClock(ms, timeZone));
  const [y, m, d] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  const [h, min] = [wall.getUTCHours(), wall.getUTCMinutes()];
  const next =
    resolution === 'P1D'
      ? Date.UTC(y, m, d + 1, h, min)
      : resolution === 'P1M'
        ? Date.UTC(y, m + 1, d, h, min)
        : Date.UTC(y + 1, m, d, h, min);
  return wallClockToInstant(next, timeZone);
}
