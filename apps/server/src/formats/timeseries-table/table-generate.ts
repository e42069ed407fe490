import { dayStartInZone, TIME_SERIES_TYPES, type Resolution, type TimeSeriesTypeName } from '@railwatt/contracts';
import { seededRandom } from '../nordpool/nordpool-generate.js';
import type { ParsedPoint } from '../timeseries/format.js';
import {
  writeTimeSeriesCsv,
  writeTimeSeriesWorkbook,
  type SeriesToWrite,
  type TimeSeriesSheetToWrite,
} from './table-write.js';
import { isoInstant, periodEnd } from './table-times.js';

/**
 * Valid time-series tables for demo data, benchmarks and tests: deterministic (the same options give
 * the same series), written by the export writer so they are what the readers read.
 */
export interface TableFileOptions {
  typeName: TimeSeriesTypeName;
  /** Identifiers of the series (CPIDs, metering point names, price area names ...). */
  identifiers: string[];
  /** First day, YYYY-MM-DD, on the area's calendar. */
  fromDay: string;
  days: number;
  timeZone?: string;
  /** The type's resolution when not given. */
  resolution?: Resolution;
  seed?: number;
  /** Every n-th point estimated (56), to exercise quality columns; none when not given. */
  estimatedEvery?: number;
}

const DAY_MS = 24 * 3_600_000;

/** The generated series of one type, as the writers take them. */
export function generateTimeSeriesSheet(options: TableFileOptions): TimeSeriesSheetToWrite {
  const timeZone = options.timeZone ?? 'Europe/Oslo';
  const resolution = options.resolution ?? TIME_SERIES_TYPES[options.typeName].resolution;
  const first = Date.parse(dayStartInZone(options.fromDay, timeZone));
  const endDay = new Date(Date.parse(`${options.fromDay}T00:00:00Z`) + options.days * DAY_MS).toISOString();
  const last = Date.parse(dayStartInZone(endDay.slice(0, 10), timeZone));
  const starts: number[] = [];
  for (let start = first; start < last; start = periodEnd(start, resolution, timeZone)) starts.push(start);
  const random = seededRandom(options.seed ?? 1);
  const series: SeriesToWrite[] = options.identifiers.map((identifier, k) => ({
    identifier,
    points: starts.map((start, i): ParsedPoint => ({
      start: isoInstant(start),
      value: Math.round((50 + 30 * Math.sin(i / 12 + k) + 5 * random()) * 1000) / 1000,
      quality: options.estimatedEvery && i % options.estimatedEvery === 0 ? 56 : 127,
    })),
  }));
  return { typeName: options.typeName, timeZone, resolution, series };
}

/** An xlsx file of one or more types (exportedtimeseries.xlsx layout). */
export const generateTimeSeriesWorkbook = (options: TableFileOptions | TableFileOptions[]): Promise<Buffer> =>
  writeTimeSeriesWorkbook((Array.isArray(options) ? options : [options]).map(generateTimeSeriesSheet));

/** A CSV file of one type. */
export const generateTimeSeriesCsv = (options: TableFileOptions): Buffer =>
  writeTimeSeriesCsv(generateTimeSeriesSheet(options));
