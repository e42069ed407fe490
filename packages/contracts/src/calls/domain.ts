import { z } from 'zod';
import {
  byIdQuerySchema,
  domainQuerySchema,
  instantSchema,
  ORDERED_WINDOW_CHECK,
  orderedWindow,
  likeQuerySchema,
  minimalEntitySchema,
  resolveMinimalRequestSchema,
  saveEntitySchema,
  segmentSchema,
  statusChangeRequestSchema,
  statusChangeResultSchema,
  timeRangeQuerySchema,
  versionedEntitySchema,
} from '../domain/entity.js';
import {
  fleetFilterSchema,
  fleetPageQuerySchema,
  fleetPageSchema,
  resolveCpidRequestSchema,
  resolvedCpidSchema,
  tractionUnitConsumptionPointsSchema,
  tractionUnitFilterByTypesSchema,
} from '../domain/fleet.js';
import { tractionUnitSaveRequestSchema } from '../domain/fleet-kinds.js';
import { areaListQuerySchema, areaSummarySchema, settlementAreaOptionSchema } from '../domain/infrastructure.js';
import { branchSchema } from '../domain/organisation.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { defineCall, pathSegmentSchema } from './define.js';
import { POLICIES } from './policies.js';

const typeParams = z.object({ type: pathSegmentSchema });
const typeUuidParams = z.object({ type: pathSegmentSchema, uuid: z.uuid() });
/** A validity window in the query (start, end); defaults are the service's. */
const windowShape = { start: instantSchema.optional(), end: instantSchema.optional() };
export const windowQuerySchema = z.object(windowShape).refine(orderedWindow, ORDERED_WINDOW_CHECK);
const entities = z.array(versionedEntitySchema);
const minimals = z.array(minimalEntitySchema);

