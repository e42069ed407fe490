import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { MAX_PAGE, pageOf } from '../paging.js';
import { ORDERED_WINDOW_CHECK, instantSchema, orderedWindow } from './entity.js';

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
  evn: text(TEXT_LIMITS.search).optional(),
  vkm: text(TEXT_LIMITS.search).optional(),
  nvr: text(TEXT_LIMITS.search).optional(),
  description: text(TEXT_LIMITS.search).optional(),
  tractionUnitName: text(TEXT_LIMITS.search).optional(),
  emsId: text(TEXT_LIMITS.search).optional(),
  emsType: text(TEXT_LIMITS.search).optional(),
  /** Traction unit type uuids. */
  tractionUnitTypes: list(z.uuid(), LIST_LIMITS.selection).optional(),
  /** Owner organisation uuids. */
  owners: list(z.uuid(), LIST_LIMITS.selection).optional(),
  statuses: list(text(TEXT_LIMITS.code), LIST_LIMITS.small).optional(),
  includeInactive: z.boolean().default(true),
  /** Units with a segment overlapping this range; default 1970-2070. Start may equal end (an instant). */
  timeRange: z
    .object({ start: instantSchema, end: instantSchema })
    .refine(orderedWindow, ORDERED_WINDOW_CHECK)
    .optional(),
  sortBy: z.enum(FLEET_SORT_FIELDS).default('evn'),
  descendingOrder: z.boolean().default(false),
});
export type FleetFilter = z.infer<typeof fleetFilterSchema>;

export const fleetPageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(MAX_PAGE).default(0),
  size: z.coerce.number().int().min(1).max(10000).default(10),
});

export const fleetConsumptionPointSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  cpid: text(TEXT_LIMITS.name),
  emsId: text(TEXT_LIMITS.identifier),
  emsType: text(TEXT_LIMITS.identifier).nullable(),
  channels: z.number().int().nullable(),
});

/** One row of the fleet overview: a traction unit (its latest segment) with its consumption points. */
export const fleetEntrySchema = z.object({
  uuid: z.uuid(),
  evn: text(TEXT_LIMITS.identifier),
  vkm: text(TEXT_LIMITS.code).nullable(),
  nvr: text(TEXT_LIMITS.code).nullable(),
  description: text(TEXT_LIMITS.comment).nullable(),
  tractionUnitName: text(TEXT_LIMITS.name),
  /** Traction unit type name. */
  type: text(TEXT_LIMITS.name).nullable(),
  typeRef: z.uuid().nullable(),
  /** Owner organisation name. */
  responsible: text(TEXT_LIMITS.name).nullable(),
  ownerRef: z.uuid().nullable(),
  informationChangeDate: instantSchema,
  status: text(TEXT_LIMITS.code),
  active: z.boolean(),
  createdBy: text(TEXT_LIMITS.identifier),
  emsType: text(TEXT_LIMITS.identifier).nullable(),
  emsId: text(TEXT_LIMITS.identifier).nullable(),
  validFrom: instantSchema,
  validTo: instantSchema,
  /** Whether the signed-in user may change this unit (own organisation or a writing role). */
  writable: z.boolean(),
  segmentCount: z.number().int(),
  consumptionPoints: list(fleetConsumptionPointSchema, LIST_LIMITS.refs),
});
export type FleetEntry = z.infer<typeof fleetEntrySchema>;

export const fleetPageSchema = pageOf(fleetEntrySchema);
export type FleetPage = z.infer<typeof fleetPageSchema>;

/** POST /domain/tractionunit/filtered-by-types-and-organisations. */
export const tractionUnitFilterByTypesSchema = z.object({
  tractionUnitTypes: list(z.uuid(), LIST_LIMITS.selection).default([]),
  organisations: list(z.uuid(), LIST_LIMITS.selection).default([]),
});

/** Traction unit with its consumption points, for exchange pickers. */
export const tractionUnitConsumptionPointsSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  evn: text(TEXT_LIMITS.identifier),
  owner: z.uuid().nullable(),
  consumptionPoints: list(
    z.object({ uuid: z.uuid(), name: text(TEXT_LIMITS.name), cpid: text(TEXT_LIMITS.name) }),
    LIST_LIMITS.refs,
  ),
});

/** POST /domain/tractionunit/resolve/cpid: entity identifiers (EVN, CPID, name or uuid) -> CPID. */
export const resolveCpidRequestSchema = list(text(TEXT_LIMITS.name), LIST_LIMITS.selection);
export const resolvedCpidSchema = z.object({
  identifier: text(TEXT_LIMITS.name),
  cpid: text(TEXT_LIMITS.name),
  consumptionPointUuid: z.uuid(),
  tractionUnitUuid: z.uuid().nullable(),
});
