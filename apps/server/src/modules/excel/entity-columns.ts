import { ENTITY_KINDS, ENTITY_REFERENCES, KIND_ATTRIBUTE_SCHEMAS, type EntityKind } from '@railwatt/contracts';
import type { z } from 'zod';

/**
 * The columns of a domain workbook sheet, derived from the kind's attribute schema in
 * packages/contracts (KIND_ATTRIBUTE_SCHEMAS), so a field added to a kind appears in exports and
 * is accepted by imports without touching this module.
 *
 * Row 1 holds readable column labels ('Valid from', 'Traction unit type', 'EVN'): the base fields of
 * every entity segment, then the kind's attributes in schema order. Imports accept the label or the
 * field name ('validFrom'), which earlier exports wrote. References are written as the referenced
 * entity's name so that people can edit them; REF_TARGETS says which kind each reference field
 * points at.
 */
export const BASE_COLUMNS = ['uuid', 'name', 'validFrom', 'validTo', 'state', 'active', 'comments'] as const;
export type BaseColumn = (typeof BASE_COLUMNS)[number];

/**
 * Which kind a reference attribute points at, from the one declaration of references in contracts
 * (ENTITY_REFERENCES; a field name means the same target in every kind that has it).
 */
export const REF_TARGETS: Readonly<Record<string, EntityKind>> = Object.fromEntries(
  Object.values(ENTITY_REFERENCES).flatMap((fields) =>
    Object.entries(fields).map(([field, targets]) => [field, targets[0] as EntityKind]),
  ),
);

/** Attributes the server derives on save; exported for reading, ignored on import. */
export const DERIVED_ATTRIBUTES: Partial<Record<EntityKind, readonly string[]>> = {
  consumptionpoint: ['cpid'],
};

export type ScalarKind = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'uuid';

export type ColumnSpec =
  | { field: string; kind: ScalarKind; required: boolean }
  | { field: string; kind: 'enum'; values: readonly string[]; required: boolean }
  | { field: string; kind: 'ref'; target: EntityKind; required: boolean }
  | { field: string; kind: 'refList'; target: EntityKind; required: boolean }
  | { field: string; kind: 'list'; element: ColumnSpec; required: boolean }
  /** Objects, records, tuples and anything else: JSON text in the cell. */
  | { field: string; kind: 'json'; required: boolean };

/** Separator of list cells ('a;b;c'), as the spec separates e-mails. */
export const LIST_SEPARATOR = ';';

// Just enough of zod 4's internal definition to walk a schema.
interface ZodDefLike {
  type: string;
  format?: string;
  innerType?: ZodLike;
  in?: ZodLike;
  element?: ZodLike;
  entries?: Record<string, string>;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
}
interface ZodLike {
  _zod: { def: ZodDefLike };
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

function unwrap(schema: ZodLike): { inner: ZodLike; required: boolean } {
  let inner = schema;
  let required = true;
  for (let depth = 0; depth < 10; depth++) {
    const def = inner._zod.def;
    if (WRAPPERS.has(def.type) && def.innerType) {
      if (def.type !== 'nonoptional') required = false;
      inner = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      inner = def.in;
    } else break;
  }
  return { inner, required };
}

function specOf(field: string, schema: ZodLike): ColumnSpec {
  const { inner, required } = unwrap(schema);
  const def = inner._zod.def;
  const target = REF_TARGETS[field];
  switch (def.type) {
    case 'string':
      if (def.format === 'uuid' || def.format === 'guid') {
        return target ? { field, kind: 'ref', target, required } : { field, kind: 'uuid', required };
      }
      if (def.format === 'date') return { field, kind: 'date', required };
      return { field, kind: 'text', required };
    case 'number': {
      const isInt =
        def.format === 'safeint' ||
        def.format === 'int32' ||
        (def.checks ?? []).some((c) => c._zod.def.format === 'safeint' || c._zod.def.format === 'int32');
      return { field, kind: isInt ? 'integer' : 'number', required };
    }
    case 'boolean':
      return { field, kind: 'boolean', required };
    case 'enum':
      return { field, kind: 'enum', values: Object.values(def.entries ?? {}), required };
    case 'array': {
      const element = specOf(field, def.element!);
      if (element.kind === 'ref') return { field, kind: 'refList', target: element.target, required };
      if (element.kind === 'json' || element.kind === 'list' || element.kind === 'refList') {
        return { field, kind: 'json', required };
      }
      return { field, kind: 'list', element, required };
    }
    default:
      return { field, kind: 'json', required };
  }
}

export interface SheetLayout {
  kind: EntityKind;
  /** The sheet name and wire type, e.g. 'TractionUnit'. */
  typeName: string;
  /** Field names, base fields first. */
  columns: string[];
  /** The label of each column (same order), as exports write row 1. */
  labels: string[];
  attributes: ColumnSpec[];
}

/** Words written in capitals in labels. */
const ACRONYMS = new Set(['evn', 'vkm', 'nvr', 'cpid', 'ems', 'uuid', 'vat']);

/** Labels that derivation would get wrong or that the screens spell differently. */
const LABEL_OVERRIDES: Readonly<Record<string, string>> = {
  uuid: 'UUID',
  orgId: 'Organisation id',
};

/**
 * 'tractionUnitTypeRef' -> 'Traction unit type', 'consumptionPointRefs' -> 'Consumption points',
 * 'emsId' -> 'EMS id': camel case split into words, the reference suffix dropped, acronyms in capitals.
 */
export function columnLabel(field: string): string {
  const override = LABEL_OVERRIDES[field];
  if (override) return override;
  const base = field.replace(/Refs$/, 's').replace(/Ref$/, '');
  const words = base
    .split(/(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const [first = field, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/**
 * Labels of one sheet; a label that would read like another column (its label or its field name)
 * falls back to the field name, so every header names exactly one field.
 */
function labelsOf(columns: readonly string[]): string[] {
  const labels = columns.map(columnLabel);
  return labels.map((label, i) => {
    const clash = columns.some(
      (other, j) =>
        j !== i && (other.toLowerCase() === label.toLowerCase() || labels[j]!.toLowerCase() === label.toLowerCase()),
    );
    return clash ? columns[i]! : label;
  });
}

/** The field a row-1 header names: its label or its field name, case-insensitively. */
export function fieldOfHeader(layout: SheetLayout, header: string): string | undefined {
  const wanted = header.trim().toLowerCase();
  const i = layout.labels.findIndex((l) => l.toLowerCase() === wanted);
  if (i >= 0) return layout.columns[i];
  return layout.columns.find((c) => c.toLowerCase() === wanted);
}

const layouts = new Map<EntityKind, SheetLayout>();

export function sheetLayout(kind: EntityKind): SheetLayout {
  let layout = layouts.get(kind);
  if (!layout) {
    const shape = (KIND_ATTRIBUTE_SCHEMAS[kind] as unknown as { shape: Record<string, z.ZodType> }).shape;
    const attributes = Object.entries(shape).map(([field, schema]) => specOf(field, schema as unknown as ZodLike));
    const columns = [...BASE_COLUMNS, ...attributes.map((a) => a.field)];
    layout = { kind, typeName: ENTITY_KINDS[kind], columns, labels: labelsOf(columns), attributes };
    layouts.set(kind, layout);
  }
  return layout;
}
