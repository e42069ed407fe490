import { z } from 'zod';
import { TEXT_LIMITS, text } from '../limits.js';
import { minimalEntitySchema, versionedEntitySchema } from '../domain/entity.js';
import {
  organisationMarketFunctionsSchema,
  organisationTypeSaveSchema,
  organisationTypeWithCredentialsResultSchema,
  organisationTypeWithCredentialsSchema,
} from '../domain/organisation.js';
import { defineCall, pathSegmentSchema } from './define.js';
import { POLICIES } from './policies.js';

const tenantParams = z.object({ tenantId: z.uuid() });

/** The rest of calls.md §7 "Organisations", under /domain/organisations. */
export const organisationCalls = {
  ofTenant: defineCall({
    method: 'GET',
    path: '/domain/organisations/tenant/{tenantId}',
    access: POLICIES.domainLookup,
    summary: 'Active organisations of an area (minimal)',
    params: tenantParams,
    response: z.array(minimalEntitySchema),
  }),
  marketFunctionsInTenant: defineCall({
    method: 'GET',
    path: '/domain/organisations/tenant/{tenantId}/marketfunction',
    access: POLICIES.domainLookup,
    summary: 'Organisations of an area with their market functions (orgName narrows to one name)',
    params: tenantParams,
    query: z.object({ orgName: text(TEXT_LIMITS.name).optional() }),
    response: z.array(organisationMarketFunctionsSchema),
  }),
  settlementAreasNotUsedByInfrastructureManagers: defineCall({
    method: 'GET',
    path: '/domain/organisations/settlementareas-not-used-by-infrastructure-managers',
    access: POLICIES.domainLookup,
    summary: 'Settlement areas no infrastructure manager names as its settlementAreaRef',
    response: z.array(minimalEntitySchema),
  }),
  marketFunctions: defineCall({
    method: 'GET',
    path: '/domain/organisations/{x}/marketfunction',
    access: POLICIES.domainLookup,
    summary: 'Market functions of one organisation (x: its uuid or orgId)',
    params: z.object({ x: pathSegmentSchema }),
    response: organisationMarketFunctionsSchema,
  }),
  typeSave: defineCall({
    method: 'POST',
    path: '/domain/organisations/organisationtype/save',
    access: POLICIES.organisationWrite,
    summary: "Save an organisation's types (a new version from timeRange.start, default now)",
    body: organisationTypeSaveSchema,
    response: versionedEntitySchema,
  }),
  typeWithCredentials: defineCall({
    method: 'POST',
    path: '/domain/organisations/organisationtype-with-credentials',
    access: POLICIES.organisationWrite,
    summary: 'Save types and the export credentials (stored encrypted, never answered)',
    body: organisationTypeWithCredentialsSchema,
    response: organisationTypeWithCredentialsResultSchema,
  }),
};
