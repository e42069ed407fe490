import {
  DEFAULT_TIME_RANGE,
  ENTITY_KINDS,
  ERROR_CODES,
  KIND_ATTRIBUTE_SCHEMAS,
  entityStateSchema,
  isInfrastructureAreaKind,
  saveEntitySchema,
  timeRangeSchema,
  toEntityKind,
  type EntityKind,
  type EntityState,
  type TimeRange,
} from '@railwatt/contracts';
import type { z } from 'zod';
import { geometryProblem } from './geometry.js';
import { rulesOf } from './kinds/index.js';

/** One entity as a save, an import row or an export record carries it: base fields plus kind fields at top level. */
export type EntityRecord = Record<string, unknown> & { type?: unknown };

/** A failure of one record; `index` is its position in the batch (the Excel import maps it to a row). */
export interface RecordError {
  index: number;
  uuid?: string;
  field?: string;
  code: string;
  message: string;
  /** 403 for a rule of who may write (the request's answer is then 403); else the refusal is a 400. */
  status?: 403;
}

/** A record that passed the checks that need no database. */
export interface ValidRecord {
  index: number;
  kind: EntityKind;
  uuid: string | undefined;
  name: string;
  timeRange: TimeRange | undefined;
  active: boolean | undefined;
  state: EntityState | undefined;
  comments: string | null;
  attributes: Record<string, unknown>;
}

/** Keys of the generic entity; everything else on a record belongs to the kind. */
const BASE_KEYS = new Set([
  'uuid',
  'type',
  'name',
  'timeRange',
  'active',
  'state',
  'comments',
  'segments',
  'lastModified',
  'lastModifiedBy',
  'allInactive',
  'createdBy',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function issueToError(
  index: number,
  issue: z.core.$ZodIssue,
  input: Record<string, unknown>,
  uuid?: string,
): RecordError {
  const field = issue.path.map(String).join('.');
  const value = issue.path.length ? input[String(issue.path[0])] : undefined;
  const blank =
    (issue.code === 'invalid_type' && isBlank(value)) ||
    (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1) ||
    (issue.code === 'too_small' && issue.origin === 'array' && Number(issue.minimum) <= 1 && isBlank(value));
  return blank
    ? { index, uuid, field, code: 'notblank', message: `${field}: ${ERROR_CODES.notblank}` }
    : { index, uuid, field, code: 'invalid_input', message: `${field}: ${issue.message}` };
}

/** Excel cells and forms send '' for an empty optional field: treat it as absent. */
function emptyToUndefined(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== '' && v !== null && v !== undefined));
}

/**
 * Checks every record without the database: known kind, base fields, the kind's fields (zod schema
 * from the contracts, defaults applied), blank required fields as 'notblank'. Derived fields are set
 * here by the kind's rules (kinds/, `derive`): a consumption point's CPID and name, a traction unit's
 * name (its EVN when none is given).
 */
export function validateEntities(records: readonly unknown[]): { valid: ValidRecord[]; errors: RecordError[] } {
  const valid: ValidRecord[] = [];
  const errors: RecordError[] = [];
  records.forEach((raw, index) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ index, code: 'invalid_input', message: 'An entity must be an object' });
      return;
    }
    const record = raw as EntityRecord;
    const kind = toEntityKind(typeof record.type === 'string' ? record.type : undefined);
    const uuid = typeof record.uuid === 'string' && record.uuid !== '' ? record.uuid : undefined;
    if (!kind) {
      const code = isBlank(record.type) ? 'notblank' : 'invalid_input';
      errors.push({
        index,
        uuid,
        field: 'type',
        code,
        message: `type: ${code === 'notblank' ? ERROR_CODES.notblank : `Unknown entity type ${String(record.type)}`}`,
      });
      return;
    }
    const before = errors.length;
    if (uuid !== undefined && !UUID.test(uuid)) {
      errors.push({ index, field: 'uuid', code: 'invalid_input', message: 'uuid: Invalid UUID' });
    }
    let timeRange: TimeRange | undefined;
    if (record.timeRange !== undefined && record.timeRange !== null) {
      const parsed = timeRangeSchema.safeParse(record.timeRange);
      if (parsed.success) timeRange = parsed.data;
      else
        errors.push({
          index,
          uuid,
          field: 'timeRange',
          code: 'invalid_input',
          message: `timeRange: ${parsed.error.issues[0]?.message ?? ERROR_CODES.invalid_input}`,
        });
    }
    let state: EntityState | undefined;
    if (!isBlank(record.state)) {
      const parsed = entityStateSchema.safeParse(record.state);
      if (parsed.success) state = parsed.data;
      else
        errors.push({
          index,
          uuid,
          field: 'state',
          code: 'invalid_input',
          message: `state: Unknown state ${String(record.state)}`,
        });
    }
    // Name and comments are bounded and NUL-free as the save contract says; an import row comes here
    // without that contract, so it is applied again for every record.
    for (const field of ['name', 'comments'] as const) {
      if (typeof record[field] !== 'string') continue;
      const checked = saveEntitySchema.shape[field].safeParse(record[field]);
      if (!checked.success)
        errors.push({
          index,
          uuid,
          field,
          code: 'invalid_input',
          message: `${field}: ${checked.error.issues[0]?.message ?? ERROR_CODES.invalid_input}`,
        });
    }
    if (record.active !== undefined && record.active !== null && typeof record.active !== 'boolean') {
      errors.push({ index, uuid, field: 'active', code: 'invalid_input', message: 'active: Expected true or false' });
    }
    const rawAttributes = emptyToUndefined(
      Object.fromEntries(Object.entries(record).filter(([k]) => !BASE_KEYS.has(k))),
    );
    const schema = KIND_ATTRIBUTE_SCHEMAS[kind] as z.ZodObject;
    const parsed = schema.safeParse(rawAttributes);
    // An area's rings get one message that names the area and what is wrong (open, too short,
    // crossing itself, off the globe) instead of the schema's issues deep in the coordinates.
    const badGeometry = isInfrastructureAreaKind(kind) ? geometryProblem(rawAttributes.geometry) : undefined;
    if (badGeometry) {
      const area = typeof record.name === 'string' && record.name.trim() !== '' ? record.name.trim() : 'new area';
      const message = `geometry: Area ${area}: ${badGeometry}`;
      errors.push({ index, uuid, field: 'geometry', code: 'invalid_input', message });
    }
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        if (badGeometry && issue.path[0] === 'geometry') continue;
        errors.push(issueToError(index, issue, rawAttributes, uuid));
      }
    if (errors.length > before || !parsed.success) return;

    const given = typeof record.name === 'string' ? record.name.trim() : '';
    const derive = rulesOf(kind).derive;
    const { attributes, name } = derive
      ? derive(parsed.data as Record<string, unknown>, given)
      : { attributes: parsed.data as Record<string, unknown>, name: given };
    if (name === '') {
      errors.push({ index, uuid, field: 'name', code: 'notblank', message: `name: ${ERROR_CODES.notblank}` });
      return;
    }
    valid.push({
      index,
      kind,
      uuid,
      name,
      timeRange,
      active: typeof record.active === 'boolean' ? record.active : undefined,
      state,
      comments: typeof record.comments === 'string' && record.comments !== '' ? record.comments : null,
      attributes,
    });
  });
  return { valid, errors };
}

export const DEFAULT_RANGE: TimeRange = { ...DEFAULT_TIME_RANGE };
export const kindTypeName = (kind: EntityKind): string => ENTITY_KINDS[kind];
