import { z } from 'zod';
import {
  AREAS_MUST_DIFFER_MESSAGE,
  DATE_OUT_OF_RANGE_MESSAGE,
  ENTITY_FORMS,
  ENTITY_KINDS,
  FEE_LINE_MESSAGES,
  KIND_ATTRIBUTE_SCHEMAS,
  LOCATION_MESSAGE,
  SUPPLY_METERING_POINT_NAME_MESSAGE,
  SUPPLY_METERING_POINT_NAME_PATTERN,
  TAX_AREA_RATES_MESSAGE,
  TEXT_LIMITS,
  type EntityFormKind,
  type FormField,
  type SaveEntity,
  type VersionedEntity,
} from '@railwatt/contracts';

/**
 * The registration form of a kind, built from its form descriptor (contracts domain/forms.ts) and
 * checked with the kind's own zod schema (KIND_ATTRIBUTE_SCHEMAS), so the form refuses what the
 * server refuses, in the same words. Inputs hold strings ('' = empty), booleans, lists of strings or
 * rows of rates by area; toSaveRecord turns them into the attributes the contract reads.
 */
export type FieldValue = string | boolean | string[] | AreaRateRow[];

/**
 * One row of an 'areaRates' input as typed: the area chosen ('' = none yet) and the rate as text, so
 * a half-typed number stays what the user typed until the form checks it.
 */
export interface AreaRateRow {
  taxAreaRef: string;
  rate: string;
}

/** The strings of a list input (references, weekdays); anything else is no choice. */
export const stringList = (value: FieldValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The rows of an 'areaRates' input. */
export const areaRateRows = (value: FieldValue | undefined): AreaRateRow[] =>
  Array.isArray(value) ? value.filter((v): v is AreaRateRow => typeof v === 'object' && v !== null) : [];

const isBlankRow = (row: AreaRateRow) => row.taxAreaRef === '' && row.rate.trim() === '';

export interface EntityFormValues {
  uuid?: string;
  name: string;
  /** 'YYYY-MM-DD' in the area's zone: the values apply from that day on; empty = the whole range. */
  validFrom: string | null;
  comments: string;
  fields: Record<string, FieldValue>;
}

/**
 * A form message: a product.md §5 rule with the field it names (translated where shown, 'The {field}
 * field is required'), or a contract message verbatim (a location, two areas, fee lines).
 */
export type FormMessage = {
  rule: 'required' | 'decimal' | 'integer' | 'max' | 'regex' | 'min_value' | 'max_value';
  field: string;
  length?: number;
  min?: number;
  max?: number;
};
export const ruleMessage = (m: FormMessage): string => JSON.stringify(m);
export function readRuleMessage(raw: string | undefined): FormMessage | null {
  if (!raw?.startsWith('{')) return null;
  try {
    const value = JSON.parse(raw) as FormMessage;
    return typeof value === 'object' && value && 'rule' in value ? value : null;
  } catch {
    return null;
  }
}

/** The contract's messages and the i18n keys (entityKit.validation.*) that translate them. */
export const CONTRACT_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  [LOCATION_MESSAGE]: 'validation.location',
  [AREAS_MUST_DIFFER_MESSAGE]: 'validation.areas_differ',
  [FEE_LINE_MESSAGES.gridFeeTypeRefs]: 'validation.grid_fee_once',
  [FEE_LINE_MESSAGES.energyFeeTypeRefs]: 'validation.energy_fee_once',
  [SUPPLY_METERING_POINT_NAME_MESSAGE]: 'validation.supply_metering_point_name',
  [DATE_OUT_OF_RANGE_MESSAGE]: 'validation.date_range',
  [TAX_AREA_RATES_MESSAGE]: 'validation.tax_area_once',
};

const DECIMAL = /^-?\d+([.,]\d+)?$/;
const INTEGER = /^-?\d+$/;

/** A decimal as typed ('0,5' or '0.5') as the number the contract reads; anything else stays text. */
const decimalOf = (text: string): number | string =>
  DECIMAL.test(text.trim()) ? Number(text.trim().replace(',', '.')) : text;

