import type { TimeRange } from '@railwatt/contracts';
import type { Actor } from '../policy.js';
import type { SegmentRow } from '../repository.js';
import type { Executor } from '../sql.js';
import type { RecordError, ValidRecord } from '../validation.js';

/** A checked record with the entity it writes, the range it covers and whether the entity is new. */
export interface PlannedRecord {
  record: ValidRecord;
  uuid: string;
  range: TimeRange;
  created: boolean;
}

/** The current segments of the entities a batch names, by uuid. */
export type StoredEntities = ReadonlyMap<string, { segments: SegmentRow[] }>;

/** A property whose value no two entities of the kind share (within the batch and against stored data). */
export interface UniqueProperty {
  property: string;
  code: string;
  message: string;
}

/**
 * A rule on one planned record against its entity's stored segments: it refuses the record or
 * answers it, possibly changed (a kept approval, a kept admin-only field). `trusted` is a seeder.
 */
export type RecordAdjustment = (
  actor: Actor,
  planned: PlannedRecord,
  segments: readonly SegmentRow[] | undefined,
  trusted: boolean,
) => { planned: PlannedRecord } | { error: RecordError };

/**
 * A rule over the whole batch (every kind: a fleet rule looks at organisations saved with the units).
 * Kinds that share a rule name the same function; planEntities runs each function once.
 */
export type BatchCheck = (
  ex: Executor,
  tenant: string,
  actor: Actor,
  planned: readonly PlannedRecord[],
  stored: StoredEntities,
  trusted: boolean,
) => Promise<RecordError[]>;

/**
 * Everything one entity kind adds to the generic pipeline (validateEntities, planEntities).
 * Contract facts (schemas, references, ADMIN_ONLY_FIELDS) stay in packages/contracts; a kind's
 * module reads them.
 */
export interface KindRules {
  /** Fields worked out from others after the schema passed (a consumption point's CPID and name). */
  derive?: (attributes: Record<string, unknown>, name: string) => { attributes: Record<string, unknown>; name: string };
  /** Fields a stored entity may not change (code immutableproperty). */
  immutable?: readonly string[];
  uniqueProperties?: readonly UniqueProperty[];
  /** Checks of a user's record that need no database (not for trusted seeders). */
  checkValid?: (record: ValidRecord) => RecordError | undefined;
  /** Who-may rules on one record against its stored segments (not for trusted seeders). */
  checkRecord?: (
    actor: Actor,
    planned: PlannedRecord,
    segments: readonly SegmentRow[] | undefined,
  ) => RecordError | undefined;
  /** Rules that keep or refuse parts of a record against what is stored, in order. */
  adjust?: readonly RecordAdjustment[];
  checkBatch?: BatchCheck;
}
