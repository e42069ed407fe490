import {
  minimalEntitySchema,
  organisationMarketFunctionsSchema,
  organisationTypeSaveSchema,
  organisationTypeWithCredentialsResultSchema,
  organisationTypeWithCredentialsSchema,
  versionedEntitySchema,
} from '@railwatt/contracts';
import { TEXT_LIMITS, holdsFunctionIn, text } from '@railwatt/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { ApiError } from '../../errors.js';
import { actorOf } from '../../plugins/access.js';
import { LOOKUP, WRITE } from './access.js';
import {
  marketFunctionsInTenant,
  marketFunctionsOf,
  organisationsOfTenant,
  saveOrganisationTypes,
  saveOrganisationTypesWithCredentials,
  settlementAreasWithoutInfrastructureManager,
} from '../../modules/organisation/service.js';
import { findArea } from '../../modules/user/repository.js';

export interface OrganisationExtraRoutesOptions {
  database: Database;
}

const tags = ['domain', 'organisations'];
const tenantParams = z.object({ tenantId: z.uuid() });

/**
 * A path may name another area than the current-tenant-id: the caller must hold a function there
 * too (as the access hook demands for the header), and the area must exist.
 */
async function otherTenant(database: Database, request: FastifyRequest, tenantId: string): Promise<string> {
  const id = tenantId.toLowerCase();
  if (!holdsFunctionIn(request.auth.functions, id)) throw ApiError.forbidden();
  if (!(await findArea(database, id))) throw ApiError.notFound('Unknown area');
  return id;
}

/** The rest of calls.md §7 "Organisations", served under /api/domain/organisations. */
export const organisationExtraRoutes: FastifyPluginAsyncZod<OrganisationExtraRoutesOptions> = async (
  app,
  { database },
) => {
  app.get(
    '/tenant/:tenantId',
    {
      config: LOOKUP,
      schema: {
        tags,
        summary: 'Active organisations of an area (minimal)',
        params: tenantParams,
        response: { 200: z.array(minimalEntitySchema) },
      },
    },
    async (request) => {
      // The path names the area (it may differ from current-tenant-id): read it bound to that area.
      const tenant = await otherTenant(database, request, request.params.tenantId);
      return organisationsOfTenant(tenantExecutor(database, tenant), tenant);
    },
  );

  app.get(
    '/tenant/:tenantId/marketfunction',
    {
      config: LOOKUP,
      schema: {
        tags,
        summary: 'Organisations of an area with their market functions (orgName narrows to one name)',
        params: tenantParams,
        querystring: z.object({ orgName: text(TEXT_LIMITS.name).optional() }),
        response: { 200: z.array(organisationMarketFunctionsSchema) },
      },
    },
    async (request) => {
      const tenant = await otherTenant(database, request, request.params.tenantId);
      return marketFunctionsInTenant(tenantExecutor(database, tenant), tenant, request.query.orgName);
    },
  );

  app.get(
    '/settlementareas-not-used-by-infrastructure-managers',
    {
      config: LOOKUP,
      schema: {
        tags,
        summary: 'Settlement areas no infrastructure manager names as its settlementAreaRef',
        response: { 200: z.array(minimalEntitySchema) },
      },
    },
    async (request) => settlementAreasWithoutInfrastructureManager(request.ctx.db, request.tenant.uuid),
  );

  app.get(
    '/:x/marketfunction',
    {
      config: LOOKUP,
      schema: {
        tags,
        summary: 'Market functions of one organisation (x: its uuid or orgId)',
        params: z.object({ x: text(TEXT_LIMITS.identifier).min(1) }),
        response: { 200: organisationMarketFunctionsSchema },
      },
    },
    async (request) => marketFunctionsOf(request.ctx.db, request.tenant.uuid, request.params.x),
  );

  app.post(
    '/organisationtype/save',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Save an organisation's types (a new version from timeRange.start, default now)",
        body: organisationTypeSaveSchema,
        response: { 200: versionedEntitySchema },
      },
    },
    async (request) => saveOrganisationTypes(request.ctx.db, request.tenant.uuid, actorOf(request), request.body),
  );

  app.post(
    '/organisationtype-with-credentials',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Save types and the export credentials (stored encrypted, never answered)',
        body: organisationTypeWithCredentialsSchema,
        response: { 200: organisationTypeWithCredentialsResultSchema },
      },
    },
    async (request) =>
      saveOrganisationTypesWithCredentials(request.ctx.db, request.tenant.uuid, actorOf(request), request.body),
  );
};
