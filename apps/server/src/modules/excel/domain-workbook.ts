import {
  ENTITY_STATES,
  OPEN_END,
  toEntityKind,
  wallClockToInstant,
  type EntityKind,
  type EntityState,
  type SheetFailure,
  type SheetParseResult,
} from '@railwatt/contracts';
import { formatAreaDay, formatAreaInstant, parseDottedDay } from '../../formats/area-date.js';
import type { CellValue, TableSheet, TableSheetToWrite } from '../../formats/xlsx/table-workbook.js';
import {
  BASE_COLUMNS,
  fieldOfHeader,
  LIST_SEPARATOR,
  sheetLayout,
  type ColumnSpec,
  type SheetLayout,
} from './entity-columns.js';

/**
 * The domain workbook (exportedentities.xlsx and what /excel/domain/import reads): one sheet per
 * entity type, row 1 the field names, one row per entity segment. This module turns table sheets
 * into segment rows and back; it checks the shape of every cell (dates, numbers, lists, enums) and
 * leaves references as names, which the import service resolves against the tenant's entities.
 */

// The answer's shapes come from the contract (calls.md §3 "Upload failure structure").
export type { SheetFailure, SheetParseResult };

/** A segment as a sheet row holds it; reference attributes still hold names. */
export interface SegmentRow {
  kind: EntityKind;
  typeName: string;
  sheetName: string;
  rowNumber: number;
  uuid: string | undefined;
  name: string;
  validFrom: string;
  validTo: string;
  state: EntityState;
  active: boolean;
  comments: string | null;
  attributes: Record<string, unknown>;
  /** The column header each field was read from (as the file spells it), for messages. */
  headers: Record<string, string>;
}

export interface ParsedSheet {
  result: SheetParseResult;
  layout: SheetLayout | undefined;
  rows: SegmentRow[];
}

export const cellMessage = (rowNumber: number, column: string, message: string) =>
  `Row ${rowNumber}, column ${column}: ${message}`;

/** calls.md §8 "Upload failures": 'Value X is invalid' (the server's 'Cannot convert value'). */
export const invalidValue = (value: unknown) => `Value ${displayValue(value)} is invalid`;

const displayValue = (value: unknown) =>
  value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class CellError {
  constructor(readonly message: string) {}
}

// ---------------------------------------------------------------------------------------------
// Dates. Exports write the spec's dd.MM.yyyy (with HH:mm when not midnight) on the wall clock of the
// area's time zone (formats/area-date.ts). People may also type '2024-01-31' or enter a date cell;
// all those are wall-clock times of the area's zone (wallClockToInstant, shared with the web through
// the contracts). Exact ISO instants with a zone ('2024-01-31T23:00:00Z', older exports) still read.

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** The picker's last day (2070-01-01) as wall clock: an end on or after it is the open end (dayEndInZone). */
const OPEN_END_WALL = Date.UTC(2070, 0, 1);

function parseInstant(value: CellValue, timeZone: string, asEnd = false): string | CellError {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return new CellError(invalidValue(value));
    return wallClockToInstant(value.getTime(), timeZone).toISOString();
  }
  if (typeof value !== 'string') return new CellError(invalidValue(value));
  const text = value.trim();
  if (ISO_INSTANT.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? new CellError(invalidValue(value)) : new Date(ms).toISOString();
  }
  let m = ISO_LOCAL.exec(text);
  let parts: number[] | undefined;
  if (m) parts = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) => Number(p ?? 0));
  else if ((m = DOTTED.exec(text))) parts = [m[3], m[2], m[1], m[4], m[5], m[6]].map((p) => Number(p ?? 0));
  if (!parts) return new CellError(invalidValue(value));
  const [y, mo, d, h, mi, s] = parts as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    return new CellError(invalidValue(value));
  }
  // 01.01.2070 typed as an end means "open-ended", not midnight in the area's zone (which in Oslo is
  // 2069-12-31T23:00Z and would leave the old state in the last hour).
  if (asEnd && wall >= OPEN_END_WALL) return OPEN_END;
  return wallClockToInstant(wall, timeZone).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Cells -> values

const asText = (value: CellValue): string =>
  value instanceof Date ? value.toISOString() : typeof value === 'string' ? value.trim() : String(value);

function parseNumber(value: CellValue): number | CellError {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    // Decimal comma as people in every market we serve type it.
    const text = value.trim().replace(/\s/g, '').replace(',', '.');
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return Number(text);
  }
  return new CellError(invalidValue(value));
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'x', 'ja', 'sand', 'si', 'kyllä']);
const FALSE = new Set(['false', 'no', 'n', '0', 'nei', 'nej', 'ei']);

