import {
  FLEET_KINDS,
  areaListQuerySchema,
  areaSummarySchema,
  branchSchema,
  byIdQuerySchema,
  domainQuerySchema,
  fleetFilterSchema,
  fleetPageQuerySchema,
  fleetPageSchema,
  instantSchema,
  likeQuerySchema,
  minimalEntitySchema,
  resolveCpidRequestSchema,
  resolveMinimalRequestSchema,
  resolvedCpidSchema,
  saveEntitySchema,
  segmentSchema,
  settlementAreaOptionSchema,
  statusChangeRequestSchema,
  statusChangeResultSchema,
  timeRangeQuerySchema,
  tractionUnitConsumptionPointsSchema,
  tractionUnitFilterByTypesSchema,
  tractionUnitSaveRequestSchema,
  versionedEntitySchema,
  type EntityKind,
  type Role,
  type TimeRangeQuery,
} from '@railwatt/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { DOMAIN_READ_ROLES } from '../../modules/domain/policy.js';
import { actorOf } from '../../plugins/access.js';
import { LOOKUP, READ, WRITE } from './access.js';
import {
  changeStatus,
  getEntity,
  kindOf,
  likeEntities,
  listEntities,
  listMinimal,
  listVersions,
  queryEntities,
  resolveMinimal,
  saveEntity,
  windowOf,
  type ListParams,
} from '../../modules/domain/service.js';
import {
  activeConsumptionPoints,
  resolveCpid,
  ownerChoices,
  saveTractionUnit,
  searchFleet,
  unitsByTypesAndOrganisations,
  unitsForExchange,
} from '../../modules/fleet/service.js';
import {
  areaTypes,
  energyUseSettlementAreaOptions,
  listAreas,
  organisationAreasMinimal,
  settlementAreaById,
  settlementAreaOptions,
} from '../../modules/infrastructure/service.js';
import {
  filteredOrganisations,
  listBranches,
  listOrganisations,
  organisationTypeOf,
  organisationsOfType,
} from '../../modules/organisation/service.js';

export interface DomainRoutesOptions {
  database: Database;
}

/** The list calls' query (timeRangeQuerySchema): the window, defaulted, and whether inactive entities count. */
const listParamsOf = (query: TimeRangeQuery): ListParams => ({
  window: windowOf(query.start, query.end),
  includeInactive: query.includeInactive,
});

/**
 * Fleet kinds are read by the Fleet roles only (product.md §2: not the train-run-data-provider, a
 * consumer only when also area-responsible); other kinds back pickers every role meets.
 */
function readableKind(request: FastifyRequest, type: string): EntityKind {
  const kind = kindOf(type);
  if (
    (FLEET_KINDS as readonly string[]).includes(kind) &&
    !request.roles.some((r: Role) => DOMAIN_READ_ROLES.includes(r))
  ) {
    throw ApiError.forbidden();
  }
  return kind;
}

const typeParams = z.object({ type: z.string().min(1) });
const typeUuidParams = z.object({ type: z.string().min(1), uuid: z.uuid() });
const windowQuery = z.object({ start: instantSchema.optional(), end: instantSchema.optional() });
const entities = z.array(versionedEntitySchema);
const minimals = z.array(minimalEntitySchema);
const tags = ['domain'];

