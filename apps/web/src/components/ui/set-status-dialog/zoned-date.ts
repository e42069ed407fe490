/**
 * Dates in the forms are calendar days ('YYYY-MM-DD'); the server takes instants. A day starts at
 * midnight in the selected area's time zone (DOMAIN.md: days are in the area's zone), so 2024-03-31
 * in Europe/Oslo is 2024-03-30T23:00:00Z. Written with Intl to avoid a time-zone library.
 */
export function dayStartInZone(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcGuess = Date.UTC(y, m - 1, d);
  // The zone's offset at the guess, applied twice to settle on DST edges.
  let instant = utcGuess - offsetMs(utcGuess, timeZone);
  instant = utcGuess - offsetMs(instant, timeZone);
  return new Date(instant).toISOString().replace('.000Z', 'Z');
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

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
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
