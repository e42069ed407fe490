import { QUALITY_CODES, type TimeSeriesTypeName } from '@railwatt/contracts';
import { CsvReadError, decodeCsvText, readCsvRecords, type CsvRecord } from '../csv/csv-records.js';
import { parseDottedDay } from '../area-date.js';
import { limitProblems, MAX_POINTS_PER_CHUNK, readAllBytes } from '../timeseries-table/table-series.js';
import { isoInstant, readNumber, wallCandidates } from '../timeseries-table/table-times.js';
import type { IntakeFormat, ParsedSeries, ParseItem, ParseOptions, SourceLocation } from '../timeseries/format.js';

/**
 * Nord Pool day-ahead prices (docs/formats/nordpool.md): a CSV close to Nord Pool's hourly export,
 *
 *   Delivery day;Hour;NO1;NO2;NO3;NO4;NO5;Currency;Exchange rate
 *   27.10.2024;02-03A;45,12;44,80;12,01;12,01;45,12;NOK;11,6545
 *
 * one line per delivery hour on the area's wall clock (23 on the day daylight saving starts, 25 on the
 * day it ends, the repeated hour as 02-03A and 02-03B), prices in EUR/MWh per price area column. It
 * gives a 'spot_price' PT1H series per price area (identifier: the column's name) and a
 * 'currency_exchange_rate' PT1H series whose identifier is the Currency column's code; the intake
 * maps that code to the settlement area (contracts countryCurrency, by the area's kind). Messages name the line and column.
 */
export const DAY_COLUMN = 'Delivery day';
export const HOUR_COLUMN = 'Hour';
export const CURRENCY_COLUMN = 'Currency';
export const RATE_COLUMN = 'Exchange rate';
export const PRICE_UNIT = 'EUR/MWh';
export const MAX_NORDPOOL_BYTES = 50 * 1024 * 1024;

const HEADER_LINE = /^\s*"?delivery day"?\s*([;,])/i;
const HOUR = /^(\d{1,2})\s*-\s*(\d{1,2})\s*([AB])?$/i;
const DASHED_DAY = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const UPLOAD_BROKEN = 'Something is wrong with uploaded data';
const HOUR_MS = 3_600_000;

const problem = (location: SourceLocation, message: string): ParseItem => ({
  kind: 'problem',
  problem: { location, message },
});
const invalid = (text: string, why?: string) => `Value ${text} is invalid${why ? `: ${why}` : ''}`;

/** 'dd.MM.yyyy', 'dd-MM-yyyy', 'dd/MM/yyyy' or 'yyyy-MM-dd' as the wall-clock midnight (ms as if UTC). */
export function readDeliveryDay(text: string): number | undefined {
  const t = text.trim();
  const dashed = DASHED_DAY.exec(t);
  const day = ISO_DAY.test(t) ? t : parseDottedDay(dashed ? `${dashed[1]}.${dashed[2]}.${dashed[3]}` : t);
  if (!day || !ISO_DAY.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  const year = Number(day.slice(0, 4));
  // Date.parse rolls 2024-02-30 over; the round trip catches it. Days outside 1970-2069 are not prices.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day || year < 1970 || year > 2069) {
    return undefined;
  }
  return ms;
}

/** A price: a number with a decimal comma or point; spaces between thousands ('1 234,56') are allowed. */
const readPrice = (text: string) => readNumber(text.replace(/(?<=\d)[\s\u00a0\u202f](?=\d{3}(?:\D|$))/g, ''));

interface Layout {
  day: number;
  hour: number;
  currency?: number;
  rate?: number;
  areas: { name: string; column: number }[];
}

function readLayout(fields: string[]): Layout | string {
  const find = (name: string) => {
    const i = fields.findIndex((f) => f.trim().toLowerCase() === name.toLowerCase());
    return i < 0 ? undefined : i;
  };
  const [day, hour, currency, rate] = [find(DAY_COLUMN), find(HOUR_COLUMN), find(CURRENCY_COLUMN), find(RATE_COLUMN)];
  if (day === undefined || hour === undefined)
    return `the first line must name the columns ${DAY_COLUMN} and ${HOUR_COLUMN}`;
  const areas: Layout['areas'] = [];
  for (const [column, field] of fields.entries()) {
    const name = field.trim();
    if (!name || [day, hour, currency, rate].includes(column)) continue;
    if (areas.some((a) => a.name === name)) return `the column ${name} appears twice`;
    areas.push({ name, column });
  }
  return { day, hour, currency, rate, areas };
}

class Chunker {
  private readonly open = new Map<string, ParsedSeries>();
  constructor(private readonly typeName: TimeSeriesTypeName) {}

  /** Adds a point; answers a full chunk to yield. */
  add(identifier: string, location: SourceLocation, start: number, value: number): ParsedSeries | undefined {
    let series = this.open.get(identifier);
    if (!series) {
      series = { typeName: this.typeName, identifier, resolution: 'PT1H', points: [], location };
      if (this.typeName === 'spot_price') series.unit = PRICE_UNIT;
      this.open.set(identifier, series);
    }
    series.points.push({ start: isoInstant(start), value, quality: QUALITY_CODES.measured });
    if (series.points.length < MAX_POINTS_PER_CHUNK) return undefined;
    this.open.delete(identifier);
    return series;
  }

  rest(): ParsedSeries[] {
    const rest = [...this.open.values()];
    this.open.clear();
    return rest;
  }
}

/**
 * The instant a delivery hour starts. A wall-clock hour the day repeats is the first pass (A), the
 * second (B), or without a letter the first one after the line before; undefined for an hour the day
 * skips (or a letter on an hour that is not repeated).
 */
