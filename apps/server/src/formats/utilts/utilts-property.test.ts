import fc from 'fast-check';
import type { QualityCode } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { damage, fileDamage, parseWith, unsoundPoints } from '../timeseries/format-test-helpers.js';
import { utiltsFormat } from './utilts-format.js';
import { writeUtilts, type UtiltsFileInput } from './utilts-writer.js';

const HOUR = 3_600_000;
const BASE = Date.UTC(2020, 0, 1);

const meteringPoint = fc.stringMatching(/^[A-Za-z0-9?:+'\-.]{1,20}$/);
const kwh = fc.integer({ min: -1_000_000, max: 10_000_000 }).map((n) => n / 1000);

const intervalSeries = fc.record({
  meteringPoint,
  start: fc.integer({ min: 0, max: 24 * 365 * 10 }).map((h) => new Date(BASE + h * HOUR).toISOString()),
  resolution: fc.constantFrom('PT15M' as const, 'PT1H' as const),
  values: fc.array(fc.option(kwh, { nil: null }), { minLength: 1, maxLength: 40 }),
  qualities: fc.array(fc.constantFrom<QualityCode>(127, 61, 56), { minLength: 40, maxLength: 40 }),
});

const monthly = (offsetHours: number) =>
  fc
    .record({
      meteringPoint,
      month: fc.integer({ min: 0, max: 12 * 10 }),
      startReading: fc.integer({ min: 0, max: 100_000_000 }),
      delta: fc.integer({ min: 0, max: 10_000_000 }),
      withConsumption: fc.boolean(),
    })
    .map(({ meteringPoint, month, startReading, delta, withConsumption }) => ({
      meteringPoint,
      start: new Date(Date.UTC(2020, month, 1) - offsetHours * HOUR).toISOString(),
      end: new Date(Date.UTC(2020, month + 1, 1) - offsetHours * HOUR).toISOString(),
      startReading: startReading / 1000,
      endReading: (startReading + delta) / 1000,
      consumption: withConsumption ? delta / 1000 : undefined,
    }));

const utiltsInput: fc.Arbitrary<UtiltsFileInput> = fc
  .record({ offsetHours: fc.integer({ min: -2, max: 3 }), unit: fc.constantFrom('KWH' as const, 'MWH' as const) })
  .chain(({ offsetHours, unit }) =>
    fc.record({
      sender: fc.stringMatching(/^[A-Za-z0-9 ?:+']{1,20}$/),
      receiver: fc.constant('7080000000002'),
      reference: fc.stringMatching(/^[A-Z0-9]{1,14}$/),
      created: fc.constant('2026-10-02T06:00:00Z'),
      series: fc.array(intervalSeries, { maxLength: 3 }),
      monthly: fc.array(monthly(offsetHours), { maxLength: 2 }),
      unit: fc.constant(unit),
      offsetHours: fc.constant(offsetHours),
      oneLine: fc.boolean(),
      ediel: fc.option(fc.record({ gridArea: fc.stringMatching(/^[A-Z0-9?:+']{1,5}$/) }), { nil: undefined }),
    }),
  )
  .filter((input) => (input.series?.length ?? 0) + (input.monthly?.length ?? 0) > 0);

function expected(input: UtiltsFileInput) {
  const step = { PT15M: 900_000, PT1H: HOUR };
  return [
    ...(input.series ?? []).map((s) => ({
      identifier: s.meteringPoint,
      resolution: s.resolution,
      points: s.values.map((value, i) => ({
        start: new Date(Date.parse(s.start) + i * step[s.resolution]).toISOString(),
        value,
        quality: value === null ? 46 : (s.qualities?.[i] ?? 127),
      })),
    })),
    ...(input.monthly ?? []).map((m) => ({
      identifier: m.meteringPoint,
      resolution: 'P1M',
      points: [
        {
          start: new Date(m.start).toISOString(),
          value: m.consumption ?? Math.round((m.endReading - m.startReading) * 1e6) / 1e6,
          quality: 127,
        },
      ],
    })),
  ];
}

describe('UTILTS intake: properties', () => {
  it('parses a generated file back to what was generated, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(utiltsInput, fc.integer({ min: 1, max: 64 }), async (input, chunkSize) => {
        const { series, problems } = await parseWith(utiltsFormat, writeUtilts(input), { chunkSize });
        expect(problems).toEqual([]);
        const got = series.map((s) => ({ identifier: s.identifier, resolution: s.resolution, points: s.points }));
        expect(got).toEqual(expected(input));
      }),
      { numRuns: 150 },
    );
  });

  it('never throws on arbitrary bytes, nor yields an unsound point', async () => {
    const edifactish = fc.array(fc.constantFrom(...Buffer.from("UNAHBZTQYSEDMLOC0123456789+:?'.,\n ")), {
      maxLength: 600,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          edifactish.map((a) => Uint8Array.from(a)),
        ),
        async (bytes) => {
          const { series } = await parseWith(utiltsFormat, Buffer.from(bytes), { chunkSize: 97 });
          expect(unsoundPoints(series)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on mutated or truncated valid files, nor yields an unsound point', async () => {
    await fc.assert(
      fc.asyncProperty(utiltsInput, fileDamage("+:?'.,-9 \n"), async (input, change) => {
        const bytes = damage(Buffer.from(writeUtilts(input), 'latin1'), change);
        const { series } = await parseWith(utiltsFormat, bytes, { chunkSize: 50 });
        expect(unsoundPoints(series)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
