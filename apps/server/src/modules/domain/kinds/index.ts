import { AREA_KINDS_INFRASTRUCTURE, type EntityKind } from '@railwatt/contracts';
import { areaRules } from './areas.js';
import { consumptionPointRules } from './consumptionpoint.js';
import { fixedMeteringPointRules } from './fixedmeteringpoint.js';
import { organisationRules } from './organisation.js';
import { supplyMeteringPointRules } from './supplymeteringpoint.js';
import { tractionUnitRules } from './tractionunit.js';
import { tractionUnitTypeRules } from './tractionunittype.js';
import type { BatchCheck, KindRules } from './types.js';

export type { KindRules, PlannedRecord, StoredEntities, UniqueProperty } from './types.js';
export { APPROVED } from './approval.js';
export { checkFleetPolicy } from './fleet.js';

/**
 * Each entity kind's own rules, one module per kind (issue 6 §5). validateEntities and
 * planEntities loop over this registry and name no kind; a kind without an entry has only the
 * generic rules (its contract schema, references, unique name, who writes the kind).
 */
export const KIND_RULES: Partial<Record<EntityKind, KindRules>> = {
  ...Object.fromEntries(AREA_KINDS_INFRASTRUCTURE.map((kind) => [kind, areaRules])),
  tractionunit: tractionUnitRules,
  tractionunittype: tractionUnitTypeRules,
  consumptionpoint: consumptionPointRules,
  organisation: organisationRules,
  supplymeteringpoint: supplyMeteringPointRules,
  fixedmeteringpoint: fixedMeteringPointRules,
};

export const rulesOf = (kind: EntityKind): KindRules => KIND_RULES[kind] ?? {};

/** Every batch check of the registry once, in registry order (kinds may share one). */
export const BATCH_CHECKS: readonly BatchCheck[] = [
  ...new Set(Object.values(KIND_RULES).flatMap((r) => (r.checkBatch ? [r.checkBatch] : []))),
];
