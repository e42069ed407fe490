/**
 * Dates as the spec shows them (product.md §9): dd.MM.yyyy and dd.MM.yyyy HH:mm, always in the
 * selected area's time zone, never the browser's. The one formatter for every screen.
 */
const parts = (instant: string, timeZone: string, withTime: boolean) => {
  const formatted = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
  }).formatToParts(new Date(instant));
  return (type: string) => formatted.find((p) => p.type === type)?.value ?? '';
};

const valid = (instant: string | null | undefined): instant is string =>
  Boolean(instant) && !Number.isNaN(new Date(instant!).getTime());

/** An instant as the spec's dd.MM.yyyy in the area's time zone; the open end (2070) shows as empty. */
export function formatDate(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant) || new Date(instant).getUTCFullYear() >= 2070) return '';
  const get = parts(instant, timeZone, false);
  return `${get('day')}.${get('month')}.${get('year')}`;
}

/** An instant as dd.MM.yyyy HH:mm in the area's time zone. */
export function formatDateTime(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant)) return '';
  const get = parts(instant, timeZone, true);
  return `${get('day')}.${get('month')}.${get('year')} ${get('hour')}:${get('minute')}`;
}
