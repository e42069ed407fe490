import { z } from 'zod';
import { DEFAULT_TIME_RANGE } from '../constants.js';

/** ISO 8601 instant with zone ('2024-01-01T00:00:00Z' or '+01:00'). */
export const instantSchema = z.iso.datetime({ offset: true });

/** A validity range [start, end): start inclusive, end exclusive. */
export const timeRangeSchema = z
  .object({
    start: instantSchema,
    end: instantSchema,
  })
  .refine((r) => Date.parse(r.start) < Date.parse(r.end), {
    message: 'From date must be before to date',
    path: ['end'],
  });
export type TimeRange = z.infer<typeof timeRangeSchema>;

export const defaultTimeRange = (): TimeRange => ({ ...DEFAULT_TIME_RANGE });

/** Entity states (product.md §4). */
export const ENTITY_STATES = ['ACTIVE', 'INACTIVE', 'APPROVED_FOR_BILLING', 'RETIRED'] as const;
export const entityStateSchema = z.enum(ENTITY_STATES);
export type EntityState = z.infer<typeof entityStateSchema>;

/** The set-status dialog's actions and the state and active flag each one sets (product.md §4). */
export const STATUS_ACTIONS = {
  setactive: { state: 'ACTIVE', active: true },
  setinactive: { state: 'INACTIVE', active: false },
  approve: { state: 'APPROVED_FOR_BILLING', active: true },
  unapprove: { state: 'ACTIVE', active: true },
  retire: { state: 'RETIRED', active: false },
} as const satisfies Record<string, { state: EntityState; active: boolean }>;
export type StatusAction = keyof typeof STATUS_ACTIONS;
export const statusActionSchema = z.enum(Object.keys(STATUS_ACTIONS) as [StatusAction, ...StatusAction[]]);

/** A reference to another entity. */
export const entityRefSchema = z.object({ uuid: z.uuid(), type: z.string() });
export type EntityRef = z.infer<typeof entityRefSchema>;

/** One version of an entity: its attributes for [timeRange.start, timeRange.end). */
export const segmentSchema = z.object({
  id: z.number().int().optional(),
  name: z.string(),
  timeRange: timeRangeSchema,
  active: z.boolean(),
  state: entityStateSchema,
  comments: z.string().nullable(),
  lastModified: instantSchema,
  lastModifiedBy: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  /** Set on history rows only (GET versions): when a later change replaced this segment. */
  supersededAt: instantSchema.nullable().optional(),
});
export type Segment = z.infer<typeof segmentSchema>;

/**
 * The generic versioned entity (product.md §3). The attributes of the chosen segment (the latest
 * for lists, the nearest to refTime for /id) are merged onto the entity as top-level fields, so a
 * traction unit reads `entity.evn`; `timeRange` is the whole span of its segments.
 */
export const versionedEntitySchema = z.looseObject({
  uuid: z.uuid(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  state: entityStateSchema,
  timeRange: timeRangeSchema,
  segments: z.array(segmentSchema),
  lastModified: instantSchema,
  lastModifiedBy: z.string(),
  comments: z.string().nullable(),
  /** True when no segment is active. */
  allInactive: z.boolean(),
});
export type VersionedEntity = z.infer<typeof versionedEntitySchema>;

/** Lists of options, pickers and resolved refs. */
export const minimalEntitySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  state: entityStateSchema,
  timeRange: timeRangeSchema,
});
export type MinimalEntity = z.infer<typeof minimalEntitySchema>;

/**
 * What a save sends: the entity's base fields plus its kind's fields at top level. `timeRange` is
 * the range the new values apply to ("change from a date": start = that date); it defaults to
 * 1970-2070 for a new entity and to [now, 2070) for a change of an existing one. Kind fields are
 * validated on the server by the kind's schema (see kinds-*.ts).
 */
export const saveEntitySchema = z.looseObject({
  uuid: z.uuid().optional(),
  type: z.string().min(1),
  name: z.string().optional(),
  timeRange: timeRangeSchema.optional(),
  active: z.boolean().optional(),
  state: entityStateSchema.optional(),
  comments: z.string().nullable().optional(),
});
export type SaveEntity = z.infer<typeof saveEntitySchema>;

/** Query parameters of list calls. `start`/`end` bound the time range (default 1970-2070). */
export const timeRangeQuerySchema = z.object({
  start: instantSchema.optional(),
  end: instantSchema.optional(),
  includeInactive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});
export type TimeRangeQuery = z.infer<typeof timeRangeQuerySchema>;

export const byIdQuerySchema = z.object({
  /** The segment covering refTime (or the nearest one) is merged onto the entity. Default: now. */
  refTime: instantSchema.optional(),
  start: instantSchema.optional(),
  end: instantSchema.optional(),
});

export const likeQuerySchema = z.object({
  searchString: z.string().default(''),
  maxResult: z.coerce.number().int().min(1).max(1000).default(20),
});

/**
 * The set-status dialog's range: an empty "Valid to" is sent as no end (null or left out) and means
 * open-ended, up to DEFAULT_TIME_RANGE.end; the server fills it in, so no client turns the sentinel
 * into a day in its own zone.
 */
export const statusChangeRangeSchema = z
  .object({ start: instantSchema, end: instantSchema.nullish() })
  .refine((r) => r.end == null || Date.parse(r.start) < Date.parse(r.end), {
    message: 'From date must be before to date',
    path: ['end'],
  });

/** POST /domain/status: the set-status dialog (product.md §4). */
export const statusChangeRequestSchema = z.object({
  action: statusActionSchema,
  uuids: z.array(z.uuid()).min(1),
  type: z.string().min(1),
  timeRange: statusChangeRangeSchema,
  comment: z.string().nullable().optional(),
});
export type StatusChangeRequest = z.infer<typeof statusChangeRequestSchema>;

export const statusChangeItemSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  validFrom: instantSchema,
  validTo: instantSchema,
  status: z.string(),
  error: z.string().optional(),
});
export type StatusChangeItem = z.infer<typeof statusChangeItemSchema>;

export const statusChangeResultSchema = z.object({
  success: z.boolean(),
  items: z.array(statusChangeItemSchema),
});
export type StatusChangeResult = z.infer<typeof statusChangeResultSchema>;

/** POST /domain/query. */
export const queryMatcherSchema = z.object({
  propertyName: z.string().min(1),
  propertyValues: z.array(z.string()),
  propertyType: z.enum(['RELATION', 'STRING', 'NUMBER', 'BOOLEAN']).default('STRING'),
});
export const domainQuerySchema = z.object({
  typeName: z.string().min(1),
  matchers: z.array(queryMatcherSchema).default([]),
  timeRange: timeRangeSchema.optional(),
});
export type DomainQuery = z.infer<typeof domainQuerySchema>;

/** POST /domain/resolve/minimal. */
export const resolveMinimalRequestSchema = z.object({ refs: z.array(entityRefSchema) });
