import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  QUALITY_CODE_VALUES,
  TRACTION_SYSTEM_CODES,
  type QualityCode,
  type TractionSystemCode,
} from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import type { CebdRecord, ParsedCebdBlock } from '../timeseries/format.js';
import { CEBD_CHUNK_RECORDS } from './cebd-format.js';
import { EXAMPLE_FILES, parseBytes, type Parsed } from './fixtures.js';
import { cebdFileForRecords, cebdXml, demoCpid, DEMO_ROUTE, generatedBlocks, recordElement } from './generate.js';

/**
 * Properties of the CEBD parser over inputs nobody wrote by hand: it never throws, never yields a
 * record outside the format's ranges, and reads back exactly what a valid file says.
 */

const PERIOD_END = /^\d{4}-\d{2}-\d{2}T\d{2}:[0-5][05]:00Z$/;
const ENERGIES = ['activeConsumed', 'activeRegenerated', 'reactiveConsumed', 'reactiveRegenerated'] as const;

function recordInRange(r: CebdRecord): boolean {
  const energies = ENERGIES.map((k) => r[k]);
  return (
    PERIOD_END.test(r.periodEnd) &&
    energies.every((v) => Number.isFinite(v) && v >= 0 && v < 1e9) &&
    (r.lat === null) === (r.lon === null) &&
    (r.lat === null || (Math.abs(r.lat) <= 90 && Math.abs(r.lon!) <= 180)) &&
    Object.hasOwn(TRACTION_SYSTEM_CODES, r.tractionSystem) &&
    QUALITY_CODE_VALUES.includes(r.quality) &&
    (r.quality !== 46 || energies.every((v) => v === 0))
  );
}

/** What holds for any input: ranges, order within a block's chunks, chunk size, problem limit. */
function expectSound(parsed: Parsed, maxProblems = 100): void {
  expect(parsed.problems.length).toBeLessThanOrEqual(maxProblems);
  for (const block of parsed.blocks) {
    expect(block.records.length).toBeGreaterThan(0);
    expect(block.records.length).toBeLessThanOrEqual(CEBD_CHUNK_RECORDS);
    for (const [i, r] of block.records.entries()) {
      expect(recordInRange(r), JSON.stringify(r)).toBe(true);
      if (i > 0) expect(Date.parse(r.periodEnd)).toBeGreaterThan(Date.parse(block.records[i - 1]!.periodEnd));
    }
  }
}

const TOKENS = [
  '<',
  '>',
  '"',
  '&',
  '&amp;',
  '&#0;',
  '/>',
  '</CEBDBlock>',
  '<Record/>',
  '<CEBDBlock cpid="x">',
  '<!DOCTYPE a>',
  '<![CDATA[x]]>',
  '-',
  '-1',
  '99999999999',
  '1e5',
  'NaN',
  'Ø',
  '𝄞',
  '\u0000',
  '\n',
  'quality="46"',
  'lat="91"',
  ':07:',
  'xmlns="urn:x"',
];

type Mutation =
  | { kind: 'byte'; at: number; value: number }
  | { kind: 'insert'; at: number; token: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(bytes: Buffer, mutations: Mutation[]): Buffer {
  let out = bytes;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % out.length;
    if (m.kind === 'byte') {
      out = Buffer.from(out);
      if (out.length > 0) out[at] = m.value;
    } else if (m.kind === 'insert') {
      out = Buffer.concat([out.subarray(0, at), Buffer.from(m.token), out.subarray(at)]);
    } else if (m.kind === 'delete') {
      out = Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
    } else out = out.subarray(0, at);
  }
  return out;
}

/** Consecutive chunks of one block joined again (a chunk boundary is not a block boundary). */
function joinChunks(blocks: ParsedCebdBlock[]): { cpid: string; records: CebdRecord[] }[] {
  const joined: { cpid: string; records: CebdRecord[]; key: string }[] = [];
  for (const b of blocks) {
    const key = `${b.location.line}:${b.location.column}`;
    const last = joined[joined.length - 1];
    if (last && last.key === key) last.records.push(...b.records);
    else joined.push({ cpid: b.cpid, records: [...b.records], key });
  }
  return joined.map(({ cpid, records }) => ({ cpid, records }));
}

const VALID_FILES = [readFileSync(EXAMPLE_FILES.cebd), readFileSync(EXAMPLE_FILES.readings), cebdFileForRecords(40, 7)];

