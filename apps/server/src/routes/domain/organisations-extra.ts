import { holdsFunctionIn, organisationCalls } from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { ApiError } from '../../errors.js';
import { readContext } from '../../context.js';
import {
  marketFunctionsInTenant,
  marketFunctionsOf,
  organisationsOfTenant,
  saveOrganisationTypes,
  saveOrganisationTypesWithCredentials,
  settlementAreasWithoutInfrastructureManager,
} from '../../modules/organisation/service.js';
import { findArea } from '../../modules/user/repository.js';
import { route } from '../register-call.js';

export interface OrganisationExtraRoutesOptions {
  database: Database;
}

/**
 * A path may name another area than the current-tenant-id: the caller must hold a function there
 * too (as the access hook demands for the header), and the area must exist.
 */
async function otherTenant(
  database: Database,
  request: Pick<FastifyRequest, 'auth'>,
  tenantId: string,
): Promise<string> {
  const id = tenantId.toLowerCase();
  if (!holdsFunctionIn(request.auth.functions, id)) throw ApiError.forbidden();
  if (!(await findArea(database, id))) throw ApiError.notFound('Unknown area');
  return id;
}

/** The rest of calls.md §7 "Organisations" (declared in contracts calls/organisations.ts). */
export const organisationExtraRoutes: FastifyPluginAsync<OrganisationExtraRoutesOptions> = async (
  app,
  { database },
) => {
  route(app, organisationCalls.ofTenant, async (request) => {
    // The path names the area (it may differ from current-tenant-id): read it bound to that area.
    const tenant = await otherTenant(database, request, request.params.tenantId);
    return organisationsOfTenant(readContext(tenantExecutor(database, tenant), tenant));
  });

  route(app, organisationCalls.marketFunctionsInTenant, async (request) => {
    const tenant = await otherTenant(database, request, request.params.tenantId);
    return marketFunctionsInTenant(readContext(tenantExecutor(database, tenant), tenant), request.query.orgName);
  });

  route(app, organisationCalls.settlementAreasNotUsedByInfrastructureManagers, async (request) =>
    settlementAreasWithoutInfrastructureManager(request.ctx),
  );

  route(app, organisationCalls.marketFunctions, async (request) => marketFunctionsOf(request.ctx, request.params.x));

  route(app, organisationCalls.typeSave, async (request) => saveOrganisationTypes(request.ctx, request.body));

  route(app, organisationCalls.typeWithCredentials, async (request) =>
    saveOrganisationTypesWithCredentials(request.ctx, request.body),
  );
};