function parseBoolean(value: CellValue): boolean | CellError {
  if (typeof value === 'boolean') return value;
  const text = asText(value).toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return new CellError(invalidValue(value));
}

function parseScalar(spec: ColumnSpec, value: CellValue): unknown {
  switch (spec.kind) {
    case 'text':
      return asText(value);
    case 'number':
      return parseNumber(value);
    case 'integer': {
      const n = parseNumber(value);
      return n instanceof CellError || Number.isInteger(n) ? n : new CellError(invalidValue(value));
    }
    case 'boolean':
      return parseBoolean(value);
    case 'date':
      if (value instanceof Date) return value.toISOString().slice(0, 10);
      return parseDottedDay(asText(value)) ?? asText(value);
    case 'uuid': {
      const text = asText(value);
      return UUID.test(text) ? text.toLowerCase() : new CellError(invalidValue(value));
    }
    case 'enum': {
      const text = asText(value);
      const match = spec.values.find((v) => v.toLowerCase() === text.toLowerCase());
      return match ?? new CellError(invalidValue(value));
    }
    case 'ref':
      return asText(value);
    case 'refList':
      return splitList(asText(value));
    case 'list': {
      const items = typeof value === 'number' ? [value] : splitList(asText(value));
      const out: unknown[] = [];
      for (const item of items) {
        const parsed = parseScalar(spec.element, item);
        if (parsed instanceof CellError) return parsed;
        out.push(parsed);
      }
      return out;
    }
    case 'json':
      try {
        return JSON.parse(asText(value));
      } catch {
        return new CellError(invalidValue(value));
      }
  }
}

const splitList = (text: string) =>
  text
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);

// ---------------------------------------------------------------------------------------------
// Sheets -> segment rows

export interface ReadOptions {
  timeZone: string;
}

