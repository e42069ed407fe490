/**
 * Dates in the forms are calendar days ('YYYY-MM-DD'); the server takes instants. A day starts at
 * midnight in the selected area's time zone, and an empty end is open: the contracts' dayStartInZone,
 * dayInZone and dayRangeInZone (packages/contracts/src/time.ts) are the one conversion, which the
 * server's workbook import uses too.
 */
export { dayInZone, dayRangeInZone, dayStartInZone } from '@railwatt/contracts';

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
