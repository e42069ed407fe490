import { FIXED_RESOLUTION_MS, OPEN_END, OPEN_START, type Resolution } from '@railwatt/contracts';

/**
 * Period boundaries in time-series tables (docs/formats/timeseries-tables.md) and Nordpool files:
 * wall-clock times of the area's zone ('dd.MM.yyyy HH:mm', also 'yyyy-MM-dd HH:mm' and date cells)
 * or exact ISO instants with an offset. A wall-clock time can name no instant (the hour skipped when
 * daylight saving starts) or two (the hour repeated when it ends); the readers pick among the
 * candidates from the row before (wallCandidates, chooseStart, chooseEnd), the writer writes the
 * exact instant wherever the wall clock is ambiguous, so an export always reads back exactly.
 *
 * The contracts' instantToWallClock builds an Intl.DateTimeFormat per call (about 50 us); a file of a
 * year of 5-minute rows asks for offsets a million times, so offsets here use one formatter per zone
 * and a cache per quarter hour (every zone changes its offset on a quarter hour).
 */
export type TimeCellValue = string | number | boolean | Date | null | undefined;

/** A time read from a cell: an exact instant, or a wall-clock time written as if it were UTC. */
export type ReadTime = { exact: number } | { wall: number };

const EARLIEST = Date.parse(OPEN_START);
const LATEST = Date.parse(OPEN_END);
const QUARTER = 15 * 60_000;
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** How far the zone's wall clock is ahead of UTC at the instant, in milliseconds. */
export function zoneOffset(utcMs: number, timeZone: string): number {
  const bucket = Math.floor(utcMs / QUARTER) * QUARTER;
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  const known = zone.get(bucket);
  if (known !== undefined) return known;
  const parts = formatter(timeZone).formatToParts(new Date(bucket));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const offset = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - bucket;
  if (zone.size > 200_000) zone.clear();
  zone.set(bucket, offset);
  return offset;
}

/** What the zone's wall clock shows at the instant, written as if it were UTC. */
export const toWall = (utcMs: number, timeZone: string): number => utcMs + zoneOffset(utcMs, timeZone);

/**
 * The instants at which the zone's wall clock shows `wall`, earliest first: one, none (skipped when
 * daylight saving starts) or two (repeated when it ends). Not strict: also the instants the wall time
 * would name under the offset in force a day before or after (03:00 summer time on the night the
 * clock goes back, which the clock itself shows as 02:00): an end written as the wall time it would
 * have had, as people write the last period before the change.
 */
export function wallCandidates(wall: number, timeZone: string, strict = true): number[] {
  const found = new Set<number>();
  for (const probe of [wall - DAY, wall, wall + DAY]) {
    const instant = wall - zoneOffset(probe, timeZone);
    if (!strict || toWall(instant, timeZone) === wall) found.add(instant);
  }
  return [...found].sort((a, b) => a - b);
}

/** The instant of a wall time (midnights and month starts): the first the clock shows, else the first it would name. */
const wallToInstant = (wall: number, timeZone: string): number =>
  wallCandidates(wall, timeZone)[0] ?? wallCandidates(wall, timeZone, false)[0]!;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

const inRange = (ms: number) => Number.isFinite(ms) && ms >= EARLIEST && ms <= LATEST;

/** A wall time from its parts, or undefined when the parts name no calendar time. */
function wallFrom(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return wall;
}

/**
 * Reads a time cell: a date cell (a spreadsheet's wall-clock time), 'dd.MM.yyyy[ HH:mm[:ss]]',
 * 'yyyy-MM-dd[ HH:mm[:ss]]' (wall clock) or an ISO instant with Z or an offset. Undefined when the
 * cell is none of these or lies outside 1970-2070.
 */
export function readTime(value: TimeCellValue): ReadTime | undefined {
  if (value instanceof Date) {
    const wall = Math.round(value.getTime() / 1000) * 1000;
    return inRange(wall) ? { wall } : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (ISO_INSTANT.test(text)) {
    const exact = Date.parse(text);
    return inRange(exact) ? { exact } : undefined;
  }
  let parts: number[] | undefined;
  let m = ISO_LOCAL.exec(text);
  if (m) parts = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) => Number(p ?? 0));
  else if ((m = DOTTED.exec(text))) parts = [m[3], m[2], m[1], m[4], m[5], m[6]].map((p) => Number(p ?? 0));
  if (!parts) return undefined;
  const wall = wallFrom(...(parts as [number, number, number, number, number, number]));
  return wall !== undefined && inRange(wall) ? { wall } : undefined;
}

