import { holdsNonText, storableName } from '../../db/storable-text.js';
import type { IntakeFormat, ParseItem, SourceLocation } from './format.js';

/**
 * The last check between a parser and the database: text a parser hands on (an identifier, a unit,
 * a train's number) that holds a control character or a lone surrogate is a problem of the file,
 * not a value. PostgreSQL cannot take NUL in text at all, so such an identifier would otherwise fail
 * the intake's first query, and the file would end as our error instead of REJECTED with the place
 * it is wrong; no real identifier holds a control character either. Values (numbers, instants) and
 * messages need no check: parsers make the first, and the data log escapes the second.
 */

/** A value as a message quotes it: escaped as the data log keeps text, at most 40 characters. */
const quoted = (value: string): string => storableName(value, 41);

/** The first text of the item that is not text, with what the file calls it. */
function firstNotText(item: ParseItem): { name: string; value: string; location: SourceLocation } | null {
  const check = (name: string, value: string | undefined, location: SourceLocation) =>
    value !== undefined && holdsNonText(value) ? { name, value, location } : null;
  switch (item.kind) {
    case 'series':
      return (
        check('Identifier', item.series.identifier, item.series.location) ??
        check('Unit', item.series.unit, item.series.location)
      );
    case 'cebd':
      return (
        check('CPID', item.block.cpid, item.block.location) ?? check('Sender', item.block.dcs, item.block.location)
      );
    case 'trainrun': {
      const run = item.run;
      const at = run.location;
      return (
        check('Train number', run.trainNumber, at) ??
        check('Railway undertaking', run.railwayUndertaking, at) ??
        check('Traffic category', run.trafficCategory, at) ??
        check('Train profile', run.trainProfile, at) ??
        run.route.reduce<ReturnType<typeof check>>((found, place) => found ?? check('Place', place, at), null) ??
        run.composition.reduce<ReturnType<typeof check>>((found, v) => found ?? check('EVN', v.evn, at), null)
      );
    }
    default:
      return null;
  }
}

async function* checked(items: AsyncIterable<ParseItem>): AsyncGenerator<ParseItem> {
  for await (const item of items) {
    const found = firstNotText(item);
    if (!found) {
      yield item;
      continue;
    }
    yield {
      kind: 'problem',
      problem: {
        location: found.location,
        message: `${found.name} ${quoted(found.value)} holds characters that are not text (control characters or broken Unicode)`,
      },
    };
  }
}

/** `format` with every item checked as above (formats/timeseries/registry.ts wraps every format). */
export const withStorableItems = (format: IntakeFormat): IntakeFormat => ({
  ...format,
  parse: (input, options) => checked(format.parse(input, options)),
});
