import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { ORDERED_WINDOW_CHECK, instantSchema, orderedWindow } from './entity.js';
import type { InfrastructureAreaKind } from './kinds.js';

/** [lon, lat] in WGS 84. */
const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
/** A closed ring: at least four positions, first equals last. */
const ring = list(position, LIST_LIMITS.positions)
  .min(4)
  .refine((r) => r[0]![0] === r[r.length - 1]![0] && r[0]![1] === r[r.length - 1]![1], {
    message: 'A polygon ring must be closed',
  });

export const polygonSchema = z.object({
  type: z.literal('Polygon'),
  coordinates: list(ring, LIST_LIMITS.rings).min(1),
});
export const multiPolygonSchema = z.object({
  type: z.literal('MultiPolygon'),
  coordinates: list(list(ring, LIST_LIMITS.rings).min(1), LIST_LIMITS.rings).min(1),
});
export const areaGeometrySchema = z.discriminatedUnion('type', [polygonSchema, multiPolygonSchema]);
export type AreaGeometry = z.infer<typeof areaGeometrySchema>;

export const infrastructureAreaAttributesSchema = z.object({
  geometry: areaGeometrySchema.nullable().optional(),
  code: text(TEXT_LIMITS.code).nullable().optional(),
  description: text(TEXT_LIMITS.comment).nullable().optional(),
});
export const gridAreaAttributesSchema = infrastructureAreaAttributesSchema.extend({
  energyUseSettlementAreaRef: z.uuid().nullable().optional(),
  priceAreaRef: z.uuid().nullable().optional(),
  /** The tax area the grid area lies in (tax by tax category and tax area, DOMAIN.md step 8). */
  taxAreaRef: z.uuid().nullable().optional(),
});
export const settlementAreaAttributesSchema = infrastructureAreaAttributesSchema.extend({
  originalName: text(TEXT_LIMITS.name).nullable().optional(),
  settlementPartner: z.boolean().default(true),
});

/**
 * The parent of each infrastructure area kind: the reference attribute that names it and the kind it
 * must be. A child must lie within its parent (calls.md §8 `within`). DOMAIN.md: energy use settlement
 * areas contain grid areas (product.md §3 "Grid areas carry energyUseSettlementAreaRef"); price, tax,
 * surveillance and uncertainty areas overlay them and so have no parent; the settlement area is the
 * country area itself and an energy use settlement area belongs to it by its tenant, not by a
 * reference. The server's `within` check, the area list's parent column and the registration form's
 * parent select all read this table.
 */
export const AREA_PARENTS: Partial<
  Record<InfrastructureAreaKind, { field: 'energyUseSettlementAreaRef'; kind: InfrastructureAreaKind }>
> = {
  gridarea: { field: 'energyUseSettlementAreaRef', kind: 'energyusesettlementarea' },
};

/** GET /domain/fleet/areas and /infrastructure/areatypes. */
export const areaListQuerySchema = z
  .object({
    areaTypes: z
      .union([list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small), text(TEXT_LIMITS.address)])
      .optional()
      .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : v.split(',').filter(Boolean))),
    includeActive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
    includeInactive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
    start: instantSchema.optional(),
    end: instantSchema.optional(),
  })
  .refine(orderedWindow, ORDERED_WINDOW_CHECK);

export const areaSummarySchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  type: text(TEXT_LIMITS.identifier),
  active: z.boolean(),
  state: text(TEXT_LIMITS.code),
  geometry: areaGeometrySchema.nullable(),
  parentRef: z.uuid().nullable(),
  /** The span of the area's current segments (the overview's valid from / valid to). */
  validFrom: instantSchema,
  validTo: instantSchema,
});
export type AreaSummary = z.infer<typeof areaSummarySchema>;

/** A tenant as a settlement area option (/infrastructure/options/sa, /settlementareas/minimal). */
export const settlementAreaOptionSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  originalName: text(TEXT_LIMITS.name),
  settlementPartner: z.boolean(),
  timeZone: text(TEXT_LIMITS.code),
});