/** Whether `rate` of an area rate row is a decimal (shown on the row's rate input). */
export const isDecimal = (text: string) => DECIMAL.test(text.trim());

const isEmpty = (v: FieldValue | undefined) =>
  v === undefined ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0) ||
  (Array.isArray(v) && areaRateRows(v).length === v.length && areaRateRows(v).every(isBlankRow));

/** The fields of `kind` the user sees: admin-only ones only for the erex-administrator. */
export const visibleFields = (kind: EntityFormKind, isAdministrator: boolean): readonly FormField[] =>
  ENTITY_FORMS[kind].filter((f) => isAdministrator || !f.adminOnly);

function toAttribute(field: FormField, value: FieldValue | undefined): unknown {
  if (isEmpty(value)) return undefined;
  switch (field.input) {
    case 'number':
    case 'integer':
      return decimalOf(String(value));
    case 'boolean':
      return value === true;
    case 'references':
      return value;
    case 'weekdays':
      return stringList(value)
        .map(Number)
        .sort((a, b) => a - b);
    case 'areaRates':
      // Rows left blank are no rows; the rest go as typed, so the contract refuses what is wrong.
      return areaRateRows(value)
        .filter((row) => !isBlankRow(row))
        .map((row) => ({ taxAreaRef: row.taxAreaRef, rate: decimalOf(row.rate) }));
    default:
      return typeof value === 'string' ? value.trim() : value;
  }
}

/**
 * The attributes of the form's values: empty inputs are left out (the contract's defaults apply, and
 * a save replaces the stored attributes), admin-only fields the user cannot see are left out too, so
 * the server keeps what the erex-administrator stored.
 */
export function toAttributes(
  kind: EntityFormKind,
  values: EntityFormValues,
  isAdministrator: boolean,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const field of visibleFields(kind, isAdministrator)) {
    const value = toAttribute(field, values.fields[field.name]);
    if (value !== undefined) attributes[field.name] = value;
  }
  return attributes;
}

export function toSaveRecord(
  kind: EntityFormKind,
  values: EntityFormValues,
  isAdministrator: boolean,
  timeRange: { start: string; end: string } | undefined,
): SaveEntity {
  return {
    ...(values.uuid ? { uuid: values.uuid } : {}),
    type: ENTITY_KINDS[kind],
    name: values.name.trim(),
    ...(timeRange ? { timeRange } : {}),
    comments: values.comments.trim() === '' ? null : values.comments.trim(),
    ...toAttributes(kind, values, isAdministrator),
  };
}

const LIST_INPUTS: readonly FormField['input'][] = ['references', 'weekdays', 'areaRates'];

const emptyValue = (field: FormField): FieldValue =>
  field.input === 'boolean' ? false : LIST_INPUTS.includes(field.input) ? [] : '';

/** A stored rate by area ({ taxAreaRef, rate }) as a row of the form. */
function toAreaRateRow(value: unknown): AreaRateRow {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v as string | number));
  return { taxAreaRef: text(record.taxAreaRef), rate: text(record.rate) };
}

function fromAttribute(field: FormField, value: unknown): FieldValue {
  if (value === undefined || value === null) return emptyValue(field);
  if (field.input === 'boolean') return value === true;
  if (field.input === 'areaRates') return Array.isArray(value) ? value.map(toAreaRateRow) : [];
  if (Array.isArray(value)) return value.map(String);
  return String(value);
}

/** Empty values for a new entity (the contract's defaults where it has some: days of week, currency). */
export function emptyFormValues(kind: EntityFormKind): EntityFormValues {
  const shape = (KIND_ATTRIBUTE_SCHEMAS[kind] as z.ZodObject).shape as Record<string, z.ZodType>;
  const fields = Object.fromEntries(
    ENTITY_FORMS[kind].map((f) => {
      const parsed = shape[f.name]?.safeParse(undefined);
      return [f.name, fromAttribute(f, parsed?.success ? parsed.data : undefined)];
    }),
  );
  return { name: '', validFrom: null, comments: '', fields };
}

