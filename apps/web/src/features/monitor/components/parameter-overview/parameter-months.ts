import { dayInZone, dayStartInZone } from '@railwatt/contracts';

/** A calendar month 'YYYY-MM' of the area's calendar. */
export type Month = string;

const pad = (n: number) => String(n).padStart(2, '0');

/** The month `n` months after `month` (before it for a negative `n`). */
export function addMonths(month: Month, n: number): Month {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

/** How many months `from` to `to` spans, both included (0 or less when `to` comes first). */
export function monthCount(from: Month, to: Month): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

/**
 * The overview's default months (issue 10 item 1): January of the current year up to and including
 * the next month, in the area's zone (in December that reaches January of the next year).
 */
export function defaultMonths(now: Date, timeZone: string): { from: Month; to: Month } {
  const current = dayInZone(now, timeZone).slice(0, 7);
  return { from: `${current.slice(0, 4)}-01`, to: addMonths(current, 1) };
}

/** The months `from` to `to` (both included) as the instants [start, end) in the area's zone. */
export function monthsInZone(from: Month, to: Month, timeZone: string): { start: string; end: string } {
  return {
    start: dayStartInZone(`${from}-01`, timeZone),
    end: dayStartInZone(`${addMonths(to, 1)}-01`, timeZone),
  };
}

/** The month an instant falls in, in the area's zone. */
export const monthOf = (instant: string, timeZone: string): Month => dayInZone(instant, timeZone).slice(0, 7);

/** A month as the overview's column header shows it: MM.yyyy. */
export const monthLabel = (month: Month): string => `${month.slice(5, 7)}.${month.slice(0, 4)}`;

/** A month as the month pickers hold it (the first day, 'YYYY-MM-DD'), and back. */
export const monthToPicker = (month: Month): string => `${month}-01`;
export const pickerToMonth = (value: string | null): Month | undefined => value?.slice(0, 7) || undefined;