export function parseDomainSheet(sheet: TableSheet, options: ReadOptions): ParsedSheet {
  const kind = toEntityKind(sheet.name);
  const result: SheetParseResult = {
    sheetName: sheet.name,
    type: sheet.name,
    rowsRead: sheet.rows.length,
    failures: [],
  };
  const fail = (errorMessage: string) => result.failures.push({ errorMessage, type: result.type });
  if (!kind) {
    fail(`Something is wrong with data of type: ${sheet.name}. The sheet name must be an entity type`);
    return { result, layout: undefined, rows: [] };
  }
  const layout = sheetLayout(kind);
  result.type = layout.typeName;
  if (sheet.sheetError) {
    fail(`Something is wrong with data of type: ${layout.typeName}. ${sheet.sheetError}`);
    return { result, layout, rows: [] };
  }

  // Headers name fields by label ('Valid from', as exports write) or by field name ('validFrom'),
  // case-insensitively ('EVN' is 'evn').
  const fieldByHeader = new Map<string, string>();
  for (const header of sheet.columns) {
    const field = fieldOfHeader(layout, header);
    if (field && [...fieldByHeader.values()].includes(field)) {
      fail(cellMessage(1, header, `Another column already holds ${field}`));
    } else if (field) fieldByHeader.set(header, field);
    else fail(cellMessage(1, header, `${header} is not a field of ${layout.typeName}`));
  }
  if (![...fieldByHeader.values()].includes('name') && kind !== 'tractionunit' && kind !== 'consumptionpoint') {
    fail(cellMessage(1, 'name', 'The name column is missing'));
  }
  for (const problem of sheet.problems) fail(cellMessage(problem.rowNumber, problem.column, problem.message));

  const specs = new Map(layout.attributes.map((a) => [a.field, a]));
  const rows: SegmentRow[] = [];
  for (const { rowNumber, cells } of sheet.rows) {
    const byField = new Map<string, { header: string; value: CellValue }>();
    for (const [header, value] of Object.entries(cells)) {
      const field = fieldByHeader.get(header);
      if (field) byField.set(field, { header, value });
    }
    const headerOf = (field: string) => byField.get(field)?.header ?? field;
    const value = (field: string) => byField.get(field)?.value ?? null;
    let ok = true;
    const rowFail = (field: string, message: string) => {
      ok = false;
      fail(cellMessage(rowNumber, headerOf(field), message));
    };

    let uuid: string | undefined;
    const rawUuid = value('uuid');
    if (rawUuid !== null) {
      const text = asText(rawUuid);
      if (UUID.test(text)) uuid = text.toLowerCase();
      else rowFail('uuid', invalidValue(rawUuid));
    }
    let name = value('name') === null ? '' : asText(value('name')!);
    // As the domain service derives them: a traction unit is named by its EVN, a consumption
    // point by EVN and EMS id, when the name cell is empty.
    if (!name && kind === 'tractionunit' && value('evn') !== null) name = asText(value('evn')!);
    if (!name && kind === 'consumptionpoint' && value('evn') !== null && value('emsId') !== null) {
      name = `${asText(value('evn')!)}${asText(value('emsId')!)}`;
    }
    if (!name) rowFail('name', 'Field should not be empty');

    const instant = (field: 'validFrom' | 'validTo', missing: string): string => {
      const raw = value(field);
      if (raw === null) {
        rowFail(field, missing);
        return '';
      }
      const parsed = parseInstant(raw, options.timeZone, field === 'validTo');
      if (parsed instanceof CellError) {
        rowFail(field, parsed.message);
        return '';
      }
      return parsed;
    };
    // calls.md §8: 'Start date missing' (startInclusive), 'End date missing' (endExclusive).
    const validFrom = instant('validFrom', 'Start date missing');
    const validTo = instant('validTo', 'End date missing');
    if (validFrom && validTo && Date.parse(validFrom) >= Date.parse(validTo)) {
      rowFail('validTo', 'From date must be before to date');
    }

    let state: EntityState = 'ACTIVE';
    const rawState = value('state');
    if (rawState !== null) {
      const text = asText(rawState).toUpperCase();
      const match = ENTITY_STATES.find((s) => s === text);
      if (match) state = match;
      else rowFail('state', invalidValue(rawState));
    }
    let active = state !== 'INACTIVE' && state !== 'RETIRED';
    const rawActive = value('active');
    if (rawActive !== null) {
      const parsed = parseBoolean(rawActive);
      if (parsed instanceof CellError) rowFail('active', parsed.message);
      else active = parsed;
    }
    const rawComments = value('comments');
    const comments = rawComments === null ? null : asText(rawComments);

    const attributes: Record<string, unknown> = {};
    for (const [field, { value: cell }] of byField) {
      if ((BASE_COLUMNS as readonly string[]).includes(field)) continue;
      const spec = specs.get(field);
      if (!spec) continue;
      const parsed = parseScalar(spec, cell);
      if (parsed instanceof CellError) rowFail(field, parsed.message);
      else attributes[field] = parsed;
    }
    if (ok) {
      rows.push({
        kind,
        typeName: layout.typeName,
        sheetName: sheet.name,
        rowNumber,
        uuid,
        name,
        validFrom,
        validTo,
        state,
        active,
        comments,
        attributes,
        headers: Object.fromEntries([...fieldByHeader].map(([header, field]) => [field, header])),
      });
    }
  }
  return { result, layout, rows };
}

// ---------------------------------------------------------------------------------------------
// Segments -> sheets

/** A stored segment to export, references already turned into names. */
export interface ExportSegment {
  uuid: string;
  name: string;
  validFrom: string;
  validTo: string;
  state: string;
  active: boolean;
  comments: string | null;
  attributes: Record<string, unknown>;
}

function cellOf(spec: ColumnSpec, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (spec.kind === 'date' && typeof value === 'string') return formatAreaDay(value);
  if (Array.isArray(value)) {
    if (spec.kind === 'json') return JSON.stringify(value);
    return value.length === 0 ? null : value.map((v) => String(v)).join(LIST_SEPARATOR);
  }
  if (spec.kind === 'json') {
    if (typeof value === 'object' && Object.keys(value).length === 0) return null;
    return JSON.stringify(value);
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** One sheet: readable labels in row 1, validity as dd.MM.yyyy in the area's time zone. */
export function domainSheet(
  kind: EntityKind,
  segments: readonly ExportSegment[],
  options: { timeZone: string },
): TableSheetToWrite {
  const layout = sheetLayout(kind);
  return {
    name: layout.typeName,
    columns: layout.labels,
    rows: segments.map((s) => [
      s.uuid,
      s.name,
      formatAreaInstant(s.validFrom, options.timeZone),
      formatAreaInstant(s.validTo, options.timeZone),
      s.state,
      s.active,
      s.comments,
      ...layout.attributes.map((spec) => cellOf(spec, s.attributes[spec.field])),
    ]),
  };
}