/** A contract issue as the form shows it: number bounds and formats as product.md §5 rules, else its message. */
function formMessageOf(field: string, issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small' && issue.origin === 'number') {
    return ruleMessage({ rule: 'min_value', field, min: Number(issue.minimum) });
  }
  if (issue.code === 'too_big' && issue.origin === 'number') {
    return ruleMessage({ rule: 'max_value', field, max: Number(issue.maximum) });
  }
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return ruleMessage({ rule: 'max', field, length: Number(issue.maximum) });
  }
  if (issue.message === 'format is invalid') return ruleMessage({ rule: 'regex', field });
  return issue.message;
}

/** A stored entity as form values (its latest segment's attributes are merged onto it). */
export function entityToFormValues(kind: EntityFormKind, entity: VersionedEntity): EntityFormValues {
  const record = entity as Record<string, unknown>;
  return {
    uuid: entity.uuid,
    name: entity.name,
    validFrom: null,
    comments: '',
    fields: Object.fromEntries(ENTITY_FORMS[kind].map((f) => [f.name, fromAttribute(f, record[f.name])])),
  };
}

/** The zod schema of the form of `kind` (react-hook-form's resolver). */
export function entityFormSchema(kind: EntityFormKind, isAdministrator: boolean) {
  const fields = visibleFields(kind, isAdministrator);
  return z
    .object({
      uuid: z.string().optional(),
      name: z.string(),
      validFrom: z.string().nullable(),
      comments: z.string(),
      fields: z.record(
        z.string(),
        z.union([
          z.string(),
          z.boolean(),
          z.array(z.string()),
          z.array(z.object({ taxAreaRef: z.string(), rate: z.string() })),
        ]),
      ),
    })
    .superRefine((values, ctx) => {
      const flagged = new Set<string>();
      const add = (path: (string | number)[], message: string) => {
        const key = path.join('.');
        if (flagged.has(key)) return;
        flagged.add(key);
        ctx.addIssue({ code: 'custom', path, message });
      };
      const name = values.name.trim();
      if (name === '') add(['name'], ruleMessage({ rule: 'required', field: 'name' }));
      else if (name.length > TEXT_LIMITS.name) {
        add(['name'], ruleMessage({ rule: 'max', field: 'name', length: TEXT_LIMITS.name }));
      } else if (kind === 'supplymeteringpoint' && !SUPPLY_METERING_POINT_NAME_PATTERN.test(name)) {
        add(['name'], SUPPLY_METERING_POINT_NAME_MESSAGE);
      }
      for (const field of fields) {
        const value = values.fields[field.name];
        const path = ['fields', field.name];
        if (field.required && isEmpty(value)) add(path, ruleMessage({ rule: 'required', field: field.name }));
        else if (field.input === 'number' && !isEmpty(value) && !DECIMAL.test(String(value).trim())) {
          add(path, ruleMessage({ rule: 'decimal', field: field.name }));
        } else if (field.input === 'integer' && !isEmpty(value) && !INTEGER.test(String(value).trim())) {
          add(path, ruleMessage({ rule: 'integer', field: field.name }));
        } else if (field.input === 'areaRates') {
          // A row names its area and a decimal rate (a blank row is no row); said once for the list.
          const rows = areaRateRows(value).filter((row) => !isBlankRow(row));
          if (rows.some((row) => row.taxAreaRef === ''))
            add(path, ruleMessage({ rule: 'required', field: 'taxAreaRef' }));
          else if (rows.some((row) => !isDecimal(row.rate)))
            add(path, ruleMessage({ rule: 'decimal', field: field.name }));
        }
      }
      const parsed = (KIND_ATTRIBUTE_SCHEMAS[kind] as z.ZodObject).safeParse(
        toAttributes(kind, values as EntityFormValues, isAdministrator),
      );
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!fields.some((f) => f.name === field)) continue;
        add(['fields', field], formMessageOf(field, issue));
      }
    });
}