describe('CEBD parser properties', () => {
  it('never throws on arbitrary bytes, in any chunking, and keeps to maxProblems', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 1, max: 20 }),
        async (bytes, chunkSize, maxProblems) => {
          expectSound(await parseBytes(Buffer.from(bytes), { chunkSize, maxProblems }), maxProblems);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on mutated or truncated valid files, and never yields a record out of range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...VALID_FILES.keys()),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 97 }),
        async (file, mutations, chunkSize) => {
          expectSound(await parseBytes(mutate(VALID_FILES[file]!, mutations), { chunkSize }));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads a generated file (CEBD or reading blocks) back exactly as generated, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(
          fc.record({
            periods: fc.integer({ min: 1, max: 700 }),
            startPeriod: fc.integer({ min: 0, max: 100_000 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 4096 }),
        fc.constantFrom('CEBDBlock' as const, 'ReadingBlock' as const),
        async (seed, specs, chunkSize, blockType) => {
          const options = {
            seed,
            blockType,
            sender: 'DCS Ørland',
            points: specs.map((s, n) => ({
              cpid: demoCpid(n),
              route: DEMO_ROUTE,
              start: new Date(Date.UTC(2026, 0, 1) + s.startPeriod * 300_000).toISOString(),
              periods: s.periods,
            })),
          };
          const parsed = await parseBytes([...cebdXml(options)].join(''), { chunkSize });
          expect(parsed.problems).toEqual([]);
          expect(parsed.blocks.every((b) => b.dcs === 'DCS Ørland')).toBe(true);
          const expected = [...generatedBlocks(options)].map((b) => ({ cpid: b.cpid, records: [...b.records] }));
          if (blockType === 'ReadingBlock') {
            // A period is as good as the worse of its two readings (the base reading is measured).
            for (const b of expected) {
              b.records = b.records.map((r, i) => ({
                ...r,
                quality: Math.min(r.quality, b.records[i - 1]?.quality ?? 127) as QualityCode,
              }));
            }
          }
          expect(parsed.blocks.every((b) => b.blockType === blockType)).toBe(true);
          expect(joinChunks(parsed.blocks)).toEqual(expected);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('reads back any records within the format (positions, codes, six decimals, quality 46)', async () => {
    const energy = fc.integer({ min: 0, max: 999_999_999_999_999 }).map((k) => k / 1e6);
    const record = fc
      .record({
        activeConsumed: energy,
        activeRegenerated: energy,
        reactiveConsumed: energy,
        reactiveRegenerated: energy,
        position: fc.option(
          fc.record({
            lat: fc.integer({ min: -90_00000, max: 90_00000 }).map((k) => k / 1e5),
            lon: fc.integer({ min: -180_00000, max: 180_00000 }).map((k) => k / 1e5),
          }),
        ),
        tractionSystem: fc.constantFrom(...(Object.keys(TRACTION_SYSTEM_CODES) as TractionSystemCode[])),
        quality: fc.constantFrom(...QUALITY_CODE_VALUES),
        step: fc.integer({ min: 1, max: 10_000 }),
      })
      .map(({ position, step, ...r }) => ({
        ...r,
        ...(r.quality === 46
          ? { activeConsumed: 0, activeRegenerated: 0, reactiveConsumed: 0, reactiveRegenerated: 0 }
          : {}),
        lat: position?.lat ?? null,
        lon: position?.lon ?? null,
        step,
      }));
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 50 }), async (drawn) => {
        let ms = Date.UTC(2026, 0, 1);
        const records: CebdRecord[] = drawn.map(({ step, ...r }) => {
          ms += step * 300_000;
          // -0 is written "0" and read as 0.
          const lat = r.lat === null ? null : r.lat + 0;
          const lon = r.lon === null ? null : r.lon + 0;
          return { ...r, lat, lon, periodEnd: `${new Date(ms).toISOString().slice(0, 19)}Z` };
        });
        const xml =
          `<CEBDFile xmlns="urn:railwatt:cebd:1" version="1" sender="s" created="2026-01-01T00:00:00Z">` +
          `<CEBDBlock cpid="${demoCpid(1)}">${records.map(recordElement).join('\n')}</CEBDBlock></CEBDFile>`;
        const parsed = await parseBytes(xml, { chunkSize: 512 });
        expect(parsed.problems).toEqual([]);
        expect(parsed.records).toEqual(records);
      }),
      { numRuns: 200 },
    );
  });
});
