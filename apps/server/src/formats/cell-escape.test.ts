import { describe, expect, it } from 'vitest';
import { escapeFormula, unescapeFormula } from './cell-escape.js';

describe('formula escaping', () => {
  const dangerous = ['=1+1', '+41 22', '-2', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'];
  it.each(dangerous)('prefixes %j with an apostrophe', (value) => {
    expect(escapeFormula(value)).toBe(`'${value}`);
  });

  it('leaves harmless text alone', () => {
    expect(escapeFormula('Vectron 193')).toBe('Vectron 193');
    expect(escapeFormula('')).toBe('');
  });

  it.each([...dangerous, "'quoted", "''", "'", "'=x", 'plain', ''])('round-trips %j', (value) => {
    expect(unescapeFormula(escapeFormula(value))).toBe(value);
  });

  it('keeps an apostrophe a person typed before ordinary text', () => {
    expect(unescapeFormula("'hello")).toBe("'hello");
  });
});
