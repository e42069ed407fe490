import { randomUUID } from 'node:crypto';
import {
  DEFAULT_TIME_RANGE,
  ENTITY_KINDS,
  ERROR_CODES,
  MESSAGES,
  STATUS_ACTIONS,
  isInfrastructureAreaKind,
  referencesOf,
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
import { checkAreas, type PlannedArea } from '../infrastructure/checks.js';
import { exchangeAdminsOf, organisationsOfUser } from '../organisation/repository.js';
import {
  approvalRefusal,
  hasGuardedApproval,
  mayApprove,
  mayChangeExchangeAdmin,
  mayWriteKind,
  writesOnlyOwnFleet,
  type Actor,
} from './policy.js';
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
import { diffSegments, overlaps, patchRange, replaceRange, type WorkingSegment } from './segments.js';
import type { Executor, TxExecutor } from './sql.js';
import {
  DEFAULT_RANGE,
  validateEntities,
  type EntityRecord,
  type RecordError,
  type ValidRecord,
} from './validation.js';

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
export async function listEntities(
  ex: Executor,
  tenant: string,
  kind: EntityKind,
  params: ListParams,
): Promise<VersionedEntity[]> {
  return listLatest(ex, tenant, kind, params, (group, latest) => toEntity(kind, group, latest));
}

/** GET /domain/{type}/minimal/all. */
export async function listMinimal(
  ex: Executor,
  tenant: string,
  kind: EntityKind,
  params: ListParams,
): Promise<MinimalEntity[]> {
  return listLatest(ex, tenant, kind, params, (_group, latest) => toMinimal(kind, latest));
}

/** GET /domain/{type}/id/{uuid}: the segment nearest refTime (default now) merged; segments limited to the window. */
export async function getEntity(
  ex: Executor,
  tenant: string,
  kind: EntityKind,
  uuid: string,
  params: { refTime?: string; window?: TimeWindow },
): Promise<VersionedEntity> {
  const stored = (await loadCurrent(ex, tenant, [uuid])).get(uuid);
  if (!stored || stored.type !== kind || stored.segments.length === 0) throw ApiError.notFound();
  const inWindow = params.window ? stored.segments.filter((s) => overlaps(s, params.window!)) : stored.segments;
  const segments = inWindow.length ? inWindow : stored.segments;
  return toEntity(kind, segments, nearestOf(segments, params.refTime ?? new Date().toISOString())!);
}

/** GET /domain/{type}/versions/{uuid}: every segment, current first, then the superseded history. */
export async function listVersions(ex: Executor, tenant: string, kind: EntityKind, uuid: string): Promise<Segment[]> {
  const segments = await allSegments(ex, tenant, kind, uuid);
  if (segments.length === 0) throw ApiError.notFound();
  return segments.map(toSegment);
}

/** GET /domain/{type}/like. */
export async function likeEntities(
  ex: Executor,
  tenant: string,
  kind: EntityKind,
  searchString: string,
  maxResult: number,
): Promise<MinimalEntity[]> {
  return (await likeSegments(ex, tenant, kind, searchString, maxResult)).map((s) => toMinimal(kind, s));
}

/**
 * POST /domain/query: entities of a kind whose segment in the window matches every matcher. A
 * matcher compares a kind field (or uuid, name, state) with any of its values; RELATION also
 * matches a uuid inside a list of refs (e.g. consumptionPointRefs).
 */
export async function queryEntities(ex: Executor, tenant: string, query: DomainQuery): Promise<VersionedEntity[]> {
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
    ex,
    tenant,
    kind,
    params,
    (group, latest) => toEntity(kind, group, latest),
    sql.join(conditions, sql` `),
  );
}

