import { sql, type SQL } from 'drizzle-orm';
import type { WorkingSegment } from './segments.js';
import { rows, type Executor } from './sql.js';

/** A stored segment as repositories return it; instants are ISO 8601 UTC text (rw_iso). */
export interface SegmentRow {
  id: number;
  entityUuid: string;
  type: string;
  start: string;
  end: string;
  name: string;
  active: boolean;
  state: string;
  comments: string | null;
  attributes: Record<string, unknown>;
  lastModified: string;
  lastModifiedBy: string;
  supersededAt: string | null;
  createdBy: string;
}

export interface TimeWindow {
  start: string;
  end: string;
}

const SEGMENT_COLUMNS = sql.raw(`s.id::float8 AS id, s.entity_uuid AS "entityUuid", s.type,
  rw_iso(lower(s.valid)) AS start, rw_iso(upper(s.valid)) AS "end", s.name, s.active, s.state, s.comments,
  s.attributes, rw_iso(s.last_modified) AS "lastModified", s.last_modified_by AS "lastModifiedBy",
  rw_iso(s.superseded_at) AS "supersededAt", e.created_by AS "createdBy"`);

const window = (w: TimeWindow): SQL => sql`tstzrange(${w.start}::timestamptz, ${w.end}::timestamptz, '[)')`;

export interface StoredEntity {
  uuid: string;
  type: string;
  createdBy: string;
  segments: SegmentRow[];
}

/** Entities of this tenant with their current segments (every kind); missing uuids are absent. */
export async function loadCurrent(
  ex: Executor,
  tenant: string,
  uuids: readonly string[],
): Promise<Map<string, StoredEntity>> {
  const out = new Map<string, StoredEntity>();
  if (uuids.length === 0) return out;
  const entities = await rows<{ uuid: string; type: string; createdBy: string }>(
    ex,
    sql`SELECT uuid, type, created_by AS "createdBy" FROM entity
        WHERE tenant = ${tenant}::uuid AND uuid = ANY(${sql.param([...uuids])}::uuid[])`,
  );
  for (const e of entities) out.set(e.uuid, { ...e, segments: [] });
  if (entities.length === 0) return out;
  const segs = await rows<SegmentRow>(
    ex,
    sql`SELECT ${SEGMENT_COLUMNS} FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
        WHERE s.tenant = ${tenant}::uuid AND s.entity_uuid = ANY(${sql.param(entities.map((e) => e.uuid))}::uuid[])
          AND s.superseded_at IS NULL
        ORDER BY s.entity_uuid, lower(s.valid)`,
  );
  for (const s of segs) out.get(s.entityUuid)?.segments.push({ ...s, id: Number(s.id) });
  return out;
}

/**
 * uuids that exist in another tenant (a save must not take them over). Row-level security hides
 * other areas, so the SECURITY DEFINER function rw_entities_elsewhere (migration 0070) answers.
 */
export async function uuidsElsewhere(ex: Executor, tenant: string, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const found = await rows<{ uuid: string }>(
    ex,
    sql`SELECT u AS uuid FROM rw_entities_elsewhere(${tenant}::uuid, ${sql.param([...uuids])}::uuid[]) AS u`,
  );
  return found.map((r) => r.uuid);
}

/** Kind of each of these entities of the tenant (one statement for a whole save batch). */
export async function kindsOf(ex: Executor, tenant: string, uuids: readonly string[]): Promise<Map<string, string>> {
  if (uuids.length === 0) return new Map();
  const found = await rows<{ uuid: string; type: string }>(
    ex,
    sql`SELECT uuid::text AS uuid, type FROM entity
        WHERE tenant = ${tenant}::uuid AND uuid = ANY(${sql.param([...uuids])}::uuid[])`,
  );
  return new Map(found.map((r) => [r.uuid, r.type]));
}

export async function insertEntities(
  ex: Executor,
  tenant: string,
  entities: readonly { uuid: string; type: string; createdBy: string }[],
): Promise<void> {
  if (entities.length === 0) return;
  await ex.execute(sql`
    INSERT INTO entity (uuid, tenant, type, created_by)
    SELECT u, ${tenant}::uuid, t, c
    FROM unnest(${sql.param(entities.map((e) => e.uuid))}::uuid[], ${sql.param(entities.map((e) => e.type))}::text[],
                ${sql.param(entities.map((e) => e.createdBy))}::text[]) AS x(u, t, c)
    ON CONFLICT (uuid) DO NOTHING`);
}

export async function supersede(ex: Executor, tenant: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await ex.execute(sql`UPDATE entity_segment SET superseded_at = clock_timestamp()
    WHERE tenant = ${tenant}::uuid AND id = ANY(${sql.param([...ids])}::bigint[]) AND superseded_at IS NULL`);
}

export interface SegmentInsert extends WorkingSegment {
  entityUuid: string;
  type: string;
}

