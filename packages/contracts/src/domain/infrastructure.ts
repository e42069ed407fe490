import { z } from 'zod';

/** [lon, lat] in WGS 84. */
const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
/** A closed ring: at least four positions, first equals last. */
const ring = z
  .array(position)
  .min(4)
  .refine((r) => r[0]![0] === r[r.length - 1]![0] && r[0]![1] === r[r.length - 1]![1], {
    message: 'A polygon ring must be closed',
  });

export const polygonSchema = z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) });
export const multiPolygonSchema = z.object({
  type: z.literal('MultiPolygon'),
  coordinates: z.array(z.array(ring).min(1)).min(1),
});
export const areaGeometrySchema = z.discriminatedUnion('type', [polygonSchema, multiPolygonSchema]);
export type AreaGeometry = z.infer<typeof areaGeometrySchema>;

export const infrastructureAreaAttributesSchema = z.object({
  geometry: areaGeometrySchema.nullable().optional(),
  code: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});
export const gridAreaAttributesSchema = infrastructureAreaAttributesSchema.extend({
  energyUseSettlementAreaRef: z.uuid().nullable().optional(),
  priceAreaRef: z.uuid().nullable().optional(),
});
export const settlementAreaAttributesSchema = infrastructureAreaAttributesSchema.extend({
  originalName: z.string().nullable().optional(),
  settlementPartner: z.boolean().default(true),
});

/** GET /domain/fleet/areas and /infrastructure/areatypes. */
export const areaListQuerySchema = z.object({
  areaTypes: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : v.split(',').filter(Boolean))),
  includeActive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  includeInactive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
  start: z.iso.datetime({ offset: true }).optional(),
  end: z.iso.datetime({ offset: true }).optional(),
});

export const areaSummarySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  state: z.string(),
  geometry: areaGeometrySchema.nullable(),
  parentRef: z.uuid().nullable(),
});
export type AreaSummary = z.infer<typeof areaSummarySchema>;

/** A tenant as a settlement area option (/infrastructure/options/sa, /settlementareas/minimal). */
export const settlementAreaOptionSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  originalName: z.string(),
  settlementPartner: z.boolean(),
  timeZone: z.string(),
});
