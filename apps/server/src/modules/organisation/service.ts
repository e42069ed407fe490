import type { ReadContext, ServiceContext } from '../../context.js';
import {
  ORGANISATION_TYPES,
  organisationAttributesSchema,
  type MinimalEntity,
  type OrganisationMarketFunctions,
  type OrganisationType,
  type OrganisationTypeSave,
  type OrganisationTypeWithCredentials,
  type StoredCredentials,
  type VersionedEntity,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import { listSegments, type TimeWindow } from '../domain/repository.js';
import {
  getEntity,
  latestOf,
  listEntities,
  listMinimal,
  saveEntities,
  toEntity,
  toMinimal,
  windowOf,
} from '../domain/service.js';
import { storeCredentials } from './credentials.js';

/** Path keys of /organisations/{type}/all: 'exchangeadmin' -> EXCHANGE_ADMIN, 'vehiclekeeper' -> VEHICLE_KEEPER. */
export function organisationTypeOf(key: string): OrganisationType {
  const found = ORGANISATION_TYPES.find(
    (t) => t.replace(/_/g, '').toLowerCase() === key.replace(/[\s_-]/g, '').toLowerCase(),
  );
  if (!found) throw ApiError.badRequest('invalid_input', `Unknown organisation type ${key}`);
  return found;
}

/** GET /domain/organisations and /organisation/all. */
export const listOrganisations = (ctx: ReadContext, params: { window: TimeWindow; includeInactive: boolean }) =>
  listEntities(ctx, 'organisation', params);

/** GET /domain/organisations/{type}/all (exchangeadmin, dcsadmin, or any organisation type). */
export async function organisationsOfType(
  ctx: ReadContext,
  type: OrganisationType,
  window: TimeWindow,
): Promise<VersionedEntity[]> {
  const extra = sql`AND m.attributes -> 'organisationTypes' ? ${type}`;
  const segments = await listSegments(
    ctx.db,
    ctx.tenant.uuid,
    ['organisation'],
    { window, includeInactive: false },
    extra,
  );
  const groups = new Map<string, typeof segments>();
  for (const s of segments) groups.set(s.entityUuid, [...(groups.get(s.entityUuid) ?? []), s]);
  return [...groups.values()]
    .map((g) => toEntity('organisation', g, latestOf(g, window)!))
    .filter((e) => Array.isArray(e.organisationTypes) && (e.organisationTypes as string[]).includes(type))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /domain/organisations/branch/all: branches with the organisation they belong to. */
export async function listBranches(ctx: ReadContext, window: TimeWindow) {
  const branches = await organisationsOfType(ctx, 'BRANCH', window);
  return branches.map((b) => ({
    uuid: b.uuid,
    name: b.name,
    organisationUuid: typeof b.parentOrganisationRef === 'string' ? b.parentOrganisationRef : null,
  }));
}

/** GET /domain/organisations/filteredOrganisations: minimal organisations by types and a name search. */
export async function filteredOrganisations(
  ctx: ReadContext,
  params: { organisationTypes: readonly OrganisationType[]; searchString: string; window: TimeWindow },
): Promise<MinimalEntity[]> {
  const segments = await listSegments(ctx.db, ctx.tenant.uuid, ['organisation'], {
    window: params.window,
    includeInactive: false,
  });
  const groups = new Map<string, typeof segments>();
  for (const s of segments) groups.set(s.entityUuid, [...(groups.get(s.entityUuid) ?? []), s]);
  const needle = params.searchString.toLowerCase();
  return [...groups.values()]
    .map((g) => latestOf(g, params.window)!)
    .filter((s) => s.name.toLowerCase().includes(needle))
    .filter((s) => {
      if (params.organisationTypes.length === 0) return true;
      const types = Array.isArray(s.attributes.organisationTypes) ? (s.attributes.organisationTypes as string[]) : [];
      return params.organisationTypes.some((t) => types.includes(t));
    })
    .map((s) => toMinimal('organisation', s))
    .sort((a, b) => a.name.localeCompare(b.name));
}

// ---------------------------------------------------------------------------------------------
// Tenant lookups, market functions and organisation types (calls.md §7 "Organisations")
// ---------------------------------------------------------------------------------------------

const NOW = (): TimeWindow => windowOf();

/** GET /domain/organisations/tenant/{tenantId}: the active organisations of an area, as minimal entities. */
export const organisationsOfTenant = (ctx: ReadContext): Promise<MinimalEntity[]> =>
  listMinimal(ctx, 'organisation', { window: NOW(), includeInactive: false });

/**
 * GET /domain/organisations/settlementareas-not-used-by-infrastructure-managers: the tenant's
 * settlement areas that no infrastructure manager names as its settlementAreaRef (a picker for the
 * next infrastructure manager).
 */
export async function settlementAreasWithoutInfrastructureManager(ctx: ReadContext): Promise<MinimalEntity[]> {
  const [areas, managers] = await Promise.all([
    listMinimal(ctx, 'settlementarea', { window: NOW(), includeInactive: false }),
    organisationsOfType(ctx, 'INFRASTRUCTURE_MANAGER', NOW()),
  ]);
  const used = new Set(managers.map((m) => m.settlementAreaRef).filter((r): r is string => typeof r === 'string'));
  return areas.filter((a) => !used.has(a.uuid));
}

const toMarketFunctions = (o: VersionedEntity): OrganisationMarketFunctions => ({
  uuid: o.uuid,
  name: o.name,
  orgId: typeof o.orgId === 'string' ? o.orgId : null,
  marketFunctions: Array.isArray(o.marketFunctions)
    ? o.marketFunctions.filter((f): f is string => typeof f === 'string')
    : [],
});

const allOrganisations = (ctx: ReadContext) => listOrganisations(ctx, { window: NOW(), includeInactive: true });

/** GET /domain/organisations/{x}/marketfunction: x is the organisation's uuid or its orgId. */
export async function marketFunctionsOf(ctx: ReadContext, x: string): Promise<OrganisationMarketFunctions> {
  const found = (await allOrganisations(ctx)).find((o) => o.uuid === x.toLowerCase() || o.orgId === x);
  if (!found) throw ApiError.notFound('Unknown organisation');
  return toMarketFunctions(found);
}

/** GET /domain/organisations/tenant/{tenantId}/marketfunction: every organisation of the area, or the one named orgName. */
export async function marketFunctionsInTenant(
  ctx: ReadContext,
  orgName: string | undefined,
): Promise<OrganisationMarketFunctions[]> {
  const name = orgName?.trim().toLowerCase();
  return (await allOrganisations(ctx))
    .filter((o) => !name || o.name.toLowerCase() === name)
    .map(toMarketFunctions)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The stored record of an organisation with new types, as saveEntities takes it. */
async function withTypes(ctx: ReadContext, body: OrganisationTypeSave): Promise<Record<string, unknown>> {
  const current = await getEntity(ctx, 'organisation', body.uuid, {});
  const attributes = Object.fromEntries(
    Object.keys(organisationAttributesSchema.shape)
      .filter((key) => current[key] !== undefined)
      .map((key) => [key, current[key]]),
  );
  return {
    ...attributes,
    uuid: body.uuid,
    type: 'Organisation',
    name: current.name,
    organisationTypes: body.organisationTypes,
    ...(body.timeRange ? { timeRange: body.timeRange } : {}),
    ...(body.comments !== undefined ? { comments: body.comments } : {}),
  };
}

/** POST /domain/organisations/organisationtype/save: a new version with the given types (other fields kept). */
export async function saveOrganisationTypes(ctx: ServiceContext, body: OrganisationTypeSave): Promise<VersionedEntity> {
  const tenant = ctx.tenant.uuid;
  await ctx.db.transaction(async (tx) =>
    saveEntities(tx, tenant, ctx.actor, [await withTypes({ ...ctx, db: tx }, body)]),
  );
  return getEntity(ctx, 'organisation', body.uuid, {});
}

/** POST /domain/organisations/organisationtype-with-credentials: types and export credentials, one transaction. */
export async function saveOrganisationTypesWithCredentials(
  ctx: ServiceContext,
  body: OrganisationTypeWithCredentials,
): Promise<{ organisation: VersionedEntity; credentials: StoredCredentials }> {
  const { actor } = ctx;
  const tenant = ctx.tenant.uuid;
  const credentials = await ctx.db.transaction(async (tx) => {
    await saveEntities(tx, tenant, actor, [await withTypes({ ...ctx, db: tx }, body)]);
    // The contract admits exactly one of them (an object, or the uploaded service-account file parsed).
    const credentials = body.credentials ?? body.serviceAccountFile;
    if (!credentials) throw ApiError.badRequest('invalid_input', 'Send either credentials or a service account file');
    return storeCredentials(tx, tenant, body.uuid, credentials, actor.username);
  });
  return { organisation: await getEntity(ctx, 'organisation', body.uuid, {}), credentials };
}
