import { wallClockToInstant } from '@railwatt/contracts';

/**
 * Dates in the forms are calendar days ('YYYY-MM-DD'); the server takes instants. A day starts at
 * midnight in the selected area's time zone (DOMAIN.md: days are in the area's zone), so 2024-03-31
 * in Europe/Oslo is 2024-03-30T23:00:00Z. The conversion is the contracts' one, which the server's
 * workbook import uses too.
 */
export function dayStartInZone(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return wallClockToInstant(Date.UTC(y, m - 1, d), timeZone)
    .toISOString()
    .replace('.000Z', 'Z');
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in a time zone. */
export function dayInZone(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** 'dd.MM.yyyy' (the spec's date format) or ISO 'YYYY-MM-DD' typed by a user, to 'YYYY-MM-DD'. */
export function parseDayInput(value: string): string | null {
  const trimmed = value.trim();
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  let y: number, m: number, d: number;
  if (dotted) [d, m, y] = [Number(dotted[1]), Number(dotted[2]), Number(dotted[3])];
  else if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** 'YYYY-MM-DD' shown as the spec's 'dd.MM.yyyy'. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const [y, m, d] = day.split('-');
  return `${d}.${m}.${y}`;
}
