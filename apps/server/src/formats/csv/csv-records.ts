import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { unescapeFormula } from '../cell-escape.js';

/**
 * CSV records with the line each ends on, for parsers whose messages name a line and a column
 * (time-series tables, Nordpool prices). Same conventions as csv-table.ts: a byte order mark is
 * dropped, the separator is ';' unless the first line holds more ',' than ';', fields are
 * formula-unescaped. Files saved by a spreadsheet as "CSV" on a Nordic Windows are Windows-1252,
 * not UTF-8: bytes that are not valid UTF-8 are read as Windows-1252, so 'Bodø' stays 'Bodø'.
 * The records are parsed as a stream: a large file never becomes one array of arrays.
 */
export interface CsvRecord {
  /** The 1-based line the record ends on. */
  line: number;
  fields: string[];
}

export class CsvReadError extends Error {
  override readonly name = 'CsvReadError';
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

/** ';' or ',', whichever the line holds more of (';' on a tie, as the exports write it). */
export const detectDelimiter = (firstLine: string): ';' | ',' =>
  (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';

/** The text of a CSV file: UTF-8 when it is valid UTF-8, else Windows-1252; without a byte order mark. */
export function decodeCsvText(bytes: Buffer): string {
  const text = isUtf8(bytes) ? bytes.toString('utf8') : new TextDecoder('windows-1252').decode(bytes);
  return text.replace(/^\uFEFF/, '');
}

const PIECE = 64 * 1024;

function* pieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

/**
 * The records of a CSV text, empty lines skipped; `lineOffset` is added to every line (the text is
 * the rest of a file whose first lines were read apart: csv-parse builds an error object for every
 * record whose length differs from the first record's, so a short first line slows everything down). Throws CsvReadError (with the line) where the text
 * is not CSV (a quote never closed, a record larger than 1 MB).
 */
export async function* readCsvRecords(text: string, delimiter?: ';' | ',', lineOffset = 0): AsyncGenerator<CsvRecord> {
  const parser = parse({
    delimiter: delimiter ?? detectDelimiter(text.split(/\r?\n/, 1)[0] ?? ''),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: 1024 * 1024,
    info: true,
  });
  Readable.from(pieces(text)).pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { line: info.lines + lineOffset, fields: record.map(unescapeFormula) };
    }
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    throw new CsvReadError(
      error instanceof Error ? error.message : String(error),
      typeof line === 'number' ? line + lineOffset : undefined,
    );
  }
}
