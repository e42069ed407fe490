import { describe, expect, it } from 'vitest';
import type { IntakeFormat, ParseItem } from './format.js';
import { withStorableItems } from './storable-items.js';

const at = { line: 3 };
const run = (over: Record<string, unknown> = {}): ParseItem => ({
  kind: 'trainrun',
  run: {
    action: 'input',
    trainNumber: '4711',
    operatingDay: '2026-10-01',
    railwayUndertaking: 'RU1',
    route: ['OSL', 'BRG'],
    composition: [{ evn: '917600100015', grossWeightTonnes: 80 }],
    location: at,
    ...over,
  },
});

/** A format that yields the given items whatever its bytes. */
const yielding = (items: ParseItem[]): IntakeFormat => ({
  name: 'trainrun',
  detect: () => true,
  async *parse() {
    yield* items;
  },
});

async function parsed(items: ParseItem[]): Promise<ParseItem[]> {
  const out: ParseItem[] = [];
  for await (const item of withStorableItems(yielding(items)).parse((async function* () {})(), { timeZone: 'UTC' })) {
    out.push(item);
  }
  return out;
}

describe('withStorableItems', () => {
  it('hands on items whose text is text, unchanged', async () => {
    const items = [run()];
    expect(await parsed(items)).toEqual(items);
  });

  it('turns an item holding NUL, another control character or a lone surrogate into a problem at its place', async () => {
    const series: ParseItem = {
      kind: 'series',
      series: { typeName: 'supply_energy', identifier: 'SMP\u0000X', resolution: 'PT1H', points: [], location: at },
    };
    const out = await parsed([series, run({ route: ['OSL', 'B\u0007RG'] }), run({ trainNumber: '47\ud800' }), run()]);
    expect(
      out.map((i) => (i.kind === 'problem' ? `${i.problem.location.line}: ${i.problem.message}` : i.kind)),
    ).toEqual([
      '3: Identifier SMP\\x00X holds characters that are not text (control characters or broken Unicode)',
      '3: Place B\\x07RG holds characters that are not text (control characters or broken Unicode)',
      '3: Train number 47\uFFFD holds characters that are not text (control characters or broken Unicode)',
      'trainrun',
    ]);
  });
});
