import { readFileSync } from 'node:fs';
import fc from 'fast-check';
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

/**
 * Random damage to a valid file for property tests: up to six byte deletions, insertions or
 * replacements (bytes drawn from `syntax`, the format's meaningful characters, or any byte), then
 * maybe a truncation. `damage(bytes, change)` applies one drawn change.
 */
export const fileDamage = (syntax: string) =>
  fc.record({
    mutations: fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        kind: fc.constantFrom('delete', 'insert', 'replace'),
        byte: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...Buffer.from(syntax))),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    truncate: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  });

export type FileDamage = ReturnType<typeof fileDamage> extends fc.Arbitrary<infer T> ? T : never;

export function damage(file: Buffer, { mutations, truncate }: FileDamage): Buffer {
  const bytes = [...file];
  for (const { at, kind, byte } of mutations) {
    const i = Math.floor(at * bytes.length);
    if (kind === 'delete') bytes.splice(i, 1);
    else if (kind === 'insert') bytes.splice(i, 0, byte);
    else bytes[i] = byte;
  }
  const cut = truncate === null ? bytes.length : Math.floor(truncate * bytes.length);
  return Buffer.from(bytes.slice(0, cut));
}
