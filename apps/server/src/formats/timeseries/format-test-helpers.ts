import { readFileSync } from 'node:fs';
import { problemText, type IntakeFormat, type ParsedSeries } from './format.js';

/** Test helpers shared by the UTILTS and sdv tests: parse bytes in chunks and sort what comes out. */

export async function* chunks(bytes: Buffer, size = bytes.length || 1): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export interface Parsed {
  series: ParsedSeries[];
  problems: string[];
}

export async function parseWith(
  format: IntakeFormat,
  input: string | Buffer,
  options: { chunkSize?: number; maxProblems?: number } = {},
): Promise<Parsed> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const out: Parsed = { series: [], problems: [] };
  const parse = format.parse(chunks(bytes, options.chunkSize), {
    timeZone: 'Europe/Oslo',
    maxProblems: options.maxProblems,
  });
  for await (const item of parse) {
    if (item.kind === 'series') out.series.push(item.series);
    else if (item.kind === 'problem') out.problems.push(problemText(item.problem));
  }
  return out;
}

export const fixture = (dir: URL, name: string): Buffer => readFileSync(new URL(`fixtures/${name}`, dir));

/** A point is sound when its start is a valid UTC instant and its value finite (null only with 46). */
export function unsoundPoints(series: ParsedSeries[]): string[] {
  const bad: string[] = [];
  for (const s of series) {
    for (const p of s.points) {
      const instant = new Date(p.start);
      const startOk = !Number.isNaN(instant.getTime()) && instant.toISOString() === p.start;
      const valueOk = p.value === null ? p.quality === 46 : Number.isFinite(p.value);
      if (!startOk || !valueOk) bad.push(JSON.stringify(p));
    }
  }
  return bad;
}
