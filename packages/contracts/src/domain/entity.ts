import { z } from 'zod';
import {
  DATE_OUT_OF_RANGE_MESSAGE,
  LIST_LIMITS,
  RANGE_ORDER_MESSAGE,
  TEXT_LIMITS,
  list,
  serverText,
  text,
  withinProductRange,
} from '../limits.js';

/**
 * ISO 8601 instant with zone ('2024-01-01T00:00:00Z' or '+01:00'), within the product's range
 * 1970-01-01 .. 2070-01-01 (product.md §9): PostgreSQL would accept year 9999 or -4000, the product not.
 */
export const instantSchema = z.iso.datetime({ offset: true }).refine(withinProductRange, DATE_OUT_OF_RANGE_MESSAGE);

/** A validity range [start, end): start inclusive, end exclusive. */
export const timeRangeSchema = z
  .object({
    start: instantSchema,
    end: instantSchema,
  })
  .refine((r) => Date.parse(r.start) < Date.parse(r.end), {
    message: RANGE_ORDER_MESSAGE,
    path: ['end'],
  });

/**
 * Refuses `start` after `end` on an object holding both as optional instants (query strings of the
 * list calls), with the message on `end` as timeRangeSchema does. Equal is allowed: an instant.
 */
export const orderedWindow = <T extends { start?: string | undefined; end?: string | undefined }>(value: T) =>
  value.start === undefined || value.end === undefined || Date.parse(value.start) <= Date.parse(value.end);
export const ORDERED_WINDOW_CHECK = { message: RANGE_ORDER_MESSAGE, path: ['end'] };

/** An entity type as sent on the wire ('TractionUnit', 'com.x.TractionUnitType'). */
export const typeNameSchema = text(TEXT_LIMITS.identifier);
export type TimeRange = z.infer<typeof timeRangeSchema>;

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
export const entityRefSchema = z.object({ uuid: z.uuid(), type: typeNameSchema });
export type EntityRef = z.infer<typeof entityRefSchema>;

/** One version of an entity: its attributes for [timeRange.start, timeRange.end). */
export const segmentSchema = z.object({
  id: z.number().int().optional(),
  name: text(TEXT_LIMITS.name),
  timeRange: timeRangeSchema,
  active: z.boolean(),
  state: entityStateSchema,
  comments: text(TEXT_LIMITS.comment).nullable(),
  lastModified: instantSchema,
  lastModifiedBy: text(TEXT_LIMITS.identifier),
  /**
   * An answer only: what the server stored after validating a save with the kind's schema
   * (KIND_ATTRIBUTE_SCHEMAS, which bounds every field and strips unknown keys), so any kind's
   * attributes pass here unchanged.
   */
  attributes: z.record(text(TEXT_LIMITS.identifier), z.unknown()),
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
  name: text(TEXT_LIMITS.name),
  type: typeNameSchema,
  active: z.boolean(),
  state: entityStateSchema,
  timeRange: timeRangeSchema,
  segments: list(segmentSchema, LIST_LIMITS.rows),
  lastModified: instantSchema,
  lastModifiedBy: text(TEXT_LIMITS.identifier),
  comments: text(TEXT_LIMITS.comment).nullable(),
  /** True when no segment is active. */
  allInactive: z.boolean(),
});
export type VersionedEntity = z.infer<typeof versionedEntitySchema>;

/** Lists of options, pickers and resolved refs. */
export const minimalEntitySchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  type: typeNameSchema,
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
  type: typeNameSchema.min(1),
  name: text(TEXT_LIMITS.name).optional(),
  timeRange: timeRangeSchema.optional(),
  active: z.boolean().optional(),
  state: entityStateSchema.optional(),
  comments: text(TEXT_LIMITS.comment).nullable().optional(),
});
export type SaveEntity = z.infer<typeof saveEntitySchema>;

/** Query parameters of list calls. `start`/`end` bound the time range (default 1970-2070). */
export const timeRangeQuerySchema = z
  .object({
    start: instantSchema.optional(),
    end: instantSchema.optional(),
    includeInactive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
  })
  .refine(orderedWindow, ORDERED_WINDOW_CHECK);
export type TimeRangeQuery = z.infer<typeof timeRangeQuerySchema>;

export const byIdQuerySchema = z
  .object({
    /** The segment covering refTime (or the nearest one) is merged onto the entity. Default: now. */
    refTime: instantSchema.optional(),
    start: instantSchema.optional(),
    end: instantSchema.optional(),
  })
  .refine(orderedWindow, ORDERED_WINDOW_CHECK);

export const likeQuerySchema = z.object({
  searchString: text(TEXT_LIMITS.search).default(''),
  maxResult: z.coerce.number().int().min(1).max(1000).default(20),
});

/**
 * The set-status dialog's range: an empty "Valid to" is sent as no end (null or left out) and means
 * open-ended, up to DEFAULT_TIME_RANGE.end; the server fills it in, so no client turns the sentinel
 * into a day in its own zone.
 */
export const statusChangeRangeSchema = z
  .object({ start: instantSchema, end: instantSchema.nullish() })
  .refine((r) => r.end == null || Date.parse(r.start) < Date.parse(r.end), ORDERED_WINDOW_CHECK);

/** POST /domain/status: the set-status dialog (product.md §4). */
export const statusChangeRequestSchema = z.object({
  action: statusActionSchema,
  uuids: list(z.uuid(), LIST_LIMITS.selection).min(1),
  type: typeNameSchema.min(1),
  timeRange: statusChangeRangeSchema,
  comment: text(TEXT_LIMITS.comment).nullable().optional(),
});
export type StatusChangeRequest = z.infer<typeof statusChangeRequestSchema>;

export const statusChangeItemSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  validFrom: instantSchema,
  validTo: instantSchema,
  status: text(TEXT_LIMITS.code),
  error: serverText(TEXT_LIMITS.message).optional(),
});
export type StatusChangeItem = z.infer<typeof statusChangeItemSchema>;

export const statusChangeResultSchema = z.object({
  success: z.boolean(),
  items: list(statusChangeItemSchema, LIST_LIMITS.selection),
});
export type StatusChangeResult = z.infer<typeof statusChangeResultSchema>;

/** POST /domain/query. */
export const queryMatcherSchema = z.object({
  propertyName: text(TEXT_LIMITS.identifier).min(1),
  propertyValues: list(text(TEXT_LIMITS.name), LIST_LIMITS.selection),
  propertyType: z.enum(['RELATION', 'STRING', 'NUMBER', 'BOOLEAN']).default('STRING'),
});
export const domainQuerySchema = z.object({
  typeName: typeNameSchema.min(1),
  matchers: list(queryMatcherSchema, LIST_LIMITS.small).default([]),
  timeRange: timeRangeSchema.optional(),
});
export type DomainQuery = z.infer<typeof domainQuerySchema>;

/** POST /domain/resolve/minimal. */
export const resolveMinimalRequestSchema = z.object({ refs: list(entityRefSchema, LIST_LIMITS.selection) });
