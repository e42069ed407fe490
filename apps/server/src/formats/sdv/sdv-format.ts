import { TextDecoder } from 'node:util';
import { SaxesParser } from 'saxes';
import type { IntakeFormat, ParseItem, ParseOptions } from '../timeseries/format.js';
import { SdvReader } from './sdv-reader.js';

/**
 * sdv: Swiss SDAT-CH style ebIX ValidatedMeteredData XML (docs/formats/sdv.md), 15-minute energy
 * per metering point. Read as a stream with saxes (no DTD, no external entities), by local names so
 * any namespace or prefix reads.
 *
 * - Every MeteringData becomes a 'supply_energy' series (PT15M; 5 and 60 minutes read too) whose
 *   identifier is the metering point; the intake renames series of fixed metering points to
 *   'fixed_installation_energy'. Long series come in chunks of at most 5,000 points.
 * - Values leave in kWh (MWh and Wh converted on the digits); instants are UTC (ISO 8601 with Z).
 * - Problems carry the line, column and element path; XML that is not well-formed stops the read.
 */
export const sdvFormat: IntakeFormat = {
  name: 'sdv',
  detect(fileName, head) {
    if (/\.sdv$/i.test(fileName)) return true;
    return /\.xml$/i.test(fileName) && /ValidatedMeteredData/.test(head.toString('utf8'));
  },
  parse: parseSdv,
};

async function* parseSdv(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const maxProblems = options.maxProblems ?? 100;
  let problems = 0;
  const reader = new SdvReader();
  const parser = new SaxesParser({ position: true });
  let broken = false;
  // After the first error saxes goes on reading; what it reports then is not the document's.
  parser.on('opentag', (tag) => broken || reader.open(tag.name, parser.line, parser.column + 1));
  parser.on('text', (text) => broken || reader.text(text));
  parser.on('cdata', (text) => broken || reader.text(text));
  parser.on('closetag', () => broken || reader.close());
  parser.on('error', (error) => {
    if (broken) return;
    broken = true;
    const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    reader.fail({ line: parser.line, column: parser.column + 1 }, `The XML is not well-formed: ${message}`);
  });
  const pass = function* (items: ParseItem[]): Generator<ParseItem, boolean> {
    for (const item of items) {
      yield item;
      if (item.kind === 'problem' && ++problems >= maxProblems) return false;
    }
    return true;
  };
  const decoder = new TextDecoder('utf-8');
  const write = (text: string): void => {
    try {
      parser.write(text);
    } catch (error) {
      // saxes reports through the handler above; anything it still throws is about the input too.
      if (!broken) reader.fail({}, `The XML cannot be read: ${(error as Error).message}`);
      broken = true;
    }
  };
  for await (const chunk of input) {
    write(decoder.decode(chunk, { stream: true }));
    if (!(yield* pass(reader.take())) || broken || reader.refused) return;
  }
  write(decoder.decode());
  if (!broken) {
    try {
      parser.close();
    } catch (error) {
      if (!broken) reader.fail({}, `The XML cannot be read: ${(error as Error).message}`);
      broken = true;
    }
  }
  if (!(yield* pass(reader.take())) || broken || reader.refused) return;
  yield* pass(reader.end());
}
