import { dataLogEntrySchema, TEXT_LIMITS } from '@railwatt/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedText, storableFileName, storableName, storableText } from './storable-text.js';

/** What PostgreSQL text and jsonb refuse: NUL, and (as jsonb's \u escapes) lone surrogates. */
const unstorable = (value: string) =>
  // eslint-disable-next-line no-control-regex
  /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

describe('storable text', () => {
  it('escapes control characters, keeps tabs and line breaks in messages, replaces lone surrogates', () => {
    expect(storableText('UTILTS\u0000 at\tline\n2\u0007\u007f\u0085')).toBe('UTILTS\\x00 at\tline\n2\\x07\\x7f\\x85');
    expect(storableText('a\ud800b\udc00c \ud83d\ude00')).toBe('a\uFFFDb\uFFFDc \ud83d\ude00');
    expect(storableText('Ærlig talt, ÿþ')).toBe('Ærlig talt, ÿþ');
  });

  it('cuts a long message at a line or item near the limit and counts what it left out', () => {
    const problems = Array.from({ length: 500 }, (_, i) => `line ${i + 1}: Value x is invalid`).join('; ');
    const bounded = boundedText(problems, 1000);
    expect(bounded.length).toBeLessThanOrEqual(1000);
    expect(bounded).toMatch(/Value x is invalid … \(\d+ more characters\)$/);
    const omitted = Number(/\((\d+) more/.exec(bounded)![1]);
    // What is kept is the message's beginning, and the count is what follows it.
    expect(problems.startsWith(bounded.slice(0, bounded.indexOf(' … (')))).toBe(true);
    expect(bounded.indexOf(' … (')).toBe(problems.length - omitted);
    expect(boundedText('short', 1000)).toBe('short');
    // No item boundary near the cut: cut inside, never between the halves of a surrogate pair.
    const emoji = '\ud83d\ude00'.repeat(600);
    expect(unstorable(boundedText(emoji, 1000))).toBe(false);
  });

  it('cuts a long file name in its middle, keeping the extension, to the contract limit', () => {
    const name = storableFileName(`${'a'.repeat(300)}.xml`);
    expect(name).toHaveLength(TEXT_LIMITS.name);
    expect(name.endsWith('a….xml')).toBe(true);
    expect(storableFileName(`${'b'.repeat(300)}`)).toMatch(/^b{199}…$/);
    expect(storableFileName(`x.${'c'.repeat(300)}`)).toHaveLength(TEXT_LIMITS.name);
    expect(storableFileName('day\u0000\r\n.edi')).toBe('day\\x00\\x0d\\x0a.edi');
    expect(storableName('X'.repeat(150), 100)).toMatch(/^X{99}…$/);
  });

  it('makes any string storable and valid for the data log list, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 600 }),
        fc.string({ unit: 'binary', maxLength: 600 }),
        (name, text) => {
          const fileName = storableFileName(name);
          const messageText = boundedText(text, 500);
          expect(unstorable(fileName) || unstorable(messageText)).toBe(false);
          expect(messageText.length).toBeLessThanOrEqual(500);
          const entry = {
            id: 1,
            logTimeStamp: '2026-10-01T00:00:00.000Z',
            messageType: 'CEBD_IMPORT',
            messageStatus: 'REJECTED',
            messageText,
            fileName,
            username: 'u',
            destination: null,
            baseId: null,
            trainId: null,
            hasResponse: false,
            messageLogTimeSeries: [],
            reports: [],
          };
          expect(dataLogEntrySchema.safeParse(entry).success).toBe(true);
        },
      ),
    );
  });
});
