import { sql } from 'drizzle-orm';
import { TIME_SERIES_TYPES, type EntityKind, type TimeSeriesTypeName } from '@railwatt/contracts';
import { rows, type Executor } from '../domain/sql.js';

/**
 * Which entity a file's identifier names. A consumption point is named by its CPID, every other
 * kind by its name (case-insensitive), among the area's entities (row-level security keeps other
 * areas out). The store does not ask whether the entity is valid at the observation time: that is
 * cebd-preprocessing's "master data missing" (code 60), not a reason to refuse the file.
 */
export interface ResolvedEntity {
  uuid: string;
  kind: EntityKind;
}

/**
 * The kinds an identifier of a type may name, in order of preference. Metered energy from
 * UTILTS and sdv arrives as supply_energy; an identifier that names a fixed metering point is that
 * installation's energy (retypeFor).
 */
export function kindsFor(typeName: TimeSeriesTypeName): EntityKind[] {
  if (typeName === 'supply_energy') return ['supplymeteringpoint', 'fixedmeteringpoint'];
  return [TIME_SERIES_TYPES[typeName].refKind];
}

/** The type a series is stored as once its entity is known (fixed metering points: fixed_installation_energy). */
export function retypeFor(typeName: TimeSeriesTypeName, kind: EntityKind): TimeSeriesTypeName {
  return typeName === 'supply_energy' && kind === 'fixedmeteringpoint' ? 'fixed_installation_energy' : typeName;
}

const keyOf = (kind: EntityKind, identifier: string) =>
  kind === 'consumptionpoint' ? identifier : identifier.toLowerCase();

/**
 * Resolves identifiers of some kinds in one query. Answers a map from identifier (as given) to the
 * entity; an identifier matching several kinds takes the first kind of `kinds`.
 */
export async function resolveIdentifiers(
  ex: Executor,
  tenant: string,
  kinds: readonly EntityKind[],
  identifiers: readonly string[],
): Promise<Map<string, ResolvedEntity>> {
  const found = new Map<string, ResolvedEntity>();
  if (identifiers.length === 0) return found;
  const cpids = kinds.includes('consumptionpoint') ? [...identifiers] : [];
  const names = identifiers.map((i) => i.toLowerCase());
  const matched = await rows<{ entity_uuid: string; type: EntityKind; cpid: string | null; name: string }>(
    ex,
    sql`SELECT entity_uuid, type, attributes ->> 'cpid' AS cpid, name
          FROM entity_latest
         WHERE tenant = ${tenant}::uuid
           AND type = ANY(${sql.param([...kinds])}::text[])
           AND ((type = 'consumptionpoint' AND attributes ->> 'cpid' = ANY(${sql.param(cpids)}::text[]))
             OR (type <> 'consumptionpoint' AND lower(name) = ANY(${sql.param(names)}::text[])))`,
  );
  const byKey = new Map<string, ResolvedEntity>();
  for (const kind of [...kinds].reverse()) {
    for (const row of matched) {
      if (row.type !== kind) continue;
      const key = keyOf(kind, kind === 'consumptionpoint' ? (row.cpid ?? '') : row.name);
      byKey.set(`${kind}\u0000${key}`, { uuid: row.entity_uuid, kind });
    }
  }
  for (const identifier of identifiers) {
    for (const kind of kinds) {
      const hit = byKey.get(`${kind}\u0000${keyOf(kind, identifier)}`);
      if (hit) {
        found.set(identifier, hit);
        break;
      }
    }
  }
  return found;
}
