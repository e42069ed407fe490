import { z } from 'zod';
import { pageOf } from '../paging.js';
import { instantSchema } from './entity.js';

/** Fleet search modes (product.md §6). "Own" = owned by the organisations the user belongs to. */
export const FLEET_SEARCH_MODES = ['ALL_READ_ONLY', 'OWN_READ_WRITE', 'OWN_READ_ONLY'] as const;
export const fleetSearchModeSchema = z.enum(FLEET_SEARCH_MODES);
export type FleetSearchMode = z.infer<typeof fleetSearchModeSchema>;

export const FLEET_SORT_FIELDS = [
  'evn',
  'vkm',
  'nvr',
  'description',
  'tractionUnitName',
  'type',
  'responsible',
  'informationChangeDate',
  'status',
  'createdBy',
  'validFrom',
  'validTo',
] as const;

/** POST /domain/fleet body. Text filters are case-insensitive contains matches. */
export const fleetFilterSchema = z.object({
  searchMode: fleetSearchModeSchema.default('ALL_READ_ONLY'),
  evn: z.string().optional(),
  vkm: z.string().optional(),
  nvr: z.string().optional(),
  description: z.string().optional(),
  tractionUnitName: z.string().optional(),
  emsId: z.string().optional(),
  emsType: z.string().optional(),
  /** Traction unit type uuids. */
  tractionUnitTypes: z.array(z.uuid()).optional(),
  /** Owner organisation uuids. */
  owners: z.array(z.uuid()).optional(),
  statuses: z.array(z.string()).optional(),
  includeInactive: z.boolean().default(true),
  /** Units with a segment overlapping this range; default 1970-2070. */
  timeRange: z.object({ start: instantSchema, end: instantSchema }).optional(),
  sortBy: z.enum(FLEET_SORT_FIELDS).default('evn'),
  descendingOrder: z.boolean().default(false),
});
export type FleetFilter = z.infer<typeof fleetFilterSchema>;

export const fleetPageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(10000).default(10),
});

export const fleetConsumptionPointSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  cpid: z.string(),
  emsId: z.string(),
  emsType: z.string().nullable(),
  channels: z.number().int().nullable(),
});

/** One row of the fleet overview: a traction unit (its latest segment) with its consumption points. */
export const fleetEntrySchema = z.object({
  uuid: z.uuid(),
  evn: z.string(),
  vkm: z.string().nullable(),
  nvr: z.string().nullable(),
  description: z.string().nullable(),
  tractionUnitName: z.string(),
  /** Traction unit type name. */
  type: z.string().nullable(),
  typeRef: z.uuid().nullable(),
  /** Owner organisation name. */
  responsible: z.string().nullable(),
  ownerRef: z.uuid().nullable(),
  informationChangeDate: instantSchema,
  status: z.string(),
  active: z.boolean(),
  createdBy: z.string(),
  emsType: z.string().nullable(),
  emsId: z.string().nullable(),
  validFrom: instantSchema,
  validTo: instantSchema,
  /** Whether the signed-in user may change this unit (own organisation or a writing role). */
  writable: z.boolean(),
  segmentCount: z.number().int(),
  consumptionPoints: z.array(fleetConsumptionPointSchema),
});
export type FleetEntry = z.infer<typeof fleetEntrySchema>;

export const fleetPageSchema = pageOf(fleetEntrySchema);
export type FleetPage = z.infer<typeof fleetPageSchema>;

/** POST /domain/tractionunit/filtered-by-types-and-organisations. */
export const tractionUnitFilterByTypesSchema = z.object({
  tractionUnitTypes: z.array(z.uuid()).default([]),
  organisations: z.array(z.uuid()).default([]),
});

/** Traction unit with its consumption points, for exchange pickers. */
export const tractionUnitConsumptionPointsSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  evn: z.string(),
  owner: z.uuid().nullable(),
  consumptionPoints: z.array(z.object({ uuid: z.uuid(), name: z.string(), cpid: z.string() })),
});

/** POST /domain/tractionunit/resolve/cpid: entity identifiers (EVN, CPID, name or uuid) -> CPID. */
export const resolveCpidRequestSchema = z.array(z.string()).max(10000);
export const resolvedCpidSchema = z.object({
  identifier: z.string(),
  cpid: z.string(),
  consumptionPointUuid: z.uuid(),
  tractionUnitUuid: z.uuid().nullable(),
});