/** calls.md §7 "Domain data" (fleet, generic entity calls, infrastructure options, organisations). */
export const domainCalls = {
  // --- Fleet ------------------------------------------------------------------------------------
  fleet: defineCall({
    method: 'POST',
    path: '/domain/fleet',
    access: POLICIES.domainRead,
    summary: 'Fleet overview: traction units page (page zero-based, size default 10)',
    body: fleetFilterSchema,
    query: fleetPageQuerySchema,
    response: fleetPageSchema,
  }),
  fleetAreas: defineCall({
    method: 'GET',
    path: '/domain/fleet/areas',
    access: POLICIES.domainLookup,
    summary: 'Areas with geometry by type and active/inactive toggles',
    query: areaListQuerySchema,
    response: z.array(areaSummarySchema),
  }),
  tractionUnitSave: defineCall({
    method: 'POST',
    path: '/domain/tractionunit/save',
    access: POLICIES.fleetWrite,
    summary: 'Traction unit with its type and consumption points, one transaction',
    body: tractionUnitSaveRequestSchema,
    response: versionedEntitySchema,
  }),
  tractionUnitConsumptionPointExchange: defineCall({
    method: 'POST',
    path: '/domain/tractionunit/minimal/consumption-point-exchange',
    access: POLICIES.domainRead,
    summary: 'Traction units with their consumption points (CPIDs), optionally of given owners',
    body: z.object({
      organisations: list(z.uuid(), LIST_LIMITS.selection).default([]),
      timeRange: z
        .object({ start: instantSchema, end: instantSchema })
        .refine(orderedWindow, ORDERED_WINDOW_CHECK)
        .optional(),
    }),
    response: z.array(tractionUnitConsumptionPointsSchema),
  }),
  tractionUnitFilteredByTypesAndOrganisations: defineCall({
    method: 'POST',
    path: '/domain/tractionunit/filtered-by-types-and-organisations',
    access: POLICIES.domainRead,
    body: tractionUnitFilterByTypesSchema,
    response: minimals,
  }),
  tractionUnitResolveCpid: defineCall({
    method: 'POST',
    path: '/domain/tractionunit/resolve/cpid',
    access: POLICIES.domainRead,
    summary: 'Entity identifiers (CPID, name, EVN, uuid) to CPIDs',
    body: resolveCpidRequestSchema,
    response: z.array(resolvedCpidSchema),
  }),
  tractionUnitActiveConsumptionPoints: defineCall({
    method: 'GET',
    path: '/domain/tractionunit/minimal/active-consumption-point',
    access: POLICIES.domainRead,
    response: minimals,
  }),

  // --- Generic entity calls ----------------------------------------------------------------------
  save: defineCall({
    method: 'POST',
    path: '/domain/save',
    access: POLICIES.entityWrite,
    summary: 'Save one entity (type may be dotted: last segment, any case)',
    body: saveEntitySchema,
    response: versionedEntitySchema,
  }),
  status: defineCall({
    method: 'POST',
    path: '/domain/status',
    access: POLICIES.entityWrite,
    summary: 'Set-status dialog: one action, range and comment for every selected entity',
    body: statusChangeRequestSchema,
    response: statusChangeResultSchema,
  }),
  query: defineCall({
    method: 'POST',
    path: '/domain/query',
    access: POLICIES.domainLookup,
    body: domainQuerySchema,
    response: entities,
  }),
  resolveMinimal: defineCall({
    method: 'POST',
    path: '/domain/resolve/minimal',
    access: POLICIES.domainLookup,
    body: resolveMinimalRequestSchema,
    response: minimals,
  }),

  // --- Infrastructure options --------------------------------------------------------------------
  infrastructureAreaTypes: defineCall({
    method: 'GET',
    path: '/domain/infrastructure/areatypes',
    access: POLICIES.domainLookup,
    response: z.array(z.object({ key: z.string(), type: z.string() })),
  }),
  infrastructureOptionsSa: defineCall({
    method: 'GET',
    path: '/domain/infrastructure/options/sa',
    access: POLICIES.domainLookup,
    response: z.array(settlementAreaOptionSchema),
  }),
  infrastructureSettlementAreasMinimal: defineCall({
    method: 'GET',
    path: '/domain/infrastructure/settlementareas/minimal',
    access: POLICIES.domainLookup,
    response: z.array(settlementAreaOptionSchema),
  }),
  infrastructureOptionsEusa: defineCall({
    method: 'GET',
    path: '/domain/infrastructure/options/eusa',
    access: POLICIES.domainLookup,
    query: windowQuerySchema,
    response: minimals,
  }),
  settlementAreaById: defineCall({
    method: 'GET',
    path: '/domain/settlementarea/id/{id}',
    access: POLICIES.domainLookup,
    params: z.object({ id: z.uuid() }),
    response: settlementAreaOptionSchema.extend({ geometry: z.unknown().nullable() }),
  }),

  // --- Organisations -----------------------------------------------------------------------------
  organisations: defineCall({
    method: 'GET',
    path: '/domain/organisations',
    access: POLICIES.domainLookup,
    // ownerChoices=true: only the owners the user may choose for a traction unit (a vehicle keeper's own).
    query: z
      .object({
        ...timeRangeQuerySchema.shape,
        ownerChoices: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
      })
      .refine(orderedWindow, ORDERED_WINDOW_CHECK),
    response: entities,
  }),
  organisationAreasMinimal: defineCall({
    method: 'GET',
    path: '/domain/organisations/areas/minimal',
    access: POLICIES.domainLookup,
    query: windowQuerySchema,
    response: minimals,
  }),
  organisationBranches: defineCall({
    method: 'GET',
    path: '/domain/organisations/branch/all',
    access: POLICIES.domainLookup,
    query: windowQuerySchema,
    response: z.array(branchSchema),
  }),
  filteredOrganisations: defineCall({
    method: 'GET',
    path: '/domain/organisations/filteredOrganisations',
    access: POLICIES.domainLookup,
    query: z
      .object({
        ...windowShape,
        organisationTypes: z
          .union([list(text(TEXT_LIMITS.code), LIST_LIMITS.small), text(TEXT_LIMITS.comment)])
          .optional(),
        searchString: text(TEXT_LIMITS.search).default(''),
      })
      .refine(orderedWindow, ORDERED_WINDOW_CHECK),
    response: minimals,
  }),
  organisationsOfType: defineCall({
    method: 'GET',
    path: '/domain/organisations/{orgType}/all',
    access: POLICIES.domainLookup,
    params: z.object({ orgType: pathSegmentSchema }),
    query: windowQuerySchema,
    response: entities,
  }),

  // --- Per kind ----------------------------------------------------------------------------------
  all: defineCall({
    method: 'GET',
    path: '/domain/{type}/all',
    access: POLICIES.domainLookup,
    params: typeParams,
    query: timeRangeQuerySchema,
    response: entities,
  }),
  minimalAll: defineCall({
    method: 'GET',
    path: '/domain/{type}/minimal/all',
    access: POLICIES.domainLookup,
    params: typeParams,
    query: timeRangeQuerySchema,
    response: minimals,
  }),
  byId: defineCall({
    method: 'GET',
    path: '/domain/{type}/id/{uuid}',
    access: POLICIES.domainLookup,
    params: typeUuidParams,
    query: byIdQuerySchema,
    response: versionedEntitySchema,
  }),
  versions: defineCall({
    method: 'GET',
    path: '/domain/{type}/versions/{uuid}',
    access: POLICIES.domainLookup,
    params: typeUuidParams,
    response: z.array(segmentSchema),
  }),
  like: defineCall({
    method: 'GET',
    path: '/domain/{type}/like',
    access: POLICIES.domainLookup,
    params: typeParams,
    query: likeQuerySchema,
    response: minimals,
  }),
};
