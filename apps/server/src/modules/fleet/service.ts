import type { ReadContext, ServiceContext } from '../../context.js';
import {
  fleetEntrySchema,
  type FleetEntry,
  type FleetFilter,
  type FleetPage,
  type FieldError,
  type MinimalEntity,
  type TractionUnitSaveRequest,
  type VersionedEntity,
} from '@railwatt/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../errors.js';
import { latestSegments } from '../domain/repository.js';
import { getEntity, saveEntities, toMinimal, windowOf, type Actor } from '../domain/service.js';
import { listSegments, type TimeWindow } from '../domain/repository.js';
import { mayWriteKind, writesOnlyOwnFleet } from '../domain/policy.js';
import type { Executor } from '../domain/sql.js';
import { organisationsOfUser } from '../organisation/repository.js';
import { listOrganisations } from '../organisation/service.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import { fleetPage, resolveCpids, unitsWithPoints, type FleetRow, type UnitWithPoints } from './repository.js';

/** The overview's query for a filter: the time window and, in the "own" modes, the owners in scope. */
async function fleetQueryOf(ex: Executor, tenant: string, actor: Actor, filter: FleetFilter) {
  // The "own" modes show the organisations the actor may see (organisation/visibility.ts).
  const ownerScope =
    filter.searchMode === 'ALL_READ_ONLY'
      ? undefined
      : ((await visibleOrganisations({ db: ex, tenant: { uuid: tenant }, actor })) ?? undefined);
  return { filter, window: windowOf(filter.timeRange?.start, filter.timeRange?.end), ownerScope };
}

/**
 * The rows the fleet overview lists for `filter`, every page in its order, at most `limit` units
 * (POST /excel/masterdata/export). `uuids` narrows them to a selection. Consumption points keep
 * their VKM and NVR, which the overview's entry leaves to the first point.
 */