/** One INSERT for any number of segments (unnest of column arrays). */
export async function insertSegments(
  ex: Executor,
  tenant: string,
  actor: string,
  segments: readonly SegmentInsert[],
): Promise<void> {
  if (segments.length === 0) return;
  const col = <T>(f: (s: SegmentInsert) => T) => sql.param(segments.map(f));
  await ex.execute(sql`
    INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, active, state, comments, attributes,
                                last_modified, last_modified_by)
    SELECT u, ${tenant}::uuid, t, tstzrange(vs, ve, '[)'), n, a, st, c, at, coalesce(lm, now()), coalesce(lmb, ${actor})
    FROM unnest(${col((s) => s.entityUuid)}::uuid[], ${col((s) => s.type)}::text[],
                ${col((s) => s.start)}::timestamptz[], ${col((s) => s.end)}::timestamptz[],
                ${col((s) => s.name)}::text[], ${col((s) => s.active)}::boolean[], ${col((s) => s.state)}::text[],
                ${col((s) => s.comments)}::text[], ${col((s) => JSON.stringify(s.attributes))}::jsonb[],
                ${col((s) => s.lastModified)}::timestamptz[], ${col((s) => s.lastModifiedBy)}::text[])
         AS x(u, t, vs, ve, n, a, st, c, at, lm, lmb)`);
}

export interface ListOptions {
  window: TimeWindow;
  includeInactive: boolean;
}

/**
 * Current segments of every entity of a kind that has a segment in the window (and, unless
 * includeInactive, an active one there). Grouping and merging happen in the service.
 */
export async function listSegments(
  ex: Executor,
  tenant: string,
  types: readonly string[],
  options: ListOptions,
  extra: SQL = sql``,
): Promise<SegmentRow[]> {
  const activeFilter = options.includeInactive ? sql`` : sql`AND m.active`;
  return rows<SegmentRow>(
    ex,
    sql`SELECT ${SEGMENT_COLUMNS} FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
        WHERE s.tenant = ${tenant}::uuid AND s.superseded_at IS NULL
          AND s.entity_uuid IN (
            SELECT m.entity_uuid FROM entity_segment m
            WHERE m.tenant = ${tenant}::uuid AND m.type = ANY(${sql.param([...types])}::text[])
              AND m.superseded_at IS NULL AND m.valid && ${window(options.window)} ${activeFilter} ${extra})
        ORDER BY s.entity_uuid, lower(s.valid)`,
  );
}

/** Every segment of one entity, current and superseded (GET versions). */
export async function allSegments(ex: Executor, tenant: string, type: string, uuid: string): Promise<SegmentRow[]> {
  return rows<SegmentRow>(
    ex,
    sql`SELECT ${SEGMENT_COLUMNS} FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
        WHERE s.tenant = ${tenant}::uuid AND s.type = ${type} AND s.entity_uuid = ${uuid}::uuid
        ORDER BY s.superseded_at NULLS FIRST, lower(s.valid), s.id`,
  );
}

/** Latest current segment of each of the given entities (any kind). */
export async function latestSegments(ex: Executor, tenant: string, uuids: readonly string[]): Promise<SegmentRow[]> {
  if (uuids.length === 0) return [];
  return rows<SegmentRow>(
    ex,
    sql`SELECT DISTINCT ON (s.entity_uuid) ${SEGMENT_COLUMNS}
        FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
        WHERE s.tenant = ${tenant}::uuid AND s.entity_uuid = ANY(${sql.param([...uuids])}::uuid[])
          AND s.superseded_at IS NULL
        ORDER BY s.entity_uuid, upper(s.valid) DESC`,
  );
}

/** Case-insensitive contains on the name; exact before prefix before contains (product.md §5). */
export async function likeSegments(
  ex: Executor,
  tenant: string,
  type: string,
  search: string,
  max: number,
): Promise<SegmentRow[]> {
  const needle = search.toLowerCase();
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rows<SegmentRow>(
    ex,
    sql`SELECT * FROM (
          SELECT DISTINCT ON (s.entity_uuid) ${SEGMENT_COLUMNS}
          FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
          WHERE s.tenant = ${tenant}::uuid AND s.type = ${type} AND s.superseded_at IS NULL
            AND lower(s.name) LIKE ${pattern}
          ORDER BY s.entity_uuid, upper(s.valid) DESC) x
        ORDER BY (lower(x.name) = ${needle}) DESC, (lower(x.name) LIKE ${`${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) DESC,
                 lower(x.name)
        LIMIT ${max}`,
  );
}

/** Current segments that hold `value` in a unique property for an entity other than `uuid`. */
export async function findHolders(
  ex: Executor,
  tenant: string,
  type: string,
  property: string,
  values: readonly string[],
): Promise<{ entityUuid: string; value: string }[]> {
  if (values.length === 0) return [];
  const expr = property === 'name' ? sql`lower(s.name)` : sql`(s.attributes ->> ${property})`;
  const wanted = property === 'name' ? values.map((v) => v.toLowerCase()) : [...values];
  return rows<{ entityUuid: string; value: string }>(
    ex,
    sql`SELECT DISTINCT s.entity_uuid AS "entityUuid", ${expr} AS value FROM entity_segment s
        WHERE s.tenant = ${tenant}::uuid AND s.type = ${type} AND s.superseded_at IS NULL
          AND ${expr} = ANY(${sql.param(wanted)}::text[])`,
  );
}

/**
 * Current segments of other entities of a kind whose validity overlaps a window and that carry a
 * geometry (for the nooverlap check).
 */
export async function areasWithGeometry(ex: Executor, tenant: string, type: string): Promise<SegmentRow[]> {
  return rows<SegmentRow>(
    ex,
    sql`SELECT ${SEGMENT_COLUMNS} FROM entity_segment s JOIN entity e ON e.uuid = s.entity_uuid
        WHERE s.tenant = ${tenant}::uuid AND s.type = ${type} AND s.superseded_at IS NULL
          AND s.attributes ? 'geometry' AND jsonb_typeof(s.attributes -> 'geometry') = 'object'`,
  );
}