function hourStart(day: number, hour: number, pass: string | undefined, previous: number | undefined, tz: string) {
  const candidates = wallCandidates(day + hour * HOUR_MS, tz);
  if (pass && candidates.length !== 2) return undefined;
  if (pass?.toUpperCase() === 'A') return candidates[0];
  if (pass?.toUpperCase() === 'B') return candidates[1];
  return candidates.find((c) => previous === undefined || c > previous) ?? candidates[0];
}

async function* parseNordpool(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const bytes = await readAllBytes(input, MAX_NORDPOOL_BYTES);
  if (!bytes) {
    yield problem({}, `${UPLOAD_BROKEN}: the file is larger than ${MAX_NORDPOOL_BYTES} bytes`);
    return;
  }
  const text = decodeCsvText(bytes);
  const headerLine = HEADER_LINE.exec(text.split(/\r?\n/, 1)[0] ?? '');
  if (!headerLine) {
    yield problem({ line: 1 }, `${UPLOAD_BROKEN}: the first line must start with ${DAY_COLUMN};${HOUR_COLUMN}`);
    return;
  }
  const prices = new Chunker('spot_price');
  const rates = new Chunker('currency_exchange_rate');
  let layout: Layout | undefined;
  let previous: number | undefined;
  try {
    for await (const record of readCsvRecords(text, headerLine[1] as ';' | ',')) {
      if (!layout) {
        const read = readLayout(record.fields);
        if (typeof read === 'string') {
          yield problem({ line: record.line }, `${UPLOAD_BROKEN}: ${read}`);
          return;
        }
        layout = read;
        continue;
      }
      const row = readRow(record, layout, previous, options.timeZone);
      yield* row.problems;
      if (row.start === undefined) continue;
      previous = row.start;
      for (const area of layout.areas) {
        const cell = record.fields[area.column]?.trim() ?? '';
        if (!cell) continue;
        const at = { line: record.line, column: area.column + 1 };
        const price = readPrice(cell);
        if (price === undefined) yield problem(at, invalid(cell));
        else {
          const full = prices.add(area.name, { line: 1, column: area.column + 1 }, row.start, price);
          if (full) yield { kind: 'series', series: full };
        }
      }
      if (row.rate !== undefined && row.currency) {
        const full = rates.add(row.currency, { line: 1, column: layout.rate! + 1 }, row.start, row.rate);
        if (full) yield { kind: 'series', series: full };
      }
    }
  } catch (error) {
    const line = error instanceof CsvReadError ? error.line : undefined;
    yield problem({ line }, `${UPLOAD_BROKEN}: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const series of [...prices.rest(), ...rates.rest()]) yield { kind: 'series', series };
}

interface ReadRow {
  start?: number;
  currency?: string;
  rate?: number;
  problems: ParseItem[];
}

function readRow(record: CsvRecord, layout: Layout, previous: number | undefined, timeZone: string): ReadRow {
  const out: ReadRow = { problems: [] };
  const fields = record.fields;
  const cell = (column: number | undefined) => (column === undefined ? '' : (fields[column]?.trim() ?? ''));
  const at = (column: number) => ({ line: record.line, column: column + 1 });
  if (fields.every((f) => !f.trim())) return out;
  const [dayText, hourText] = [cell(layout.day), cell(layout.hour)];
  if (!dayText) return { problems: [problem(at(layout.day), `Start date missing (${DAY_COLUMN})`)] };
  if (!hourText) return { problems: [problem(at(layout.hour), `Start date missing (${HOUR_COLUMN})`)] };
  const day = readDeliveryDay(dayText);
  if (day === undefined) return { problems: [problem(at(layout.day), invalid(dayText))] };
  const hour = HOUR.exec(hourText);
  const [from, to] = hour ? [Number(hour[1]), Number(hour[2])] : [NaN, NaN];
  if (!hour || from > 23 || !(to === from + 1 || (from === 23 && to === 0))) {
    return { problems: [problem(at(layout.hour), invalid(hourText))] };
  }
  const start = hourStart(day, from, hour[3], previous, timeZone);
  const pricesGiven = layout.areas.some((a) => cell(a.column) !== '') || cell(layout.rate) !== '';
  if (start === undefined) {
    // Nord Pool's own files keep an empty line for the hour skipped when daylight saving starts.
    if (!pricesGiven && !hour[3]) return out;
    return { problems: [problem(at(layout.hour), invalid(hourText, 'the hour does not exist on that day'))] };
  }
  if (previous !== undefined && start <= previous) {
    return { problems: [problem(at(layout.hour), invalid(hourText, 'the hours must follow each other in time'))] };
  }
  out.start = start;
  const rateText = cell(layout.rate);
  if (rateText) {
    const rate = readPrice(rateText);
    const currency = cell(layout.currency).toUpperCase();
    if (rate === undefined || rate <= 0) out.problems.push(problem(at(layout.rate!), invalid(rateText)));
    else if (!currency) {
      const column = layout.currency ?? layout.rate!;
      out.problems.push(
        problem(at(column), 'Something is wrong with data of type: currency_exchange_rate: no currency'),
      );
    } else if (!/^[A-Z]{3}$/.test(currency))
      out.problems.push(problem(at(layout.currency!), invalid(cell(layout.currency))));
    else Object.assign(out, { rate, currency });
  }
  return out;
}

export const nordpoolFormat: IntakeFormat = {
  name: 'nordpool',
  detect: (fileName, head) =>
    /\.csv$/i.test(fileName.trim()) && HEADER_LINE.test(decodeCsvText(head).split(/\r?\n/, 1)[0] ?? ''),
  parse: (input, options) => limitProblems(parseNordpool(input, options), options.maxProblems),
};
