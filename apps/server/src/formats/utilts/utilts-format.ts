import type { IntakeFormat, ParseItem, ParseOptions } from '../timeseries/format.js';
import { readSegments } from './segments.js';
import { UtiltsReader } from './utilts-reader.js';

/**
 * UTILTS (UN/EDIFACT, `.edi`) as Nordic Ediel sends it: metered energy per metering point, in
 * interval series (15 or 60 minutes, days) and in monthly meter-reading messages (register readings
 * at the start and end of the month and the month's consumption). MSCONS files of the same shape
 * read too. docs/formats/utilts.md names the subset, the code mappings and an example.
 *
 * - Every series is emitted as typeName 'supply_energy' with its metering point (LOC+172) as the
 *   identifier: the file does not say whether the point is a substation's supply metering point or a
 *   fixed installation's, so the intake looks the identifier up and renames series of fixed metering
 *   points to 'fixed_installation_energy'.
 * - Values leave in kWh (ParsedSeries.unit 'kWh'): MWh, Wh and GWh (MEA+AAZ, or the QTY's unit)
 *   are converted on the decimal digits, exactly.
 * - Instants are UTC (ISO 8601 with Z): a date's own offset (`?+01`, format 303), else the
 *   message's DTM+735, else UTC.
 * - Whatever cannot be mapped is a problem naming the segment (number, tag, line); the intake then
 *   refuses the file whole. The parser never throws on bad bytes and stops after maxProblems.
 */
export const utiltsFormat: IntakeFormat = {
  name: 'utilts',
  detect(fileName, head) {
    if (/\.(edi|edifact|utilts|mscons)$/i.test(fileName)) return true;
    const text = head.toString('latin1').replace(/^[\uFEFF\u00EF\u00BB\u00BF\s]+/, '');
    return /^UN[AB]/.test(text) && /UTILTS|MSCONS/.test(text);
  },
  parse: parseUtilts,
};

async function* parseUtilts(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const maxProblems = options.maxProblems ?? 100;
  let problems = 0;
  const reader = new UtiltsReader();
  // Yields items until the problem budget is spent; false means stop reading.
  const pass = function* (items: ParseItem[]): Generator<ParseItem, boolean> {
    for (const item of items) {
      yield item;
      if (item.kind === 'problem' && ++problems >= maxProblems) return false;
    }
    return true;
  };
  for await (const tokens of readSegments(input)) {
    for (const token of tokens) {
      const items = token.kind === 'problem' ? [token] : reader.feed(token.segment);
      if (items.length > 0 && !(yield* pass(items))) return;
      // A file whose tokens break (bad advice, unterminated segment) cannot be mapped further.
      if (token.kind === 'problem') return;
    }
  }
  yield* pass(reader.end());
}