/**
 * The instant a period starts: an exact time as it is; a wall time that names two instants is the
 * first one not before the previous period's end (so the repeated hour reads as the second pass when
 * the first was the row before). Undefined for a wall time the clock skips.
 */
export function chooseStart(time: ReadTime, previousEnd: number | undefined, timeZone: string): number | undefined {
  if ('exact' in time) return time.exact;
  const candidates = wallCandidates(time.wall, timeZone);
  if (previousEnd !== undefined) {
    const next = candidates.find((c) => c >= previousEnd);
    if (next !== undefined) return next;
  }
  return candidates[0];
}

/** The instant a period ends: the first candidate after the start that makes a period of a known resolution. */
export function chooseEnd(
  time: ReadTime,
  start: number,
  timeZone: string,
): { end: number; resolution: Resolution } | undefined {
  // The instants the clock shows first, then those the wall time would name under the neighbouring offset.
  const candidates =
    'exact' in time
      ? [time.exact]
      : [...new Set([...wallCandidates(time.wall, timeZone), ...wallCandidates(time.wall, timeZone, false)])];
  for (const end of candidates) {
    const resolution = end > start ? resolutionOf(start, end, timeZone) : undefined;
    if (resolution) return { end, resolution };
  }
  return undefined;
}

/**
 * The resolution of the period [start, end): 5 minutes, 15 minutes and an hour by length; a day, a
 * month and a year on the area's calendar, starting at its midnight (a day of 23 or 25 hours is a day).
 */
export function resolutionOf(start: number, end: number, timeZone: string): Resolution | undefined {
  const length = end - start;
  for (const [resolution, ms] of Object.entries(FIXED_RESOLUTION_MS)) {
    if (length === ms) return resolution as Resolution;
  }
  const wall = new Date(toWall(start, timeZone));
  if (wall.getUTCHours() !== 0 || wall.getUTCMinutes() !== 0 || wall.getUTCSeconds() !== 0) return undefined;
  const [y, m, d] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  if (wallToInstant(Date.UTC(y, m, d + 1), timeZone) === end) return 'P1D';
  if (d === 1 && wallToInstant(Date.UTC(y, m + 1, 1), timeZone) === end) return 'P1M';
  if (d === 1 && m === 0 && wallToInstant(Date.UTC(y + 1, 0, 1), timeZone) === end) return 'P1Y';
  return undefined;
}

/** The end of the period of the given resolution that starts at `start`. */
export function periodEnd(start: number, resolution: Resolution, timeZone: string): number {
  const fixed = FIXED_RESOLUTION_MS[resolution];
  if (fixed !== undefined) return start + fixed;
  const wall = new Date(toWall(start, timeZone));
  const [y, m, d] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  const next =
    resolution === 'P1D' ? Date.UTC(y, m, d + 1) : resolution === 'P1M' ? Date.UTC(y, m + 1, d) : Date.UTC(y + 1, m, d);
  return wallToInstant(next, timeZone);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as ISO 8601 with Z and without milliseconds when they are zero (ParsedPoint.start). */
export const isoInstant = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * An instant as the area's wall clock shows it, 'dd.MM.yyyy HH:mm' (':ss' when the seconds are not
 * zero), or the exact ISO instant where that text would not read back as this instant (the repeated
 * hour, milliseconds).
 */
export function formatTableTime(ms: number, timeZone: string): string {
  const wall = toWall(ms, timeZone);
  const candidates = wallCandidates(wall, timeZone);
  if (ms % 1000 !== 0 || candidates.length !== 1 || candidates[0] !== ms) return isoInstant(ms);
  const w = new Date(wall);
  const date = `${pad(w.getUTCDate())}.${pad(w.getUTCMonth() + 1)}.${pad(w.getUTCFullYear(), 4)}`;
  const seconds = w.getUTCSeconds() === 0 ? '' : `:${pad(w.getUTCSeconds())}`;
  return `${date} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}${seconds}`;
}

/** A wall time for messages: 'dd.MM.yyyy HH:mm'. */
export function formatWall(wall: number): string {
  const w = new Date(wall);
  return `${pad(w.getUTCDate())}.${pad(w.getUTCMonth() + 1)}.${pad(w.getUTCFullYear(), 4)} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

const NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/** A number cell, or text with a decimal point or comma ('1,5', '-0.25', '2e3'); undefined otherwise or when not finite. */
export function readNumber(value: TimeCellValue): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}