export async function listFleetForExport(
  ctx: ServiceContext,
  filter: FleetFilter,
  options: { uuids?: readonly string[] | undefined; limit: number },
): Promise<FleetRow[]> {
  const { db: ex, actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const query = await fleetQueryOf(ex, tenant, actor, filter);
  const { rows } = await fleetPage(ex, tenant, {
    ...query,
    ...(options.uuids ? { uuids: options.uuids } : {}),
    page: 0,
    size: options.limit,
  });
  return rows;
}

/**
 * POST /domain/fleet. Search modes (product.md §6): ALL_READ_ONLY lists every unit of the tenant,
 * nothing writable; OWN_READ_WRITE and OWN_READ_ONLY list units owned by the organisations the user
 * belongs to (user_organisation) — or the whole area for area-wide roles (policy.ownDataIsWholeArea) —
 * writable only in OWN_READ_WRITE and only for a writing role.
 */
export async function searchFleet(
  ctx: ServiceContext,
  filter: FleetFilter,
  paging: { page: number; size: number },
): Promise<FleetPage> {
  const { db: ex, actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const { rows, total } = await fleetPage(ex, tenant, {
    ...(await fleetQueryOf(ex, tenant, actor, filter)),
    ...paging,
  });
  const writable = filter.searchMode === 'OWN_READ_WRITE' && mayWriteKind(actor, 'tractionunit');
  const content: FleetEntry[] = rows.map(({ total: _total, ...row }) => {
    const first = row.consumptionPoints[0] as
      (FleetEntry['consumptionPoints'][number] & { vkm?: string; nvr?: string }) | undefined;
    return fleetEntrySchema.parse({
      ...row,
      vkm: first?.vkm ?? null,
      nvr: first?.nvr ?? null,
      emsId: first?.emsId ?? null,
      emsType: first?.emsType ?? null,
      writable,
    });
  });
  return {
    content,
    totalElements: total,
    totalPages: Math.ceil(total / paging.size),
    number: paging.page,
    size: paging.size,
  };
}

/**
 * GET /domain/organisations?ownerChoices=true: the owners a user may choose for a traction unit (the
 * registration form's owner select and the overview's owner filter). A writer restricted to its own
 * fleet (OWN_FLEET_ONLY, the vehicle keeper) gets the organisations it belongs to in this area
 * (user_organisation), exactly the owners the save policy lets it write; every other role gets all.
 */
export async function ownerChoices(
  ctx: ServiceContext,
  params: { window: TimeWindow; includeInactive: boolean },
): Promise<VersionedEntity[]> {
  const { db: ex, actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const all = await listOrganisations(ctx, params);
  if (!writesOnlyOwnFleet(actor)) return all;
  const own = new Set((await organisationsOfUser(ex, tenant, actor.username)).map((o) => o.uuid));
  return all.filter((o) => own.has(o.uuid));
}

/**
 * POST /domain/tractionunit/save: the unit, optionally a new or changed type, and its consumption
 * points in one transaction. Points get the unit's EVN and a back reference; the unit lists them.
 */
export async function saveTractionUnit(
  ctx: ServiceContext,
  request: TractionUnitSaveRequest,
): Promise<VersionedEntity> {
  const { db, actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const unitUuid = typeof request.tractionUnit.uuid === 'string' ? request.tractionUnit.uuid : randomUUID();
  const records: Record<string, unknown>[] = [];
  const unit: Record<string, unknown> = { ...request.tractionUnit, uuid: unitUuid, type: 'tractionunit' };
  if (request.tractionUnitType) {
    const typeUuid = typeof request.tractionUnitType.uuid === 'string' ? request.tractionUnitType.uuid : randomUUID();
    records.push({ ...request.tractionUnitType, uuid: typeUuid, type: 'tractionunittype' });
    unit.tractionUnitTypeRef = typeUuid;
  }
  const points = request.consumptionPoints.map((cp) => ({
    timeRange: unit.timeRange,
    ...cp,
    uuid: typeof cp.uuid === 'string' ? cp.uuid : randomUUID(),
    type: 'consumptionpoint',
    evn: unit.evn,
    tractionUnitRef: unitUuid,
  }));
  const listed = Array.isArray(unit.consumptionPointRefs)
    ? (unit.consumptionPointRefs as unknown[]).filter((x) => typeof x === 'string')
    : [];
  unit.consumptionPointRefs = [...new Set([...listed, ...points.map((p) => p.uuid)])];
  records.push(unit, ...points);
  try {
    await db.transaction((tx) => saveEntities(tx, tenant, actor, records));
  } catch (error) {
    throw withoutEchoesOfTheEvn(error, records.indexOf(unit) + 1);
  }
  return getEntity(ctx, 'tractionunit', unitUuid, {});
}

/** '#3: evn: ...' -> record 3 and the message without the record number (domain service's many-error form). */
const RECORD_PREFIX = /^#(\d+): /;

/**
 * A consumption point's EVN is the unit's, and its name and CPID are built from it. When the unit's
 * EVN is refused (check digit, or 'Property must be unique'), the points' copies would repeat the
 * refusal as more errors (the EVN again, 'name already exists', the CPID), and the form would show
 * the one mistake twice or three times. Those echoes are dropped, so the EVN field gets one message.
 */
function withoutEchoesOfTheEvn(error: unknown, unitRecord: number): unknown {
  if (!(error instanceof ApiError) || !error.errors || error.errors.length < 2) return error;
  const recordOf = (message: string) => Number(RECORD_PREFIX.exec(message)?.[1] ?? 0);
  const unitEvn = error.errors.find((e) => e.field === 'evn' && recordOf(e.message) === unitRecord);
  if (!unitEvn) return error;
  const echo = (e: FieldError) =>
    recordOf(e.message) !== unitRecord &&
    (e.field === 'evn' ||
      (unitEvn.code === 'uniqueproperties' && (e.field === 'cpid' || (e.field === 'name' && e.code === 'uniquename'))));
  const kept = error.errors.filter((e) => !echo(e));
  if (kept.length > 1) return ApiError.badRequestMany(kept);
  const message = unitEvn.message.replace(RECORD_PREFIX, '');
  return new ApiError(400, message, { code: unitEvn.code, errors: [{ ...unitEvn, message }] });
}

const toUnitOutput = (u: UnitWithPoints) => ({
  uuid: u.uuid,
  name: u.name,
  evn: u.evn,
  owner: u.owner,
  consumptionPoints: u.consumptionPoints,
});

/** POST /domain/tractionunit/minimal/consumption-point-exchange: units with their CPIDs (exchange pickers). */
export async function unitsForExchange(ctx: ReadContext, organisations: readonly string[], window: TimeWindow) {
  return (await unitsWithPoints(ctx.db, ctx.tenant.uuid, window, { owners: organisations })).map(toUnitOutput);
}

/** POST /domain/tractionunit/filtered-by-types-and-organisations. */
export async function unitsByTypesAndOrganisations(
  ctx: ReadContext,
  filter: { tractionUnitTypes: readonly string[]; organisations: readonly string[] },
): Promise<MinimalEntity[]> {
  const { db: ex } = ctx;
  const tenant = ctx.tenant.uuid;
  const units = await unitsWithPoints(ex, tenant, windowOf(), {
    owners: filter.organisations,
    types: filter.tractionUnitTypes,
  });
  const latest = await latestSegments(
    ex,
    tenant,
    units.map((u) => u.uuid),
  );
  return latest.map((s) => toMinimal('tractionunit', s)).sort((a, b) => a.name.localeCompare(b.name));
}

/** POST /domain/tractionunit/resolve/cpid. */
export const resolveCpid = (ctx: ReadContext, identifiers: readonly string[]) =>
  resolveCpids(ctx.db, ctx.tenant.uuid, identifiers);

/** GET /domain/tractionunit/minimal/active-consumption-point: consumption points active now. */
export async function activeConsumptionPoints(ctx: ReadContext): Promise<MinimalEntity[]> {
  const now = new Date();
  const window = { start: now.toISOString(), end: new Date(now.getTime() + 1).toISOString() };
  const segments = await listSegments(ctx.db, ctx.tenant.uuid, ['consumptionpoint'], {
    window,
    includeInactive: false,
  });
  return segments
    .filter((s) => s.active && Date.parse(s.start) <= now.getTime() && now.getTime() < Date.parse(s.end))
    .map((s) => toMinimal('consumptionpoint', s))
    .sort((a, b) => a.name.localeCompare(b.name));
}
