import type { ReadContext } from '../../context.js';
import {
  AREA_KINDS_INFRASTRUCTURE,
  AREA_PARENTS,
  ENTITY_KINDS,
  areaGeometrySchema,
  type AreaSummary,
  type InfrastructureAreaKind,
  type MinimalEntity,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import { latestSegments, listSegments, type TimeWindow } from '../domain/repository.js';
import { latestOf, listMinimal, toEntity } from '../domain/service.js';
import { rows } from '../domain/sql.js';

/** GET /domain/infrastructure/areatypes: the infrastructure area kinds (key and wire type name). */
export const areaTypes = (): { key: InfrastructureAreaKind; type: string }[] =>
  AREA_KINDS_INFRASTRUCTURE.map((key) => ({ key, type: ENTITY_KINDS[key] }));

interface TenantRow {
  uuid: string;
  name: string;
  timeZone: string;
  settlementPartner: boolean;
}

/**
 * Settlement areas are the tenants (settlement_area); the name is the lowercased, space-free key,
 * originalName as stored. Every area, not the request's: only the context's executor is used.
 */
export async function settlementAreaOptions(ctx: Pick<ReadContext, 'db'>) {
  const list = await rows<TenantRow>(
    ctx.db,
    sql`SELECT uuid, name, time_zone AS "timeZone", settlement_partner AS "settlementPartner"
        FROM settlement_area WHERE settlement_partner ORDER BY name`,
  );
  return list.map((a) => ({ ...a, originalName: a.name, name: a.name.toLowerCase().replace(/\s+/g, '') }));
}

/** GET /domain/settlementarea/id/{id}: the tenant and, when drawn, its settlement area geometry. */
export async function settlementAreaById(ctx: Pick<ReadContext, 'db'>, uuid: string) {
  const ex = ctx.db;
  const [area] = await rows<TenantRow>(
    ex,
    sql`SELECT uuid, name, time_zone AS "timeZone", settlement_partner AS "settlementPartner"
        FROM settlement_area WHERE uuid = ${uuid}::uuid`,
  );
  if (!area) throw ApiError.notFound();
  const drawn = await listSegments(ex, uuid, ['settlementarea'], {
    window: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
    includeInactive: true,
  });
  const geometry = drawn.length ? areaGeometrySchema.safeParse(latestOf(drawn)!.attributes.geometry) : undefined;
  return {
    ...area,
    originalName: area.name,
    name: area.name.toLowerCase().replace(/\s+/g, ''),
    geometry: geometry?.success ? geometry.data : null,
  };
}

/** GET /domain/infrastructure/options/eusa: energy use settlement areas as options. */
export const energyUseSettlementAreaOptions = (ctx: ReadContext, window: TimeWindow): Promise<MinimalEntity[]> =>
  listMinimal(ctx, 'energyusesettlementarea', { window, includeInactive: false });

/**
 * GET /domain/fleet/areas: areas of the chosen kinds (default: settlement area only, product.md §4
 * "Area overview defaults") with their geometry for the map; the toggles pick active and/or inactive.
 */
export async function listAreas(
  ctx: ReadContext,
  params: { areaTypes?: readonly string[]; includeActive: boolean; includeInactive: boolean; window: TimeWindow },
): Promise<AreaSummary[]> {
  const kinds = (params.areaTypes?.length ? params.areaTypes : ['settlementarea'])
    .map((t) =>
      t
        .split('.')
        .pop()!
        .toLowerCase()
        .replace(/[\s_-]/g, ''),
    )
    .filter((t): t is InfrastructureAreaKind => (AREA_KINDS_INFRASTRUCTURE as readonly string[]).includes(t));
  if (kinds.length === 0) return [];
  const segments = await listSegments(ctx.db, ctx.tenant.uuid, kinds, { window: params.window, includeInactive: true });
  const groups = new Map<string, typeof segments>();
  for (const s of segments) groups.set(s.entityUuid, [...(groups.get(s.entityUuid) ?? []), s]);
  const out: AreaSummary[] = [];
  for (const group of groups.values()) {
    const s = latestOf(group, params.window)!;
    if (s.active ? !params.includeActive : !params.includeInactive) continue;
    const kind = s.type as InfrastructureAreaKind;
    const geometry = areaGeometrySchema.safeParse(s.attributes.geometry);
    const parentField = AREA_PARENTS[kind]?.field;
    const parent = parentField ? s.attributes[parentField] : undefined;
    out.push({
      uuid: s.entityUuid,
      name: s.name,
      type: toEntity(kind, group, s).type,
      active: s.active,
      state: s.state,
      geometry: geometry.success ? geometry.data : null,
      parentRef: typeof parent === 'string' ? parent : null,
      validFrom: group.reduce((min, g) => (g.start < min ? g.start : min), s.start),
      validTo: group.reduce((max, g) => (g.end > max ? g.end : max), s.end),
    });
  }
  return out.sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
}

/** GET /domain/organisations/areas/minimal: the infrastructure areas organisations relate to (EUSA, grid, price). */
export async function organisationAreasMinimal(ctx: ReadContext, window: TimeWindow): Promise<MinimalEntity[]> {
  const { db: ex } = ctx;
  const tenant = ctx.tenant.uuid;
  const segments = await listSegments(ex, tenant, ['energyusesettlementarea', 'gridarea', 'pricearea'], {
    window,
    includeInactive: false,
  });
  const latest = await latestSegments(ex, tenant, [...new Set(segments.map((s) => s.entityUuid))]);
  return latest
    .map((s) => ({
      uuid: s.entityUuid,
      name: s.name,
      type: ENTITY_KINDS[s.type as InfrastructureAreaKind],
      active: s.active,
      state: s.state as MinimalEntity['state'],
      timeRange: { start: s.start, end: s.end },
    }))
    .sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
}
