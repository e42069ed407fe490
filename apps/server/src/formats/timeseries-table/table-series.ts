import {
  QUALITY_CODE_VALUES,
  QUALITY_CODES,
  type QualityCode,
  type Resolution,
  type TimeSeriesTypeName,
} from '@railwatt/contracts';
import type { ParsedPoint, ParseItem, SourceLocation } from '../timeseries/format.js';
import {
  chooseEnd,
  chooseStart,
  formatWall,
  isoInstant,
  readNumber,
  readTime,
  type TimeCellValue,
} from './table-times.js';

/**
 * The layout both time-series tables share (docs/formats/timeseries-tables.md): row 1 (the xlsx
 * sheet's first row, the CSV's line after the type line) names the columns `startInclusive`,
 * `endExclusive`, one column per series headed by its entity's identifier and, optionally, a column
 * `<identifier> quality` per series; every further row is one period. The xlsx and the CSV module
 * turn their cells into TableInput; this module turns rows into series chunks and problems.
 */
export const START_COLUMN = 'startInclusive';
export const END_COLUMN = 'endExclusive';
export const QUALITY_SUFFIX = ' quality';
/** A series comes in chunks of at most this many points. */
export const MAX_POINTS_PER_CHUNK = 5_000;

export interface TableInputRow {
  /** The sheet's row number or the CSV's line. */
  number: number;
  /** Cells by 1-based column; empty cells are absent (or null). */
  cells: ReadonlyMap<number, TimeCellValue>;
}

export interface TableInput {
  typeName: TimeSeriesTypeName;
  /** Header names by 1-based column. */
  header: ReadonlyMap<number, string>;
  /** Where the header row is (row 1, or the CSV's line 2). */
  headerRow: number;
  rows: Iterable<TableInputRow> | AsyncIterable<TableInputRow>;
  /** The location of a cell (an A1 cell of the sheet, or a CSV line and column). */
  locate(row: number, column: number): SourceLocation;
  timeZone: string;
}

interface SeriesColumn {
  identifier: string;
  column: number;
  qualityColumn?: number;
  location: SourceLocation;
  resolution?: Resolution;
  points: ParsedPoint[];
}

const problem = (location: SourceLocation, message: string): ParseItem => ({
  kind: 'problem',
  problem: { location, message },
});

export const invalidValue = (text: string, why?: string): string => `Value ${text} is invalid${why ? `: ${why}` : ''}`;

/** A cell as the person typed it, for messages. */
export function cellText(value: TimeCellValue): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : formatWall(value.getTime());
  return value === null || value === undefined ? '' : String(value);
}

const isEmpty = (value: TimeCellValue) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

