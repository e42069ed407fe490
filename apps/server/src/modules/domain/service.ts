import { randomUUID } from 'node:crypto';
import {
  DEFAULT_TIME_RANGE,
  ENTITY_KINDS,
  ERROR_CODES,
  MESSAGES,
  STATUS_ACTIONS,
  referenceAttribute,
  referencesOf,
  referenceValues,
  toEntityKind,
  unknownReferenceMessage,
  type DomainQuery,
  type EntityKind,
  type EntityRef,
  type MinimalEntity,
  type Segment,
  type StatusChangeItem,
  type StatusChangeRequest,
  type StatusChangeResult,
  type TimeRange,
  type VersionedEntity,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { mapDatabaseError } from '../../db/constraints.js';
import { ApiError } from '../../errors.js';
import { markCebdRecheck } from '../processing/cebd-recheck.js';
import { BATCH_CHECKS, KIND_RULES, rulesOf, type PlannedRecord } from './kinds/index.js';
import { approvalRefusal, mayApprove, mayWriteKind, type Actor } from './policy.js';
import {
  allSegments,
  findHolders,
  insertEntities,
  insertSegments,
  kindsOf,
  latestSegments,
  likeSegments,
  listSegments,
  loadCurrent,
  supersede,
  uuidsElsewhere,
  type SegmentInsert,
  type SegmentRow,
  type TimeWindow,
} from './repository.js';
import { diffSegments, overlaps, replaceRange, stableJson, type WorkingSegment } from './segments.js';
import type { ReadContext, ServiceContext } from '../../context.js';
import type { Executor } from './sql.js';
import { DEFAULT_RANGE, kindTypeName, validateEntities, type EntityRecord, type RecordError } from './validation.js';

export { validateEntities, type EntityRecord, type RecordError, type ValidRecord } from './validation.js';
export type { Actor } from './policy.js';

/** Resolves a path or body type ('tractionunit', 'com.x.TractionUnitType') to a kind, else 400. */
export function kindOf(type: string): EntityKind {
  const kind = toEntityKind(type);
  if (!kind) throw ApiError.badRequest('invalid_input', `Unknown entity type ${type}`);
  return kind;
}

export const windowOf = (start?: string, end?: string): TimeWindow => ({
  start: start ?? DEFAULT_RANGE.start,
  end: end ?? DEFAULT_RANGE.end,
});

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

const toSegment = (s: SegmentRow): Segment => ({
  id: s.id,
  name: s.name,
  timeRange: { start: s.start, end: s.end },
  active: s.active,
  state: s.state as Segment['state'],
  comments: s.comments,
  lastModified: s.lastModified,
  lastModifiedBy: s.lastModifiedBy,
  attributes: s.attributes,
  ...(s.supersededAt ? { supersededAt: s.supersededAt } : {}),
});

/** The latest segment (greatest end) among those in the window; all segments when none is. */
export function latestOf(segments: readonly SegmentRow[], window?: TimeWindow): SegmentRow | undefined {
  const pool = window ? segments.filter((s) => overlaps(s, window)) : segments;
  return [...(pool.length ? pool : segments)].sort(
    (a, b) => Date.parse(b.end) - Date.parse(a.end) || Date.parse(b.start) - Date.parse(a.start),
  )[0];
}

/** The segment covering refTime, else the one nearest to it. */
export function nearestOf(segments: readonly SegmentRow[], refTime: string): SegmentRow | undefined {
  const t = Date.parse(refTime);
  const distance = (s: SegmentRow) => {
    const a = Date.parse(s.start);
    const b = Date.parse(s.end);
    return t < a ? a - t : t >= b ? t - b + 1 : 0;
  };
  return [...segments].sort((x, y) => distance(x) - distance(y))[0];
}

/** The generic entity with the chosen segment's attributes merged on top (product.md §3). */
export function toEntity(kind: EntityKind, segments: readonly SegmentRow[], chosen: SegmentRow): VersionedEntity {
  const starts = segments.map((s) => Date.parse(s.start));
  const ends = segments.map((s) => Date.parse(s.end));
  return {
    ...chosen.attributes,
    uuid: chosen.entityUuid,
    name: chosen.name,
    type: ENTITY_KINDS[kind],
    active: chosen.active,
    state: chosen.state as VersionedEntity['state'],
    timeRange: { start: new Date(Math.min(...starts)).toISOString(), end: new Date(Math.max(...ends)).toISOString() },
    segments: segments.map(toSegment),
    lastModified: chosen.lastModified,
    lastModifiedBy: chosen.lastModifiedBy,
    comments: chosen.comments,
    allInactive: segments.every((s) => !s.active),
    createdBy: chosen.createdBy,
  };
}

export function toMinimal(kind: EntityKind | undefined, chosen: SegmentRow): MinimalEntity {
  return {
    uuid: chosen.entityUuid,
    name: chosen.name,
    type: kind ? ENTITY_KINDS[kind] : (ENTITY_KINDS[toEntityKind(chosen.type) ?? 'organisation'] ?? chosen.type),
    active: chosen.active,
    state: chosen.state as MinimalEntity['state'],
    timeRange: { start: chosen.start, end: chosen.end },
  };
}

function groupByEntity(segments: readonly SegmentRow[]): SegmentRow[][] {
  const groups = new Map<string, SegmentRow[]>();
  for (const s of segments) {
    const list = groups.get(s.entityUuid);
    if (list) list.push(s);
    else groups.set(s.entityUuid, [s]);
  }
  return [...groups.values()];
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

export interface ListParams {
  window: TimeWindow;
  includeInactive: boolean;
}

/**
 * Every entity of the kind with a segment in the window, shaped by `shape` from its segments and the
 * latest of them (greatest end in the window), ordered by name. The list calls differ only in shape.
 */
async function listLatest<T extends { name: string }>(
  ex: Executor,
  tenant: string,
  kind: EntityKind,
  params: ListParams,
  shape: (group: SegmentRow[], latest: SegmentRow) => T,
  extra?: SQL,
): Promise<T[]> {
  const segments = await listSegments(ex, tenant, [kind], params, extra);
  return groupByEntity(segments)
    .map((group) => shape(group, latestOf(group, params.window)!))
    .sort(byName);
}

/** GET /domain/{type}/all: every entity with a segment in the window, the latest one merged. */
export async function listEntities(ctx: ReadContext, kind: EntityKind, params: ListParams): Promise<VersionedEntity[]> {
  return listLatest(ctx.db, ctx.tenant.uuid, kind, params, (group, latest) => toEntity(kind, group, latest));
}

/** GET /domain/{type}/minimal/all. */
export async function listMinimal(ctx: ReadContext, kind: EntityKind, params: ListParams): Promise<MinimalEntity[]> {
  return listLatest(ctx.db, ctx.tenant.uuid, kind, params, (_group, latest) => toMinimal(kind, latest));
}

/** GET /domain/{type}/id/{uuid}: the segment nearest refTime (default now) merged; segments limited to the window. */
export async function getEntity(
  ctx: ReadContext,
  kind: EntityKind,
  uuid: string,
  params: { refTime?: string; window?: TimeWindow },
): Promise<VersionedEntity> {
  const stored = (await loadCurrent(ctx.db, ctx.tenant.uuid, [uuid])).get(uuid);
  if (!stored || stored.type !== kind || stored.segments.length === 0) throw ApiError.notFound();
  const inWindow = params.window ? stored.segments.filter((s) => overlaps(s, params.window!)) : stored.segments;
  const segments = inWindow.length ? inWindow : stored.segments;
  return toEntity(kind, segments, nearestOf(segments, params.refTime ?? new Date().toISOString())!);
}

/** GET /domain/{type}/versions/{uuid}: every segment, current first, then the superseded history. */
export async function listVersions(ctx: ReadContext, kind: EntityKind, uuid: string): Promise<Segment[]> {
  const segments = await allSegments(ctx.db, ctx.tenant.uuid, kind, uuid);
  if (segments.length === 0) throw ApiError.notFound();
  return segments.map(toSegment);
}

/** GET /domain/{type}/like. */
export async function likeEntities(
  ctx: ReadContext,
  kind: EntityKind,
  searchString: string,
  maxResult: number,
): Promise<MinimalEntity[]> {
  return (await likeSegments(ctx.db, ctx.tenant.uuid, kind, searchString, maxResult)).map((s) => toMinimal(kind, s));
}

/**
 * POST /domain/query: entities of a kind whose segment in the window matches every matcher. A
 * matcher compares a kind field (or uuid, name, state) with any of its values; RELATION also
 * matches a uuid inside a list of refs (e.g. consumptionPointRefs).
 */
export async function queryEntities(ctx: ReadContext, query: DomainQuery): Promise<VersionedEntity[]> {
  const kind = kindOf(query.typeName);
  const conditions = query.matchers.map((m) => {
    const values = sql.param(m.propertyValues);
    if (m.propertyName === 'uuid') return sql`AND m.entity_uuid::text = ANY(${values}::text[])`;
    if (m.propertyName === 'name') return sql`AND m.name = ANY(${values}::text[])`;
    if (m.propertyName === 'state') return sql`AND m.state = ANY(${values}::text[])`;
    const field = m.propertyName;
    return sql`AND (m.attributes ->> ${field} = ANY(${values}::text[])
      OR (jsonb_typeof(m.attributes -> ${field}) = 'array' AND m.attributes -> ${field} ?| ${values}::text[]))`;
  });
  const params = { window: query.timeRange ?? DEFAULT_RANGE, includeInactive: true };
  return listLatest(
    ctx.db,
    ctx.tenant.uuid,
    kind,
    params,
    (group, latest) => toEntity(kind, group, latest),
    sql.join(conditions, sql` `),
  );
}

/** POST /domain/resolve/minimal: refs of any kind in this tenant; unknown refs are left out. */
export async function resolveMinimal(ctx: ReadContext, refs: readonly EntityRef[]): Promise<MinimalEntity[]> {
  const segments = await latestSegments(ctx.db, ctx.tenant.uuid, [...new Set(refs.map((r) => r.uuid))]);
  return segments.map((s) => toMinimal(toEntityKind(s.type), s));
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

export interface SavedEntity {
  index: number;
  uuid: string;
  kind: EntityKind;
  created: boolean;
}

/** A field that an existing entity may not change (its kind, a traction unit's EVN). */
const immutable = (index: number, uuid: string, field: string): RecordError => ({
  index,
  uuid,
  field,
  code: 'immutableproperty',
  message: `${field}: ${ERROR_CODES.immutableproperty}`,
});

/**
 * The request's answer for a plan's errors: 403 when a rule of who may write refused a record
 * (the first such message), else 400 with every error.
 */
function fail(errors: RecordError[]): never {
  const refused = errors.find((e) => e.status === 403);
  if (refused) throw ApiError.forbidden(refused.message);
  if (errors.length === 1) {
    const [e] = errors as [RecordError];
    const message = e.code === 'uniquename' ? MESSAGES.nameNotUnique : e.message;
    throw new ApiError(400, message, { code: e.code, errors: [{ code: e.code, field: e.field, message }] });
  }
  throw ApiError.badRequestMany(
    errors.map((e) => ({ code: e.code, field: e.field, message: `#${e.index + 1}: ${e.message}` })),
  );
}

/** uniquename, uniqueproperties (EVN, CPID) and uniqueorgid: within the batch and against stored data. */
async function checkUniqueness(
  ex: Executor,
  tenant: string,
  planned: readonly PlannedRecord[],
): Promise<RecordError[]> {
  const errors: RecordError[] = [];
  const checks = [
    ...[...new Set(planned.map((p) => p.record.kind))].map((kind) => ({
      kind,
      property: 'name' as const,
      code: 'uniquename',
      message: MESSAGES.nameNotUnique,
    })),
    ...Object.entries(KIND_RULES).flatMap(([kind, rules]) =>
      (rules.uniqueProperties ?? []).map((u) => ({ kind: kind as EntityKind, ...u })),
    ),
  ];
  for (const check of checks) {
    const subject = planned.filter((p) => p.record.kind === check.kind);
    if (subject.length === 0) continue;
    const valueOf = (p: PlannedRecord) =>
      check.property === 'name' ? p.record.name.toLowerCase() : String(p.record.attributes[check.property] ?? '');
    const owners = new Map<string, string>();
    for (const p of subject) {
      const value = valueOf(p);
      const owner = owners.get(value);
      if (owner !== undefined && owner !== p.uuid) {
        errors.push({
          index: p.record.index,
          uuid: p.uuid,
          field: check.property,
          code: check.code,
          message: check.message,
        });
      } else owners.set(value, p.uuid);
    }
    const holders = await findHolders(ex, tenant, check.kind, check.property, [...owners.keys()]);
    const batchUuids = new Set(subject.map((p) => p.uuid));
    for (const h of holders) {
      const p = subject.find((x) => valueOf(x) === h.value && x.uuid !== h.entityUuid);
      // A holder that this batch renames away is no clash; we only look at unchanged holders.
      if (p && !batchUuids.has(h.entityUuid)) {
        errors.push({
          index: p.record.index,
          uuid: p.uuid,
          field: check.property,
          code: check.code,
          message: check.message,
        });
      }
    }
  }
  return errors;
}

/**
 * Every uuid reference of the batch (contracts ENTITY_REFERENCES) must name an entity of an
 * expected kind in this area, stored or saved in the same batch; else a 400 naming the field
 * (issue 6 §2: a uuid from another area must not be stored). One statement for the whole batch.
 */
async function checkReferences(
  ex: Executor,
  tenant: string,
  planned: readonly PlannedRecord[],
  /** Entities the request names (uuid -> kind), refused ones too: a reference to them is not also 'Unknown'. */
  inRequest: ReadonlyMap<string, string> = new Map(),
): Promise<RecordError[]> {
  const wanted: { p: PlannedRecord; field: string; targets: readonly EntityKind[]; uuid: string }[] = [];
  for (const p of planned) {
    for (const { field, targets } of referencesOf(p.record.kind)) {
      // A reference inside a list of objects is reported on the list's attribute (the form's field).
      const attribute = referenceAttribute(field);
      for (const uuid of referenceValues(p.record.attributes, field))
        wanted.push({ p, field: attribute, targets, uuid: uuid.toLowerCase() });
    }
  }
  if (wanted.length === 0) return [];
  const inBatch = new Map<string, string>([
    ...inRequest,
    ...planned.map((p): [string, string] => [p.uuid.toLowerCase(), p.record.kind]),
  ]);
  const stored = await kindsOf(
    ex,
    tenant,
    [...new Set(wanted.map((w) => w.uuid))].filter((u) => !inBatch.has(u)),
  );
  const errors: RecordError[] = [];
  const reported = new Set<string>();
  for (const w of wanted) {
    const kind = inBatch.get(w.uuid) ?? stored.get(w.uuid);
    const key = `${w.p.record.index}:${w.field}`;
    if ((kind && (w.targets as readonly string[]).includes(kind)) || reported.has(key)) continue;
    reported.add(key);
    errors.push({
      index: w.p.record.index,
      uuid: w.p.uuid,
      field: w.field,
      code: 'invalid_input',
      message: unknownReferenceMessage(w.targets),
    });
  }
  return errors;
}

export interface SaveOptions {
  /** Skip role checks (seeders); default false. */
  trusted?: boolean;
}

/** What a save will do, worked out before anything is written (planEntities), and what stops it. */
export interface EntityPlan {
  tenant: string;
  actor: Actor;
  /** The records to apply, with their entity, range and whether the entity is new. */
  planned: PlannedRecord[];
  /** Positions of records equal to what is stored over their range: nothing to write, nothing to check. */
  unchanged: number[];
  stored: Map<string, { type: string; segments: SegmentRow[] }>;
  /**
   * Every refusal, each naming its record by position and its field; a record refused at one stage
   * is not checked further, the others are. `status: 403` marks who-may-write refusals.
   */
  errors: RecordError[];
}

/** Content equality that ignores absent-versus-null and absent-versus-empty attributes. */
function normalised(attributes: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return stableJson(out);
}

/** A record that says exactly what one stored segment holds over exactly its range (with its state given). */
function isUnchanged(p: PlannedRecord, segments: readonly SegmentRow[] | undefined): boolean {
  const { record } = p;
  if (!record.state || !record.timeRange) return false;
  const active = record.active ?? STATE_ACTIVE[record.state] ?? true;
  return (segments ?? []).some(
    (s) =>
      Date.parse(s.start) === Date.parse(p.range.start) &&
      Date.parse(s.end) === Date.parse(p.range.end) &&
      s.name === record.name &&
      s.active === active &&
      s.state === record.state &&
      (s.comments ?? null) === (record.comments ?? null) &&
      normalised(s.attributes) === normalised(record.attributes),
  );
}

/**
 * The one entity pipeline (issue 6 §5): checks records (as validateEntities accepts them) against
 * the kind contracts, who may write what, identity, references, uniqueness, areas and the fleet
 * rules, and plans their segments, in the caller's transaction, without writing. Saving through the
 * API and importing a workbook both call it; the import maps rows to records before and the errors
 * back to cells after, and checks nothing itself.
 */
export async function planEntities(
  tx: Executor,
  tenant: string,
  actor: Actor,
  records: readonly unknown[],
  options: SaveOptions = {},
): Promise<EntityPlan> {
  const trusted = options.trusted === true;
  const { valid: validated, errors } = validateEntities(records);
  const failed = new Set(errors.map((e) => e.index));
  const add = (found: readonly (RecordError | undefined)[]) => {
    for (const e of found) {
      if (!e) continue;
      errors.push(e);
      failed.add(e.index);
    }
  };
  if (!trusted) {
    add(
      validated
        .filter((v) => !mayWriteKind(actor, v.kind))
        .map((v) => ({
          index: v.index,
          uuid: v.uuid,
          field: 'type',
          code: 'forbidden',
          status: 403 as const,
          message: `Not authorized to change data of type: ${kindTypeName(v.kind)}`,
        })),
    );
    add(validated.map((v) => rulesOf(v.kind).checkValid?.(v)));
  }
  const valid = validated.filter((v) => !failed.has(v.index));

  const given = [...new Set(valid.map((v) => v.uuid).filter((u): u is string => u !== undefined))];
  const stored = await loadCurrent(tx, tenant, given);
  const foreign = new Set(
    await uuidsElsewhere(
      tx,
      tenant,
      given.filter((u) => !stored.has(u)),
    ),
  );
  let planned: PlannedRecord[] = [];
  const unchanged: number[] = [];
  for (const record of valid) {
    const uuid = record.uuid ?? randomUUID();
    const existing = stored.get(uuid);
    if (foreign.has(uuid)) {
      add([{ index: record.index, uuid, field: 'uuid', code: 'invalid_input', message: 'uuid: Unknown entity' }]);
      continue;
    }
    if (existing && existing.type !== record.kind) {
      add([immutable(record.index, uuid, 'type')]);
      continue;
    }
    const changed = (rulesOf(record.kind).immutable ?? []).find((field) =>
      existing?.segments.some((s) => s.attributes[field] !== record.attributes[field]),
    );
    if (changed !== undefined) {
      add([immutable(record.index, uuid, changed)]);
      continue;
    }
    const latest = existing ? latestOf(existing.segments) : undefined;
    const range = record.timeRange ?? (latest ? { start: latest.start, end: latest.end } : DEFAULT_RANGE);
    const p = { record, uuid, range, created: !existing };
    if (existing && isUnchanged(p, existing.segments)) unchanged.push(record.index);
    else planned.push(p);
  }
  const keep = () => (planned = planned.filter((p) => !failed.has(p.record.index)));

  // The kind's per-record rules (kinds/): who may change what, then what a record keeps from the
  // stored entity (an approval, an admin-only field); the first refusal stops the record.
  planned = planned.flatMap((p) => {
    const rules = rulesOf(p.record.kind);
    const segments = stored.get(p.uuid)?.segments;
    const refused = trusted ? undefined : rules.checkRecord?.(actor, p, segments);
    if (refused) {
      add([refused]);
      return [];
    }
    let next = p;
    for (const adjust of rules.adjust ?? []) {
      const kept = adjust(actor, next, segments, trusted);
      if ('error' in kept) {
        add([kept.error]);
        return [];
      }
      next = kept.planned;
    }
    return [next];
  });

  const inRequest = new Map<string, string>();
  for (const raw of records) {
    const r = raw as { uuid?: unknown; type?: unknown } | null;
    const kind = toEntityKind(typeof r?.type === 'string' ? r.type : undefined);
    if (kind && typeof r?.uuid === 'string') inRequest.set(r.uuid.toLowerCase(), kind);
  }
  add(await checkReferences(tx, tenant, planned, inRequest));
  keep();
  add(await checkUniqueness(tx, tenant, planned));
  keep();
  // The kinds' batch rules (areas: nooverlap and within; fleet: who owns the units).
  for (const check of BATCH_CHECKS) {
    add(await check(tx, tenant, actor, planned, stored, trusted));
    keep();
  }
  errors.sort((a, b) => a.index - b.index);
  return { tenant, actor, planned, unchanged, stored, errors };
}

/**
 * Writes a plan without errors: every record applied to its entity's working segments in order,
 * then the difference stored set-based (insert entities, supersede segments, insert segments).
 */
export async function applyPlan(tx: Executor, plan: EntityPlan): Promise<SavedEntity[]> {
  if (plan.errors.length) fail(plan.errors);
  const { tenant, actor, planned, stored } = plan;
  const working = new Map<string, { kind: EntityKind; original: WorkingSegment[]; next: WorkingSegment[] }>();
  for (const p of planned) {
    const original = stored.get(p.uuid)?.segments ?? [];
    const entry = working.get(p.uuid) ?? { kind: p.record.kind, original, next: [...original] };
    entry.next = replaceRange(entry.next, p.range, {
      name: p.record.name,
      active: p.record.active ?? (p.record.state ? (STATE_ACTIVE[p.record.state] ?? true) : true),
      state: p.record.state ?? 'ACTIVE',
      comments: p.record.comments,
      attributes: p.record.attributes,
    });
    working.set(p.uuid, entry);
  }
  const toSupersede: number[] = [];
  const toInsert: SegmentInsert[] = [];
  for (const [uuid, entry] of working) {
    const diff = diffSegments(entry.original, entry.next);
    toSupersede.push(...diff.supersede);
    toInsert.push(...diff.insert.map((s) => ({ ...s, entityUuid: uuid, type: entry.kind })));
  }
  try {
    await insertEntities(
      tx,
      tenant,
      planned.filter((p) => p.created).map((p) => ({ uuid: p.uuid, type: p.record.kind, createdBy: actor.username })),
    );
    await supersede(tx, tenant, toSupersede);
    await insertSegments(tx, tenant, actor.username, toInsert);
  } catch (error) {
    throw mapDatabaseError(error) ?? error;
  }
  // Past days whose CEBD records this change may place or judge differently are marked for the
  // month-end re-check, in the same transaction (modules/processing/cebd-recheck.ts).
  await markCebdRecheck(
    tx,
    tenant,
    [...working].map(([uuid, e]) => ({ uuid, kind: e.kind, before: e.original, after: e.next })),
    actor.username,
  );
  return planned.map((p) => ({ index: p.record.index, uuid: p.uuid, kind: p.record.kind, created: p.created }));
}

/**
 * Stores records in the caller's transaction: all or nothing (planEntities, then applyPlan).
 * Throws ApiError 400 (catalogue codes; an `errors` list names each failing record by its
 * position), 403 for role rules. Records of one entity apply in order, so an exported entity with
 * several segments imports back as it was; a record equal to what is stored changes nothing.
 */
export async function saveEntities(
  tx: Executor,
  tenant: string,
  actor: Actor,
  records: readonly unknown[],
  options: SaveOptions = {},
): Promise<SavedEntity[]> {
  return applyPlan(tx, await planEntities(tx, tenant, actor, records, options));
}

const STATE_ACTIVE: Record<string, boolean> = {
  ACTIVE: true,
  INACTIVE: false,
  APPROVED_FOR_BILLING: true,
  RETIRED: false,
};

/** POST /domain/save: one entity in its own transaction; answers the stored entity. */
export async function saveEntity(ctx: ServiceContext, record: EntityRecord): Promise<VersionedEntity> {
  const [saved] = await ctx.db.transaction((tx) => saveEntities(tx, ctx.tenant.uuid, ctx.actor, [record]));
  return getEntity(ctx, saved!.kind, saved!.uuid, { refTime: refTimeOf(record) });
}

const refTimeOf = (record: EntityRecord): string | undefined => {
  const range = record.timeRange as TimeRange | undefined;
  return range?.start && Date.parse(range.start) > Date.now() ? range.start : undefined;
};

/**
 * POST /domain/status (the set-status dialog): the action's state and active flag and the comment
 * applied over the range to every selected entity, each in its own savepoint so one failure does
 * not undo the others. The answer lists every item for the error summary.
 */
export async function changeStatus(ctx: ServiceContext, request: StatusChangeRequest): Promise<StatusChangeResult> {
  const { db, actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const kind = kindOf(request.type);
  if (!mayWriteKind(actor, kind)) throw ApiError.forbidden();
  const target = STATUS_ACTIONS[request.action];
  // No end is open-ended: the whole rest of the entity's life gets the new state, so no piece of the
  // old state stays behind at the end of time (product.md §4, an empty "Valid to").
  const range: TimeRange = { start: request.timeRange.start, end: request.timeRange.end ?? DEFAULT_TIME_RANGE.end };
  const items: StatusChangeItem[] = [];
  for (const uuid of request.uuids) {
    const base = { uuid, validFrom: range.start, validTo: range.end };
    try {
      const item = await db.transaction(async (tx) => {
        const stored = (await loadCurrent(tx, tenant, [uuid])).get(uuid);
        if (!stored || stored.type !== kind || stored.segments.length === 0) {
          return { ...base, name: uuid, status: 'UNKNOWN', error: 'Entity not found' };
        }
        const name = latestOf(stored.segments)!.name;
        const current = latestOf(stored.segments, range)!.state;
        // Each stored version the range covers becomes a record with the new state over its part of
        // the range, planned like any save: approval, the fleet rules and the rest apply as they do
        // to the API save and the import (one pipeline), and nothing else is changed.
        const records = stored.segments
          .filter((s) => overlaps(s, range))
          .map((s) => ({
            ...s.attributes,
            uuid,
            type: kind,
            name: s.name,
            timeRange: {
              start: Date.parse(s.start) > Date.parse(range.start) ? s.start : range.start,
              end: Date.parse(s.end) < Date.parse(range.end) ? s.end : range.end,
            },
            state: target.state,
            active: target.active,
            comments: request.comment ?? s.comments,
          }));
        // The approve action itself belongs to the approvers, even over a part that is approved already.
        if (request.action === 'approve' && !mayApprove(actor, kind))
          return { ...base, name, status: current, error: approvalRefusal(kind) };
        if (records.length === 0)
          return { ...base, name, status: current, error: 'No version of the entity in the chosen range' };
        const plan = await planEntities(tx, tenant, actor, records);
        if (plan.errors.length) return { ...base, name, status: current, error: plan.errors[0]!.message };
        await applyPlan(tx, plan);
        return { ...base, name, status: target.state };
      });
      items.push(item);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : mapDatabaseError(error);
      if (!apiError) throw error;
      items.push({ ...base, name: uuid, status: 'UNKNOWN', error: apiError.message });
    }
  }
  return { success: items.every((i) => !i.error), items };
}

/**
 * Records for the Excel/CSV export: one per current segment, in the shape saveEntities accepts
 * (base fields + kind fields at top level, timeRange = the segment's range), so exporting and
 * importing the same file changes nothing.
 */
export async function listForExport(
  ctx: ReadContext,
  params: { kinds: readonly EntityKind[]; uuids?: readonly string[]; window?: TimeWindow; includeInactive?: boolean },
): Promise<EntityRecord[]> {
  const window = params.window ?? DEFAULT_RANGE;
  const uuidFilter = params.uuids?.length
    ? sql`AND m.entity_uuid = ANY(${sql.param([...params.uuids])}::uuid[])`
    : sql``;
  const segments = await listSegments(
    ctx.db,
    ctx.tenant.uuid,
    params.kinds,
    { window, includeInactive: params.includeInactive ?? true },
    uuidFilter,
  );
  return segments.map((s) => ({
    ...s.attributes,
    uuid: s.entityUuid,
    type: ENTITY_KINDS[toEntityKind(s.type)!],
    name: s.name,
    timeRange: { start: s.start, end: s.end },
    active: s.active,
    state: s.state,
    comments: s.comments,
  }));
}