/** calls.md §7 "Domain data", served under /api/domain. Handlers are thin: parse, authorise, one service call. */
export const domainRoutes: FastifyPluginAsyncZod<DomainRoutesOptions> = async (app) => {
  // --- Fleet ------------------------------------------------------------------------------------
  app.post(
    '/fleet',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Fleet overview: traction units page (page zero-based, size default 10)',
        body: fleetFilterSchema,
        querystring: fleetPageQuerySchema,
        response: { 200: fleetPageSchema },
      },
    },
    async (request) => searchFleet(request.ctx.db, request.tenant.uuid, actorOf(request), request.body, request.query),
  );

  app.get(
    '/fleet/areas',
    {
      config: LOOKUP,
      schema: {
        tags,
        summary: 'Areas with geometry by type and active/inactive toggles',
        querystring: areaListQuerySchema,
        response: { 200: z.array(areaSummarySchema) },
      },
    },
    async (request) =>
      listAreas(request.ctx.db, request.tenant.uuid, {
        ...request.query,
        window: windowOf(request.query.start, request.query.end),
      }),
  );

  app.post(
    '/tractionunit/save',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Traction unit with its type and consumption points, one transaction',
        body: tractionUnitSaveRequestSchema,
        response: { 200: versionedEntitySchema },
      },
    },
    async (request) => saveTractionUnit(request.ctx.db, request.tenant.uuid, actorOf(request), request.body),
  );

  app.post(
    '/tractionunit/minimal/consumption-point-exchange',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Traction units with their consumption points (CPIDs), optionally of given owners',
        body: z.object({
          organisations: z.array(z.uuid()).default([]),
          timeRange: z.object({ start: instantSchema, end: instantSchema }).optional(),
        }),
        response: { 200: z.array(tractionUnitConsumptionPointsSchema) },
      },
    },
    async (request) =>
      unitsForExchange(
        request.ctx.db,
        request.tenant.uuid,
        request.body.organisations,
        windowOf(request.body.timeRange?.start, request.body.timeRange?.end),
      ),
  );

  app.post(
    '/tractionunit/filtered-by-types-and-organisations',
    { config: READ, schema: { tags, body: tractionUnitFilterByTypesSchema, response: { 200: minimals } } },
    async (request) => unitsByTypesAndOrganisations(request.ctx.db, request.tenant.uuid, request.body),
  );

  app.post(
    '/tractionunit/resolve/cpid',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Entity identifiers (CPID, name, EVN, uuid) to CPIDs',
        body: resolveCpidRequestSchema,
        response: { 200: z.array(resolvedCpidSchema) },
      },
    },
    async (request) => resolveCpid(request.ctx.db, request.tenant.uuid, request.body),
  );

  app.get(
    '/tractionunit/minimal/active-consumption-point',
    { config: READ, schema: { tags, response: { 200: minimals } } },
    async (request) => activeConsumptionPoints(request.ctx.db, request.tenant.uuid),
  );

  // --- Generic entity calls ----------------------------------------------------------------------
  app.post(
    '/save',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Save one entity (type may be dotted: last segment, any case)',
        body: saveEntitySchema,
        response: { 200: versionedEntitySchema },
      },
    },
    async (request) => saveEntity(request.ctx.db, request.tenant.uuid, actorOf(request), request.body),
  );

  app.post(
    '/status',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Set-status dialog: one action, range and comment for every selected entity',
        body: statusChangeRequestSchema,
        response: { 200: statusChangeResultSchema },
      },
    },
    async (request) => changeStatus(request.ctx.db, request.tenant.uuid, actorOf(request), request.body),
  );

  app.post(
    '/query',
    { config: LOOKUP, schema: { tags, body: domainQuerySchema, response: { 200: entities } } },
    async (request) => {
      readableKind(request, request.body.typeName);
      return queryEntities(request.ctx.db, request.tenant.uuid, request.body);
    },
  );

  app.post(
    '/resolve/minimal',
    { config: LOOKUP, schema: { tags, body: resolveMinimalRequestSchema, response: { 200: minimals } } },
    async (request) => resolveMinimal(request.ctx.db, request.tenant.uuid, request.body.refs),
  );

  // --- Infrastructure options --------------------------------------------------------------------
  app.get(
    '/infrastructure/areatypes',
    { config: LOOKUP, schema: { tags, response: { 200: z.array(z.object({ key: z.string(), type: z.string() })) } } },
    async () => areaTypes(),
  );
  app.get(
    '/infrastructure/options/sa',
    { config: LOOKUP, schema: { tags, response: { 200: z.array(settlementAreaOptionSchema) } } },
    async (request) => settlementAreaOptions(request.ctx.db),
  );
  app.get(
    '/infrastructure/settlementareas/minimal',
    { config: LOOKUP, schema: { tags, response: { 200: z.array(settlementAreaOptionSchema) } } },
    async (request) => settlementAreaOptions(request.ctx.db),
  );
  app.get(
    '/infrastructure/options/eusa',
    { config: LOOKUP, schema: { tags, querystring: windowQuery, response: { 200: minimals } } },
    async (request) =>
      energyUseSettlementAreaOptions(
        request.ctx.db,
        request.tenant.uuid,
        windowOf(request.query.start, request.query.end),
      ),
  );
  app.get(
    '/settlementarea/id/:id',
    {
      config: LOOKUP,
      schema: {
        tags,
        params: z.object({ id: z.uuid() }),
        response: { 200: settlementAreaOptionSchema.extend({ geometry: z.unknown().nullable() }) },
      },
    },
    async (request) => settlementAreaById(request.ctx.db, request.params.id),
  );

  // --- Organisations -----------------------------------------------------------------------------
  app.get(
    '/organisations',
    {
      config: LOOKUP,
      schema: {
        tags,
        // ownerChoices=true: only the owners the user may choose for a traction unit (modules/fleet).
        querystring: timeRangeQuerySchema.extend({ ownerChoices: z.enum(['true', 'false']).optional() }),
        response: { 200: entities },
      },
    },
    async (request) =>
      request.query.ownerChoices === 'true'
        ? ownerChoices(request.ctx.db, request.tenant.uuid, actorOf(request), listParamsOf(request.query))
        : listOrganisations(request.ctx.db, request.tenant.uuid, listParamsOf(request.query)),
  );
  app.get(
    '/organisations/areas/minimal',
    { config: LOOKUP, schema: { tags, querystring: windowQuery, response: { 200: minimals } } },
    async (request) =>
      organisationAreasMinimal(request.ctx.db, request.tenant.uuid, windowOf(request.query.start, request.query.end)),
  );
  app.get(
    '/organisations/branch/all',
    { config: LOOKUP, schema: { tags, querystring: windowQuery, response: { 200: z.array(branchSchema) } } },
    async (request) =>
      listBranches(request.ctx.db, request.tenant.uuid, windowOf(request.query.start, request.query.end)),
  );
  app.get(
    '/organisations/filteredOrganisations',
    {
      config: LOOKUP,
      schema: {
        tags,
        querystring: windowQuery.extend({
          organisationTypes: z.union([z.array(z.string()), z.string()]).optional(),
          searchString: z.string().default(''),
        }),
        response: { 200: minimals },
      },
    },
    async (request) => {
      const raw = request.query.organisationTypes;
      const list = raw === undefined ? [] : (Array.isArray(raw) ? raw : raw.split(',')).filter(Boolean);
      return filteredOrganisations(request.ctx.db, request.tenant.uuid, {
        organisationTypes: list.map(organisationTypeOf),
        searchString: request.query.searchString,
        window: windowOf(request.query.start, request.query.end),
      });
    },
  );
  app.get(
    '/organisations/:orgType/all',
    {
      config: LOOKUP,
      schema: {
        tags,
        params: z.object({ orgType: z.string() }),
        querystring: windowQuery,
        response: { 200: entities },
      },
    },
    async (request) =>
      organisationsOfType(
        request.ctx.db,
        request.tenant.uuid,
        organisationTypeOf(request.params.orgType),
        windowOf(request.query.start, request.query.end),
      ),
  );

  // --- Per kind (after the static paths above; find-my-way prefers static segments anyway) --------
  app.get(
    '/:type/all',
    {
      config: LOOKUP,
      schema: { tags, params: typeParams, querystring: timeRangeQuerySchema, response: { 200: entities } },
    },
    async (request) =>
      listEntities(
        request.ctx.db,
        request.tenant.uuid,
        readableKind(request, request.params.type),
        listParamsOf(request.query),
      ),
  );
  app.get(
    '/:type/minimal/all',
    {
      config: LOOKUP,
      schema: { tags, params: typeParams, querystring: timeRangeQuerySchema, response: { 200: minimals } },
    },
    async (request) =>
      listMinimal(
        request.ctx.db,
        request.tenant.uuid,
        readableKind(request, request.params.type),
        listParamsOf(request.query),
      ),
  );
  app.get(
    '/:type/id/:uuid',
    {
      config: LOOKUP,
      schema: { tags, params: typeUuidParams, querystring: byIdQuerySchema, response: { 200: versionedEntitySchema } },
    },
    async (request) => {
      const { start, end, refTime } = request.query;
      return getEntity(
        request.ctx.db,
        request.tenant.uuid,
        readableKind(request, request.params.type),
        request.params.uuid,
        {
          refTime,
          window: start || end ? windowOf(start, end) : undefined,
        },
      );
    },
  );
  app.get(
    '/:type/versions/:uuid',
    { config: LOOKUP, schema: { tags, params: typeUuidParams, response: { 200: z.array(segmentSchema) } } },
    async (request) =>
      listVersions(
        request.ctx.db,
        request.tenant.uuid,
        readableKind(request, request.params.type),
        request.params.uuid,
      ),
  );
  app.get(
    '/:type/like',
    { config: LOOKUP, schema: { tags, params: typeParams, querystring: likeQuerySchema, response: { 200: minimals } } },
    async (request) =>
      likeEntities(
        request.ctx.db,
        request.tenant.uuid,
        readableKind(request, request.params.type),
        request.query.searchString,
        request.query.maxResult,
      ),
  );
};