/** POST /domain/resolve/minimal: refs of any kind in this tenant; unknown refs are left out. */
export async function resolveMinimal(
  ex: Executor,
  tenant: string,
  refs: readonly EntityRef[],
): Promise<MinimalEntity[]> {
  const segments = await latestSegments(ex, tenant, [...new Set(refs.map((r) => r.uuid))]);
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

function fail(errors: RecordError[]): never {
  if (errors.length === 1) {
    const [e] = errors as [RecordError];
    const message = e.code === 'uniquename' ? MESSAGES.nameNotUnique : e.message;
    throw new ApiError(400, message, { code: e.code, errors: [{ code: e.code, field: e.field, message }] });
  }
  throw ApiError.badRequestMany(
    errors.map((e) => ({ code: e.code, field: e.field, message: `#${e.index + 1}: ${e.message}` })),
  );
}

const UNIQUE_PROPERTIES: readonly {
  kind: EntityKind;
  property: 'evn' | 'orgId' | 'cpid';
  code: string;
  message: string;
}[] = [
  { kind: 'tractionunit', property: 'evn', code: 'uniqueproperties', message: `evn: ${ERROR_CODES.uniqueproperties}` },
  { kind: 'organisation', property: 'orgId', code: 'uniqueorgid', message: ERROR_CODES.uniqueorgid },
  {
    kind: 'consumptionpoint',
    property: 'cpid',
    code: 'uniqueproperties',
    message: `cpid: ${ERROR_CODES.uniqueproperties}`,
  },
];

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
    ...UNIQUE_PROPERTIES,
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
): Promise<RecordError[]> {
  const wanted: { p: PlannedRecord; field: string; targets: readonly EntityKind[]; uuid: string }[] = [];
  for (const p of planned) {
    for (const { field, targets } of referencesOf(p.record.kind)) {
      const value = p.record.attributes[field];
      const values = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
      for (const uuid of values) wanted.push({ p, field, targets, uuid: String(uuid).toLowerCase() });
    }
  }
  if (wanted.length === 0) return [];
  const inBatch = new Map<string, string>(planned.map((p) => [p.uuid.toLowerCase(), p.record.kind]));
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

interface PlannedRecord {
  record: ValidRecord;
  uuid: string;
  range: TimeRange;
  created: boolean;
}

/** Fleet rules that depend on who saves (product.md §6). */
async function checkFleetPolicy(
  ex: Executor,
  tenant: string,
  actor: Actor,
  planned: readonly PlannedRecord[],
  stored: Map<string, { segments: SegmentRow[] }>,
): Promise<void> {
  const units = planned.filter((p) => p.record.kind === 'tractionunit');
  const points = planned.filter((p) => p.record.kind === 'consumptionpoint');
  if (units.length === 0 && points.length === 0) return;
  const own = await organisationsOfUser(ex, tenant, actor.username);
  const ownUuids = new Set(own.map((o) => o.uuid));

  // Owners of units in the batch and of stored units that points in the batch belong to.
  const unitOwner = new Map<string, string[]>();
  for (const u of units) {
    const old = (stored.get(u.uuid)?.segments ?? []).map((s) => String(s.attributes.owner));
    unitOwner.set(u.uuid, [String(u.record.attributes.owner), ...old]);
  }
  const pointUnits = [
    ...new Set(
      points.map((p) => p.record.attributes.tractionUnitRef).filter((r): r is string => typeof r === 'string'),
    ),
  ].filter((u) => !unitOwner.has(u));
  for (const s of await latestSegments(ex, tenant, pointUnits))
    unitOwner.set(s.entityUuid, [String(s.attributes.owner)]);

  if (writesOnlyOwnFleet(actor)) {
    const touched = [
      ...units.map((u) => u.uuid),
      ...points.map((p) => p.record.attributes.tractionUnitRef as string | undefined),
    ];
    for (const unit of touched) {
      const owners = unit ? (unitOwner.get(unit) ?? []) : [];
      if (unit === undefined || owners.some((o) => !ownUuids.has(o))) {
        throw ApiError.forbidden('A vehicle keeper changes only the traction units of its own organisations');
      }
    }
  }

  // Traction units connected to another exchange admin are refused (product.md §6, calls.md §8).
  const myAdmins = exchangeAdminsOf(own);
  if (myAdmins.size === 0) return;
  const ownerUuids = [...new Set([...unitOwner.values()].flat())];
  const owners = await latestSegments(ex, tenant, ownerUuids);
  const batchOrgs = new Map(
    planned.filter((p) => p.record.kind === 'organisation').map((p) => [p.uuid, p.record.attributes]),
  );
  // Both the stored and the new exchange admin of an owner count: changing the owner's exchange
  // admin in the same batch (or workbook) must not open the door (issue 6 §4).
  for (const ownerUuid of ownerUuids) {
    const admins = [
      batchOrgs.get(ownerUuid)?.exchangeAdminRef,
      owners.find((o) => o.entityUuid === ownerUuid)?.attributes.exchangeAdminRef,
    ];
    for (const admin of admins) {
      if (typeof admin === 'string' && !myAdmins.has(admin) && !myAdmins.has(ownerUuid)) {
        throw ApiError.forbidden(MESSAGES.notAllowedOtherExchangeAdmin);
      }
    }
  }
}

const APPROVED = 'APPROVED_FOR_BILLING';

/**
 * Approval for billing on save (traction unit types and traction units, policy.ts APPROVERS).
 * - A record without a state keeps a stored approval, whoever saves: a re-save never drops it.
 * - Someone who may not approve: sending APPROVED for an entity that is not approved is a 403;
 *   sending another state for an approved one is a 400 on `state` that says who may. We refuse
 *   rather than silently keep the approval, so the caller learns that the change did not happen;
 *   the forms send the state they read, so an ordinary re-save of an approved entity passes.
 */
function applyApprovalRules(
  actor: Actor,
  p: PlannedRecord,
  segments: readonly SegmentRow[] | undefined,
  trusted: boolean,
): { planned: PlannedRecord } | { error: RecordError } {
  const kind = p.record.kind;
  if (!hasGuardedApproval(kind)) return { planned: p };
  const inRange = (segments ?? []).filter((s) => overlaps(s, p.range));
  const approved = inRange.some((s) => s.state === APPROVED);
  const state = p.record.state ?? (approved ? APPROVED : undefined);
  const planned = state === p.record.state ? p : { ...p, record: { ...p.record, state } };
  if (trusted || mayApprove(actor, kind)) return { planned };
  if (state === APPROVED && !approved) throw ApiError.forbidden(approvalRefusal(kind));
  if (approved && state !== APPROVED) {
    return {
      error: {
        index: p.record.index,
        uuid: p.uuid,
        field: 'state',
        code: 'invalid_input',
        message: approvalRefusal(kind),
      },
    };
  }
  return { planned };
}

/**
 * Only the erex-administrator changes which exchange admin an organisation is connected to
 * (issue 6 §4): otherwise a writer could first move an owner to its own exchange admin and then
 * change units "connected to another exchange admin". A new organisation may name one.
 */
function checkExchangeAdminChange(actor: Actor, p: PlannedRecord, segments: readonly SegmentRow[] | undefined): void {
  if (p.record.kind !== 'organisation' || !segments?.length || mayChangeExchangeAdmin(actor)) return;
  const next = p.record.attributes.exchangeAdminRef ?? null;
  const changed = segments.some((s) => (s.attributes.exchangeAdminRef ?? null) !== next);
  if (changed) throw ApiError.forbidden('Only the erex-administrator changes the exchange admin of an organisation');
}

export interface SaveOptions {
  /** Skip role checks (seeders); default false. */
  trusted?: boolean;
}

/**
 * Stores records (as validateEntities accepts them) in the caller's transaction: all or nothing.
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
  const { valid, errors } = validateEntities(records);
  if (errors.length) fail(errors);
  if (!options.trusted) {
    for (const kind of new Set(valid.map((v) => v.kind))) {
      if (!mayWriteKind(actor, kind)) throw ApiError.forbidden();
    }
  }

  const given = [...new Set(valid.map((v) => v.uuid).filter((u): u is string => u !== undefined))];
  const stored = await loadCurrent(tx, tenant, given);
  const foreign = new Set(
    await uuidsElsewhere(
      tx,
      tenant,
      given.filter((u) => !stored.has(u)),
    ),
  );
  const planned: PlannedRecord[] = [];
  const structural: RecordError[] = [];
  for (const record of valid) {
    const uuid = record.uuid ?? randomUUID();
    const existing = stored.get(uuid);
    if (foreign.has(uuid)) {
      structural.push({
        index: record.index,
        uuid,
        field: 'uuid',
        code: 'invalid_input',
        message: 'uuid: Unknown entity',
      });
      continue;
    }
    if (existing && existing.type !== record.kind) {
      structural.push(immutable(record.index, uuid, 'type'));
      continue;
    }
    if (record.kind === 'tractionunit' && existing?.segments.some((s) => s.attributes.evn !== record.attributes.evn)) {
      structural.push(immutable(record.index, uuid, 'evn'));
      continue;
    }
    const latest = existing ? latestOf(existing.segments) : undefined;
    const range = record.timeRange ?? (latest ? { start: latest.start, end: latest.end } : DEFAULT_RANGE);
    planned.push({ record, uuid, range, created: !existing });
  }
  if (structural.length) fail(structural);
  if (!options.trusted) {
    for (const p of planned) checkExchangeAdminChange(actor, p, stored.get(p.uuid)?.segments);
  }
  const approvalErrors: RecordError[] = [];
  for (const [i, p] of planned.entries()) {
    const kept = applyApprovalRules(actor, p, stored.get(p.uuid)?.segments, options.trusted === true);
    if ('error' in kept) approvalErrors.push(kept.error);
    else planned[i] = kept.planned;
  }
  if (approvalErrors.length) fail(approvalErrors);

  const references = await checkReferences(tx, tenant, planned);
  if (references.length) fail(references);

  const unique = await checkUniqueness(tx, tenant, planned);
  if (unique.length) fail(unique);
  const areaErrors = await checkAreas(
    tx,
    tenant,
    planned.filter((p) => isInfrastructureAreaKind(p.record.kind)) as PlannedArea[],
  );
  if (areaErrors.length) fail(areaErrors);
  if (!options.trusted) await checkFleetPolicy(tx, tenant, actor, planned, stored);

  // Apply every record to its entity's working segments, then store the difference set-based.
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
  return planned.map((p) => ({ index: p.record.index, uuid: p.uuid, kind: p.record.kind, created: p.created }));
}

const STATE_ACTIVE: Record<string, boolean> = {
  ACTIVE: true,
  INACTIVE: false,
  APPROVED_FOR_BILLING: true,
  RETIRED: false,
};

/** POST /domain/save: one entity in its own transaction; answers the stored entity. */
export async function saveEntity(
  db: TxExecutor,
  tenant: string,
  actor: Actor,
  record: EntityRecord,
): Promise<VersionedEntity> {
  const [saved] = await db.transaction((tx) => saveEntities(tx, tenant, actor, [record]));
  return getEntity(db, tenant, saved!.kind, saved!.uuid, { refTime: refTimeOf(record) });
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
export async function changeStatus(
  db: TxExecutor,
  tenant: string,
  actor: Actor,
  request: StatusChangeRequest,
): Promise<StatusChangeResult> {
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
        // Approving, and changing an approved entity in any way, belong to the approvers (policy.ts).
        const approvedInRange = stored.segments.some((s) => s.state === APPROVED && overlaps(s, range));
        if ((request.action === 'approve' || approvedInRange) && !mayApprove(actor, kind)) {
          return { ...base, name, status: current, error: approvalRefusal(kind) };
        }
        if (kind === 'tractionunit' || kind === 'consumptionpoint') {
          const record: ValidRecord = {
            index: 0,
            kind,
            uuid,
            name,
            timeRange: range,
            active: undefined,
            state: undefined,
            comments: null,
            attributes: latestOf(stored.segments)!.attributes,
          };
          await checkFleetPolicy(
            tx,
            tenant,
            actor,
            [{ record, uuid, range, created: false }],
            new Map([[uuid, stored]]),
          );
        }
        const next = patchRange(stored.segments, range, (s) => ({
          name: s.name,
          attributes: s.attributes,
          state: target.state,
          active: target.active,
          comments: request.comment ?? s.comments,
        }));
        if (!next) return { ...base, name, status: current, error: 'No version of the entity in the chosen range' };
        const diff = diffSegments(stored.segments, next);
        await supersede(tx, tenant, diff.supersede);
        await insertSegments(
          tx,
          tenant,
          actor.username,
          diff.insert.map((s) => ({ ...s, entityUuid: uuid, type: kind })),
        );
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
  ex: Executor,
  tenant: string,
  params: { kinds: readonly EntityKind[]; uuids?: readonly string[]; window?: TimeWindow; includeInactive?: boolean },
): Promise<EntityRecord[]> {
  const window = params.window ?? DEFAULT_RANGE;
  const uuidFilter = params.uuids?.length
    ? sql`AND m.entity_uuid = ANY(${sql.param([...params.uuids])}::uuid[])`
    : sql``;
  const segments = await listSegments(
    ex,
    tenant,
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