function readQuality(value: TimeCellValue): QualityCode | undefined {
  const n = readNumber(value);
  return QUALITY_CODE_VALUES.find((q) => q === n);
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.toLowerCase();

/** Finds the time columns and the series (with their quality columns) of a header row. */
function readHeader(input: TableInput): { start?: number; end?: number; series: SeriesColumn[]; twice?: number } {
  let start: number | undefined;
  let end: number | undefined;
  let twice: number | undefined;
  const names = new Map<string, number>();
  for (const [column, raw] of input.header) {
    const name = raw.trim();
    if (!name) continue;
    if (sameName(name, START_COLUMN)) start ??= column;
    else if (sameName(name, END_COLUMN)) end ??= column;
    else if (names.has(name)) twice ??= column;
    else names.set(name, column);
  }
  const series: SeriesColumn[] = [];
  const qualityOf = new Map<string, number>();
  for (const [name, column] of names) {
    const base = name.slice(0, -QUALITY_SUFFIX.length);
    if (name.toLowerCase().endsWith(QUALITY_SUFFIX) && names.has(base)) qualityOf.set(base, column);
  }
  for (const [name, column] of names) {
    if ([...qualityOf.values()].includes(column)) continue;
    series.push({
      identifier: name,
      column,
      qualityColumn: qualityOf.get(name),
      location: input.locate(input.headerRow, column),
      points: [],
    });
  }
  return { start, end, series, twice };
}

function chunk(series: SeriesColumn, typeName: TimeSeriesTypeName): ParseItem {
  const points = series.points;
  series.points = [];
  return {
    kind: 'series',
    series: {
      typeName,
      identifier: series.identifier,
      resolution: series.resolution!,
      points,
      location: series.location,
    },
  };
}

/**
 * Reads the rows of one table into series chunks (at most MAX_POINTS_PER_CHUNK points, time order)
 * and problems, in row order. A row whose period cannot be read is skipped whole; a cell that
 * cannot be read loses only its point. Rows must follow each other in time without overlapping;
 * a series whose rows change resolution starts a new chunk.
 */
export async function* readSeriesTable(input: TableInput): AsyncGenerator<ParseItem> {
  const { typeName, timeZone, locate } = input;
  const header = readHeader(input);
  const headerLocation = locate(input.headerRow, 1);
  if (header.start === undefined) {
    yield problem(headerLocation, `Start date missing: no ${START_COLUMN} column`);
    return;
  }
  if (header.end === undefined) {
    yield problem(headerLocation, `End date missing: no ${END_COLUMN} column`);
    return;
  }
  if (header.twice !== undefined) {
    const name = input.header.get(header.twice)!.trim();
    yield problem(
      locate(input.headerRow, header.twice),
      `Something is wrong with data of type: ${typeName}: the column ${name} appears twice`,
    );
    return;
  }
  if (header.series.length === 0) {
    yield problem(headerLocation, `Something is wrong with data of type: ${typeName}: no series column`);
    return;
  }
  let previousEnd: number | undefined;
  for await (const row of input.rows) {
    const cells = row.cells;
    if ([...cells.values()].every(isEmpty)) continue;
    const startCell = cells.get(header.start);
    const endCell = cells.get(header.end);
    const startAt = locate(row.number, header.start);
    const endAt = locate(row.number, header.end);
    if (isEmpty(startCell)) {
      yield problem(startAt, `Start date missing (${START_COLUMN})`);
      continue;
    }
    if (isEmpty(endCell)) {
      yield problem(endAt, `End date missing (${END_COLUMN})`);
      continue;
    }
    const startTime = readTime(startCell);
    const start = startTime && chooseStart(startTime, previousEnd, timeZone);
    if (start === undefined) {
      yield problem(startAt, invalidValue(cellText(startCell)));
      continue;
    }
    if (previousEnd !== undefined && start < previousEnd) {
      yield problem(startAt, invalidValue(cellText(startCell), 'the periods must follow each other in time'));
      continue;
    }
    const endTime = readTime(endCell);
    const period = endTime && chooseEnd(endTime, start, timeZone);
    if (!period) {
      const why = endTime ? 'the period must be 5 minutes, 15 minutes, an hour, a day, a month or a year' : undefined;
      yield problem(endAt, invalidValue(cellText(endCell), why));
      continue;
    }
    previousEnd = period.end;
    for (const series of header.series) {
      const valueCell = cells.get(series.column);
      const qualityCell = series.qualityColumn === undefined ? undefined : cells.get(series.qualityColumn);
      let quality: QualityCode = QUALITY_CODES.measured;
      if (!isEmpty(qualityCell)) {
        const q = readQuality(qualityCell);
        if (q === undefined) {
          yield problem(locate(row.number, series.qualityColumn!), invalidValue(cellText(qualityCell)));
          continue;
        }
        quality = q;
      }
      let value: number | null = null;
      if (isEmpty(valueCell)) {
        // An empty cell is no point, unless its quality says the value does not exist.
        if (quality !== QUALITY_CODES.nonExistent) continue;
      } else {
        const n = readNumber(valueCell);
        const at = locate(row.number, series.column);
        if (n === undefined) {
          yield problem(at, invalidValue(cellText(valueCell)));
          continue;
        }
        if (quality === QUALITY_CODES.nonExistent) {
          yield problem(at, invalidValue(cellText(valueCell), 'quality 46 (non-existent) takes no value'));
          continue;
        }
        value = n;
      }
      if (series.resolution !== period.resolution) {
        if (series.points.length > 0) yield chunk(series, typeName);
        series.resolution = period.resolution;
      }
      series.points.push({ start: isoInstant(start), value, quality });
      if (series.points.length >= MAX_POINTS_PER_CHUNK) yield chunk(series, typeName);
    }
  }
  for (const series of header.series) if (series.points.length > 0) yield chunk(series, typeName);
}

/** Stops a parse after `max` problems (the file is refused anyway); the last item says so. */
export async function* limitProblems(items: AsyncIterable<ParseItem>, max = 100): AsyncGenerator<ParseItem> {
  let problems = 0;
  for await (const item of items) {
    if (item.kind === 'problem' && ++problems > max) {
      yield problem({}, `Something is wrong with uploaded data: more than ${max} problems, reading stopped`);
      return;
    }
    yield item;
  }
}

/** The bytes of an upload, or undefined when there are more than `maxBytes`. */
export async function readAllBytes(input: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of input) {
    size += part.length;
    if (size > maxBytes) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts);
}
