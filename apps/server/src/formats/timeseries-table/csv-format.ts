import { TIME_SERIES_TYPE_NAMES } from '@railwatt/contracts';
import { CsvReadError, decodeCsvText, readCsvRecords, type CsvRecord } from '../csv/csv-records.js';
import type { IntakeFormat, ParseItem, ParseOptions, SourceLocation } from '../timeseries/format.js';
import { limitProblems, readAllBytes, readSeriesTable, START_COLUMN, type TableInputRow } from './table-series.js';

/**
 * Time series of one type in a CSV file (docs/formats/timeseries-tables.md): line 1 names the type,
 * `type;<typeName>`, and the separator (';' or ','); line 2 is the table's header and every further
 * line one period, exactly as a sheet of the xlsx layout. Messages name the line and the column.
 */
export const MAX_CSV_BYTES = 200 * 1024 * 1024;

const UPLOAD_BROKEN = 'Something is wrong with uploaded data';
const TYPE_LINE = /^\s*"?type"?\s*([;,])/i;
const TABLE_LINE = new RegExp(`^\\s*"?${START_COLUMN}"?\\s*[;,]`, 'i');

const problem = (location: SourceLocation, message: string): ParseItem => ({
  kind: 'problem',
  problem: { location, message },
});

const unquote = (field: string) =>
  field
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
const firstLine = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';

async function* parseCsv(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const bytes = await readAllBytes(input, MAX_CSV_BYTES);
  if (!bytes) {
    yield problem({}, `${UPLOAD_BROKEN}: the file is larger than ${MAX_CSV_BYTES} bytes`);
    return;
  }
  const text = decodeCsvText(bytes);
  const typeLine = TYPE_LINE.exec(firstLine(text));
  if (!typeLine) {
    yield problem({ line: 1 }, `${UPLOAD_BROKEN}: line 1 must name the type as type;<type name>`);
    return;
  }
  // Line 1 is read apart: csv-parse makes an error object for every record longer than the first.
  const delimiter = typeLine[1] as ';' | ',';
  const lineEnd = text.indexOf('\n');
  const typeText = unquote(firstLine(text).split(delimiter)[1] ?? '');
  const typeName = TIME_SERIES_TYPE_NAMES.find((t) => t === typeText);
  if (!typeName) {
    yield problem({ line: 1, column: 2 }, `Something is wrong with data of type: ${typeText}`);
    return;
  }
  const records = readCsvRecords(lineEnd < 0 ? '' : text.slice(lineEnd + 1), delimiter, 1);
  const state: { failure?: CsvReadError } = {};
  const next = async (): Promise<CsvRecord | undefined> => {
    try {
      const { value, done } = await records.next();
      return done ? undefined : value;
    } catch (error) {
      state.failure = error instanceof CsvReadError ? error : new CsvReadError(String(error), undefined);
      return undefined;
    }
  };
  // The CSV reader's failure, if any (read through a function: it is set inside next()).
  const failed = (): ParseItem | undefined =>
    state.failure && problem({ line: state.failure.line }, `${UPLOAD_BROKEN}: ${state.failure.message}`);
  const headerRecord = await next();
  if (!headerRecord) {
    const failure = failed();
    if (failure) {
      yield failure;
      return;
    }
    yield problem({ line: 2 }, `${UPLOAD_BROKEN}: the header line is missing`);
    return;
  }
  async function* rows(): AsyncGenerator<TableInputRow> {
    for (let record = await next(); record; record = await next()) {
      yield { number: record.line, cells: new Map(record.fields.map((field, i) => [i + 1, field])) };
    }
  }
  yield* readSeriesTable({
    typeName,
    header: new Map(headerRecord.fields.map((field, i) => [i + 1, field])),
    headerRow: headerRecord.line,
    rows: rows(),
    locate: (line, column) => ({ line, column }),
    timeZone: options.timeZone,
  });
  const late = failed();
  if (late) yield late;
}

export const timeSeriesCsvFormat: IntakeFormat = {
  name: 'csv',
  // Line 1 names the type; a table without that line is still ours, so that its parse can say what is missing.
  detect: (fileName, head) => {
    if (!/\.csv$/i.test(fileName.trim())) return false;
    const line = firstLine(head.toString('utf8'));
    return TYPE_LINE.test(line) || TABLE_LINE.test(line);
  },
  parse: (input, options) => limitProblems(parseCsv(input, options), options.maxProblems),
};
