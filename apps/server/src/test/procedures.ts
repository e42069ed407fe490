import type { ProcedureName } from '@railwatt/contracts';
import {
  defineProcedure,
  procedureTable,
  type ProcedureDeclaration,
  type ProcedureDefinition,
} from '../modules/processing/define-procedure.js';
import { ALL_PROCEDURES } from '../procedures.js';

/**
 * ALL_PROCEDURES with some replaced by a test's own work (the definition keeps its name, events and
 * followers unless the replacement says otherwise), or left out (null: a run of it finds no definition).
 */
export function withProcedures(
  replaced: Partial<Record<ProcedureName, Omit<ProcedureDeclaration, 'name'> | null>>,
): ProcedureDefinition[] {
  return ALL_PROCEDURES.flatMap((definition) => {
    if (!(definition.name in replaced)) return [definition];
    const replacement = replaced[definition.name];
    if (!replacement) return [];
    return [defineProcedure({ ...definition, concurrency: 1, ...replacement, name: definition.name })];
  });
}

/** The procedures the system runs after `name` (their `followers`), in the order the chain reaches them. */
export function chainFrom(name: ProcedureName): ProcedureName[] {
  const table = procedureTable(ALL_PROCEDURES);
  const reached: ProcedureName[] = [name];
  for (let i = 0; i < reached.length; i++)
    for (const next of table.get(reached[i]!)?.followers ?? []) if (!reached.includes(next)) reached.push(next);
  return reached;
}
