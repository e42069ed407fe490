import {
  domainCalls,
  FLEET_KINDS,
  POLICIES,
  policyAdmits,
  type EntityKind,
  type TimeRangeQuery,
} from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { route } from '../register-call.js';
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
 * Fleet kinds are read by the Fleet roles only (the domainRead policy of POST /domain/fleet: not the
 * train-run-data-provider, a consumer only when also area-responsible); other kinds back pickers every
 * role meets, so the per-kind calls are domainLookup and narrow here.
 */
function readableKind(request: Pick<FastifyRequest, 'roles' | 'tenant'>, type: string): EntityKind {
  const kind = kindOf(type);
  if (
    (FLEET_KINDS as readonly string[]).includes(kind) &&
    !policyAdmits(POLICIES.domainRead, request.roles, request.tenant.kind)
  ) {
    throw ApiError.forbidden();
  }
  return kind;
}

const c = domainCalls;

/** calls.md §7 "Domain data" (declared in contracts calls/domain.ts). Handlers are thin: parse, authorise, one service call. */
export const domainRoutes: FastifyPluginAsync<DomainRoutesOptions> = async (app) => {
  // --- Fleet ------------------------------------------------------------------------------------
  route(app, c.fleet, async (request) => searchFleet(request.ctx, request.body, request.query));

  route(app, c.fleetAreas, async (request) =>
    listAreas(request.ctx, {
      ...request.query,
      window: windowOf(request.query.start, request.query.end),
    }),
  );

  route(app, c.tractionUnitSave, async (request) => saveTractionUnit(request.ctx, request.body));

  route(app, c.tractionUnitConsumptionPointExchange, async (request) =>
    unitsForExchange(
      request.ctx,
      request.body.organisations,
      windowOf(request.body.timeRange?.start, request.body.timeRange?.end),
    ),
  );

  route(app, c.tractionUnitFilteredByTypesAndOrganisations, async (request) =>
    unitsByTypesAndOrganisations(request.ctx, request.body),
  );

  route(app, c.tractionUnitResolveCpid, async (request) => resolveCpid(request.ctx, request.body));

  route(app, c.tractionUnitActiveConsumptionPoints, async (request) => activeConsumptionPoints(request.ctx));

  // --- Generic entity calls ----------------------------------------------------------------------
  route(app, c.save, async (request) => saveEntity(request.ctx, request.body));

  route(app, c.status, async (request) => changeStatus(request.ctx, request.body));

  route(app, c.query, async (request) => {
    readableKind(request, request.body.typeName);
    return queryEntities(request.ctx, request.body);
  });

  route(app, c.resolveMinimal, async (request) => resolveMinimal(request.ctx, request.body.refs));

  // --- Infrastructure options --------------------------------------------------------------------
  route(app, c.infrastructureAreaTypes, async () => areaTypes());
  route(app, c.infrastructureOptionsSa, async (request) => settlementAreaOptions(request.ctx));
  route(app, c.infrastructureSettlementAreasMinimal, async (request) => settlementAreaOptions(request.ctx));
  route(app, c.infrastructureOptionsEusa, async (request) =>
    energyUseSettlementAreaOptions(request.ctx, windowOf(request.query.start, request.query.end)),
  );
  route(app, c.settlementAreaById, async (request) => settlementAreaById(request.ctx, request.params.id));

  // --- Organisations -----------------------------------------------------------------------------
  route(app, c.organisations, async (request) =>
    // ownerChoices=true: only the owners the user may choose for a traction unit (modules/fleet).
    request.query.ownerChoices
      ? ownerChoices(request.ctx, listParamsOf(request.query))
      : listOrganisations(request.ctx, listParamsOf(request.query)),
  );
  route(app, c.organisationAreasMinimal, async (request) =>
    organisationAreasMinimal(request.ctx, windowOf(request.query.start, request.query.end)),
  );
  route(app, c.organisationBranches, async (request) =>
    listBranches(request.ctx, windowOf(request.query.start, request.query.end)),
  );
  route(app, c.filteredOrganisations, async (request) => {
    const raw = request.query.organisationTypes;
    const list = raw === undefined ? [] : (Array.isArray(raw) ? raw : raw.split(',')).filter(Boolean);
    return filteredOrganisations(request.ctx, {
      organisationTypes: list.map(organisationTypeOf),
      searchString: request.query.searchString,
      window: windowOf(request.query.start, request.query.end),
    });
  });
  route(app, c.organisationsOfType, async (request) =>
    organisationsOfType(
      request.ctx,
      organisationTypeOf(request.params.orgType),
      windowOf(request.query.start, request.query.end),
    ),
  );

  // --- Per kind (find-my-way prefers the static segments above) ----------------------------------
  route(app, c.all, async (request) =>
    listEntities(request.ctx, readableKind(request, request.params.type), listParamsOf(request.query)),
  );
  route(app, c.minimalAll, async (request) =>
    listMinimal(request.ctx, readableKind(request, request.params.type), listParamsOf(request.query)),
  );
  route(app, c.byId, async (request) => {
    const { start, end, refTime } = request.query;
    return getEntity(request.ctx, readableKind(request, request.params.type), request.params.uuid, {
      refTime,
      window: start || end ? windowOf(start, end) : undefined,
    });
  });
  route(app, c.versions, async (request) =>
    listVersions(request.ctx, readableKind(request, request.params.type), request.params.uuid),
  );
  route(app, c.like, async (request) =>
    likeEntities(
      request.ctx,
      readableKind(request, request.params.type),
      request.query.searchString,
      request.query.maxResult,
    ),
  );
};
