/**
 * Wall-clock times in an IANA time zone, shared by the server (dates typed into workbooks) and the web
 * (calendar days in forms): both read days in the selected area's zone. Written with Intl to avoid a
 * time-zone library.
 */

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
