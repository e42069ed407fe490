import {
  AREA_PARENTS,
  areaGeometrySchema,
  ERROR_CODES,
  isInfrastructureAreaKind,
  type AreaGeometry,
  type EntityKind,
} from '@railwatt/contracts';
import { areasWithGeometry, latestSegments } from './repository.js';
import { overlaps } from './segments.js';
import type { Executor } from './sql.js';
import type { RecordError, ValidRecord } from './validation.js';
import { areasOverlap, areaWithin } from './geometry.js';

export interface PlannedArea {
  record: ValidRecord;
  uuid: string;
  range: { start: string; end: string };
}

const geometryOf = (attributes: Record<string, unknown>): AreaGeometry | undefined => {
  const parsed = areaGeometrySchema.safeParse(attributes.geometry);
  return parsed.success ? parsed.data : undefined;
};

/**
 * `nooverlap`: areas of one kind in a tenant must not overlap while both are valid (and two areas
 * must differ); `within`: a child lies within its parent (AREA_PARENTS: a grid area within its
 * energy use settlement area). Checked against
 * the stored current segments of other entities and against the other records of the same batch.
 */
export async function checkAreas(
  ex: Executor,
  tenant: string,
  planned: readonly PlannedArea[],
): Promise<RecordError[]> {
  const errors: RecordError[] = [];
  const withGeometry = planned
    .map((p) => ({ ...p, geometry: geometryOf(p.record.attributes) }))
    .filter((p): p is PlannedArea & { geometry: AreaGeometry } => p.geometry !== undefined);
  const kinds = [...new Set(withGeometry.map((p) => p.record.kind))];
  const stored = new Map<EntityKind, Awaited<ReturnType<typeof areasWithGeometry>>>();
  for (const kind of kinds) stored.set(kind, await areasWithGeometry(ex, tenant, kind));

  for (const [i, p] of withGeometry.entries()) {
    const others = [
      ...(stored.get(p.record.kind) ?? [])
        .filter((s) => s.entityUuid !== p.uuid && overlaps(s, p.range))
        .map((s) => ({ name: s.name, geometry: geometryOf(s.attributes) })),
      ...withGeometry
        .filter((q, j) => j !== i && q.record.kind === p.record.kind && q.uuid !== p.uuid && overlaps(q.range, p.range))
        .map((q) => ({ name: q.record.name, geometry: q.geometry as AreaGeometry | undefined })),
    ];
    const clash = others.find((o) => o.geometry && areasOverlap(p.geometry, o.geometry));
    if (clash) {
      errors.push({
        index: p.record.index,
        uuid: p.uuid,
        field: 'geometry',
        code: 'nooverlap',
        message: `${ERROR_CODES.nooverlap}: ${p.record.name} and ${clash.name}`,
      });
    }
  }

  // within: a child area and its parent (AREA_PARENTS: a grid area in its energy use settlement
  // area), the parent taken from the batch or the store.
  const parentRefOf = (p: (typeof withGeometry)[number]): string | undefined => {
    const kind = p.record.kind;
    const parent = isInfrastructureAreaKind(kind) ? AREA_PARENTS[kind] : undefined;
    const ref = parent ? p.record.attributes[parent.field] : undefined;
    return typeof ref === 'string' ? ref : undefined;
  };
  const children = withGeometry.filter((p) => parentRefOf(p) !== undefined);
  const parentUuids = [...new Set(children.map((p) => parentRefOf(p)!))];
  const storedParents = new Map((await latestSegments(ex, tenant, parentUuids)).map((s) => [s.entityUuid, s]));
  for (const p of children) {
    const parentUuid = parentRefOf(p)!;
    const inBatch = withGeometry.find((q) => q.uuid === parentUuid);
    const parentGeometry =
      inBatch?.geometry ?? (storedParents.get(parentUuid) && geometryOf(storedParents.get(parentUuid)!.attributes));
    if (parentGeometry && !areaWithin(p.geometry, parentGeometry)) {
      errors.push({
        index: p.record.index,
        uuid: p.uuid,
        field: 'geometry',
        code: 'within',
        message: ERROR_CODES.within,
      });
    }
  }
  return errors;
}
