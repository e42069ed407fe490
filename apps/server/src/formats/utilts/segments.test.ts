import { describe, expect, it } from 'vitest';
import { chunks } from '../timeseries/format-test-helpers.js';
import { readSegments, type Token } from './segments.js';

async function tokens(text: string | Buffer, chunkSize?: number): Promise<Token[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const out: Token[] = [];
  for await (const batch of readSegments(chunks(bytes, chunkSize))) out.push(...batch);
  return out;
}

const shape = (list: Token[]) =>
  list.map((t) =>
    t.kind === 'segment' ? [t.segment.number, t.segment.line, t.segment.tag, t.segment.elements] : t.problem.message,
  );

describe('EDIFACT segments', () => {
  it('splits elements and components, honours the release character and numbers segments and lines', async () => {
    const text = "UNA:+.? '\r\nUNB+UNOC:3+A?+B'\r\n  NAD+MS+Kraft ?'Nord?' AS ?? ?:x::9'FTX+AAA'";
    const expected = [
      [1, 2, 'UNB', [['UNOC', '3'], ['A+B']]],
      [2, 3, 'NAD', [['MS'], ["Kraft 'Nord' AS ? :x", '', '9']]],
      [3, 3, 'FTX', [['AAA']]],
    ];
    expect(shape(await tokens(text))).toEqual(expected);
    // The same whatever the chunks: a segment, a release or the advice split anywhere.
    for (const size of [1, 2, 3, 5, 8]) expect(shape(await tokens(text, size))).toEqual(expected);
  });

  it('reads the default separators without UNA and ignores line breaks inside segments', async () => {
    expect(shape(await tokens("UNB+UNOA:\n3'\nQTY+136:1\n2.5'"))).toEqual([
      [1, 1, 'UNB', [['UNOA', '3']]],
      [2, 3, 'QTY', [['136', '12.5']]],
    ]);
  });

  it('refuses an unterminated last segment and an endless one', async () => {
    expect(shape(await tokens("UNB+UNOA:3'QTY+136:1"))).toEqual([
      [1, 1, 'UNB', [['UNOA', '3']]],
      "The file ends inside segment 2 (QTY): the segment terminator ' is missing",
    ]);
    const endless = await tokens(`UNB+${'x'.repeat(150_000)}`, 65536);
    expect(shape(endless)).toEqual(['Segment 1 is longer than 100000 characters (is the segment terminator right?)']);
  });
});
