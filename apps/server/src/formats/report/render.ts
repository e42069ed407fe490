/**
 * What every report renderer (csv.ts, xlsx.ts, xml.ts) is given, and the one way each writes a
 * value (issue 20): numbers to 4 decimals (calls.md §9), instants on the wall clock of the area's
 * zone with their UTC offset ("2026-10-01T10:00:00+02:00": unambiguous on the day the clock goes
 * back), days as yyyy-MM-dd. The rows come in batches in the report's order; a renderer yields its
 * file's bytes as it goes and never holds more than a batch (the data log stores them 1 MB at a
 * time: modules/datalog/file-store.ts).
 */

import { zoneOffset } from '../timeseries-table/table-times.js';

export type RenderColumnKind = 'text' | 'number' | 'integer' | 'time' | 'day';

export interface RenderColumn {
  key: string;
  kind: RenderColumnKind;
  /** The header with its unit, in the order's language ("Metered energy (kWh)"). */
  header: string;
}

export interface RenderSpec {
  reportName: string;
  /** The XML family (one XSD per family, docs/reports/<family>.xsd). */
  family: string;
  title: string;
  language: string;
  area: string;
  zone: string;
  currency: string;
  period: { start: string; end: string };
  generatedAt: string;
  columns: readonly RenderColumn[];
}

export type RenderRow = Record<string, unknown>;

export interface ReportRenderer {
  extension: string;
  contentType: string;
  render(spec: RenderSpec, batches: AsyncIterable<RenderRow[]>): AsyncIterable<Uint8Array>;
}

export const NUMBER_DECIMALS = 4;

const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/** A numeric value (number, numeric text, bigint) as a number; null when absent or not a number. */
export function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** 4 decimals, a point, no grouping; -0 written as 0. */
export function formatNumber(value: unknown): string {
  const n = numberOf(value);
  if (n === null) return '';
  const text = n.toFixed(NUMBER_DECIMALS);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

/** The number rounded to 4 decimals (xlsx cells keep numbers as numbers). */
export function roundNumber(value: unknown): number | null {
  const n = numberOf(value);
  return n === null ? null : Number(n.toFixed(NUMBER_DECIMALS)) + 0;
}

function instantMs(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** An instant on the zone's wall clock with its offset: 2026-10-01T10:00:00+02:00. */
export function formatZoned(value: unknown, zone: string): string {
  const ms = instantMs(value);
  if (ms === null) return '';
  const wallMs = ms + zoneOffset(ms, zone);
  const wall = new Date(wallMs);
  const offsetMinutes = Math.round((wallMs - ms) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.abs(offsetMinutes) / 60)}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${offset}`
  );
}

/** A day: a yyyy-MM-dd text as it is, a Date as its UTC day. */
export function formatDay(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value === null || value === undefined ? '' : String(value).slice(0, 10);
}

/** A value as text in a column of `kind` (csv, xml). */
export function formatValue(value: unknown, kind: RenderColumnKind, zone: string): string {
  switch (kind) {
    case 'number':
      return formatNumber(value);
    case 'integer': {
      const n = numberOf(value);
      return n === null ? '' : String(Math.round(n));
    }
    case 'time':
      return formatZoned(value, zone);
    case 'day':
      return formatDay(value);
    case 'text':
      return value === null || value === undefined ? '' : String(value);
  }
}
