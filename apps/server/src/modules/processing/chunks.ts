import { dayInZone, dayStartInZone, nextPeriodStart } from '@railwatt/contracts';

export interface Chunk {
  start: string;
  end: string;
  /** The area day it belongs to ('YYYY-MM-DD'). */
  day: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The chunks of a period: one per area day in the area's time zone (23, 24 or 25 hours), the first
 * and last clipped to the period. [start, end) in, [start, end) out, in order, ISO instants.
 */
export function areaDays(start: string, end: string, timeZone: string): Chunk[] {
  const chunks: Chunk[] = [];
  const endMs = Date.parse(end);
  let at = Date.parse(start);
  while (at < endMs) {
    const day = dayInZone(new Date(at), timeZone);
    const next = nextPeriodStart(dayStartInZone(day, timeZone), 'P1D', timeZone).getTime();
    const chunkEnd = Math.min(next, endMs);
    chunks.push({ start: iso(at), end: iso(chunkEnd), day });
    at = chunkEnd;
  }
  return chunks;
}
