import { instantToWallClock, OPEN_END, wallClockToInstant } from '@railwatt/contracts';

/**
 * Dates in files as people in our markets read and type them: dd.MM.yyyy on the wall clock of the
 * area's time zone (product.md: dates typed without a time are midnight in the area's zone). Written
 * by exports, read back by imports (domain-workbook.ts), so a file round-trips exactly.
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An instant as the area's wall clock shows it: 'dd.MM.yyyy' at midnight, else 'dd.MM.yyyy HH:mm'
 * (':ss' when the seconds are not zero). Where that text would not read back as the same instant
 * (milliseconds, or the hour repeated when daylight saving ends) the exact ISO instant is written.
 */
const OPEN_END_MS = Date.parse(OPEN_END);

export function formatAreaInstant(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  // The open end (2070-01-01T00:00Z) is written as the picker's last day; the import reads that back
  // as the open end in every zone.
  if (ms === OPEN_END_MS) return formatDay(2070, 1, 1);
  const wall = new Date(instantToWallClock(ms, timeZone));
  const exact = new Date(ms).toISOString();
  if (wall.getUTCMilliseconds() !== 0 || wallClockToInstant(wall.getTime(), timeZone).getTime() !== ms) return exact;
  const [h, mi, s] = [wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds()];
  const date = formatDay(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate());
  if (h === 0 && mi === 0 && s === 0) return date;
  return `${date} ${pad(h)}:${pad(mi)}${s === 0 ? '' : `:${pad(s)}`}`;
}

const formatDay = (year: number, month: number, day: number) => `${pad(day)}.${pad(month)}.${pad(year, 4)}`;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DOTTED_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

/** A calendar day (no time zone): 'yyyy-MM-dd' as the contracts hold it -> 'dd.MM.yyyy'. */
export function formatAreaDay(isoDay: string): string {
  const m = ISO_DAY.exec(isoDay);
  return m ? formatDay(Number(m[1]), Number(m[2]), Number(m[3])) : isoDay;
}

/** 'dd.MM.yyyy' (as formatAreaDay writes it, or typed) -> 'yyyy-MM-dd'; undefined when it is not such a day. */
export function parseDottedDay(text: string): string | undefined {
  const m = DOTTED_DAY.exec(text.trim());
  if (!m) return undefined;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}
