import fc from 'fast-check';
import type { QualityCode } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { damage, fileDamage, parseWith, unsoundPoints } from '../timeseries/format-test-helpers.js';
import { sdvFormat } from './sdv-format.js';
import { writeSdv, type SdvFileInput } from './sdv-writer.js';

const QUARTER = 900_000;
const BASE = Date.UTC(2020, 0, 1);

const sdvInput: fc.Arbitrary<SdvFileInput> = fc.record({
  sender: fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim() || 'S'),
  receiver: fc.constant('12X-RAILWATT--1'),
  documentId: fc.stringMatching(/^[A-Z0-9-]{1,20}$/),
  created: fc.constant('2026-10-02T05:00:00Z'),
  unit: fc.constantFrom('KWH' as const, 'MWH' as const),
  prefix: fc.constantFrom('rsm', '', 'ns0'),
  series: fc.array(
    fc.record({
      meteringPoint: fc.stringMatching(/^[A-Za-z0-9&<>"'-](?:[A-Za-z0-9&<>"' -]{0,29}[A-Za-z0-9&<>"'-])?$/),
      start: fc.integer({ min: 0, max: 4 * 24 * 365 * 10 }).map((q) => new Date(BASE + q * QUARTER).toISOString()),
      values: fc.array(
        fc.option(
          fc.integer({ min: -1_000_000, max: 10_000_000 }).map((n) => n / 1000),
          { nil: null },
        ),
        { minLength: 1, maxLength: 40 },
      ),
      qualities: fc.array(fc.constantFrom<QualityCode>(127, 61, 56), { minLength: 40, maxLength: 40 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

describe('sdv intake: properties', () => {
  it('parses a generated file back to what was generated, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(sdvInput, fc.integer({ min: 1, max: 64 }), async (input, chunkSize) => {
        const { series, problems } = await parseWith(sdvFormat, writeSdv(input), { chunkSize });
        expect(problems).toEqual([]);
        expect(series.map((s) => ({ identifier: s.identifier, points: s.points }))).toEqual(
          input.series.map((s) => ({
            identifier: s.meteringPoint,
            points: s.values.map((value, i) => ({
              start: new Date(Date.parse(s.start) + i * QUARTER).toISOString(),
              value,
              quality: value === null ? 46 : (s.qualities?.[i] ?? 127),
            })),
          })),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('never throws on arbitrary bytes, nor yields an unsound point', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const { series } = await parseWith(sdvFormat, Buffer.from(bytes), { chunkSize: 97 });
        expect(unsoundPoints(series)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on mutated or truncated valid files, nor yields an unsound point', async () => {
    await fc.assert(
      fc.asyncProperty(sdvInput, fileDamage('<>/&;.-9e+ \n'), async (input, change) => {
        const bytes = damage(Buffer.from(writeSdv(input), 'utf8'), change);
        const { series } = await parseWith(sdvFormat, bytes, { chunkSize: 50 });
        expect(unsoundPoints(series)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
