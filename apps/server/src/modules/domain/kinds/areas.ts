import { isInfrastructureAreaKind } from '@railwatt/contracts';
import { checkAreas, type PlannedArea } from '../area-checks.js';
import type { BatchCheck, KindRules } from './types.js';

/** nooverlap and within (domain/area-checks.ts), for every infrastructure area kind together. */
const checkAreaBatch: BatchCheck = (ex, tenant, _actor, planned) =>
  checkAreas(ex, tenant, planned.filter((p) => isInfrastructureAreaKind(p.record.kind)) as PlannedArea[]);

/** The rules shared by the infrastructure area kinds (contracts AREA_KINDS_INFRASTRUCTURE). */
export const areaRules: KindRules = {
  checkBatch: checkAreaBatch,
};
