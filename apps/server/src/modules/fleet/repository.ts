import { DEFAULT_TIME_RANGE, type FleetEntry, type FleetFilter } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { TimeWindow } from '../domain/repository.js';
import { rows, type Executor } from '../domain/sql.js';

const like = (value: string): string => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Sort keys of the fleet overview over the unit `tu` and the joins the key needs. */
const SORT: Record<FleetFilter['sortBy'], string> = {
  evn: 'tu.evn',
  vkm: 'fc.vkm',
  nvr: 'fc.nvr',
  description: "lower(tu.attributes ->> 'description')",
  tractionUnitName: 'lower(tu.name)',
  type: 'lower(typ.name)',
  responsible: 'lower(org.name)',
  informationChangeDate: 'tu.last_modified',
  status: 'tu.state',
  createdBy: 'e.created_by',
  validFrom: 'lower(tu.valid)',
  validTo: 'upper(tu.valid)',
};

export interface FleetQuery {
  filter: FleetFilter;
  window: TimeWindow;
  /** Only units owned by these organisations ("own" search modes); undefined = all. */
  ownerScope?: readonly string[];
  /** Only these traction units (the rows selected for an export); undefined = all. */
  uuids?: readonly string[];
  page: number;
  size: number;
}

export type FleetRow = Omit<FleetEntry, 'writable' | 'vkm' | 'nvr' | 'emsId' | 'emsType' | 'consumptionPoints'> & {
  total: number;
  consumptionPoints: (FleetEntry['consumptionPoints'][number] & { vkm: string | null; nvr: string | null })[];
};

/**
 * The fleet overview (the hot query; bench/fleet.ts measures it). Over the default time range the
 * latest segment of every unit is the row entity_latest keeps (kept by triggers), so the statement
 * reads one narrow row per unit: filters and the sort key only, sort, count and page; names,
 * consumption points and creators are looked up for the rows of the page alone. Another time range
 * picks the latest segment inside it from entity_segment (DISTINCT ON over the partial index).
 * Joins compare typed uuids (owner_uuid, type_uuid, unit_uuid): under row-level security only
 * leakproof join clauses may drive an index lookup, and a text -> uuid cast is not (migration 0070).
 */
export async function fleetPage(
  ex: Executor,
  tenant: string,
  q: FleetQuery,
): Promise<{ rows: FleetRow[]; total: number }> {
  const f = q.filter;
  const conditions: SQL[] = [];
  if (f.evn) conditions.push(sql`AND tu.evn LIKE ${like(f.evn.replace(/[\s-]/g, ''))}`);
  if (f.description) conditions.push(sql`AND lower(tu.attributes ->> 'description') LIKE ${like(f.description)}`);
  if (f.tractionUnitName) conditions.push(sql`AND lower(tu.name) LIKE ${like(f.tractionUnitName)}`);
  if (f.owners?.length) conditions.push(sql`AND tu.owner_ref = ANY(${sql.param(f.owners)}::text[])`);
  if (q.ownerScope) conditions.push(sql`AND tu.owner_ref = ANY(${sql.param([...q.ownerScope])}::text[])`);
  if (q.uuids) conditions.push(sql`AND tu.entity_uuid = ANY(${sql.param([...q.uuids])}::uuid[])`);
  if (f.tractionUnitTypes?.length)
    conditions.push(sql`AND tu.type_ref = ANY(${sql.param(f.tractionUnitTypes)}::text[])`);
  if (f.statuses?.length) conditions.push(sql`AND tu.state = ANY(${sql.param(f.statuses)}::text[])`);
  if (!f.includeInactive) conditions.push(sql`AND tu.active`);
  const cpConditions: SQL[] = [];
  if (f.vkm) cpConditions.push(sql`AND lower(c.vkm) LIKE ${like(f.vkm)}`);
  if (f.nvr) cpConditions.push(sql`AND lower(c.nvr) LIKE ${like(f.nvr)}`);
  if (f.emsId) cpConditions.push(sql`AND lower(c.ems_id) LIKE ${like(f.emsId)}`);
  if (f.emsType) cpConditions.push(sql`AND lower(c.attributes ->> 'emsType') LIKE ${like(f.emsType)}`);
  if (cpConditions.length) {
    conditions.push(sql`AND tu.entity_uuid IN (
      SELECT c.unit_uuid FROM entity_latest c
      WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' ${sql.join(cpConditions, sql` `)})`);
  }

  // Joins only the sort key needs. VKM and NVR of a unit are those of its first consumption point.
  const sortJoins: Record<string, SQL> = {
    type: sql`LEFT JOIN entity_latest typ ON typ.entity_uuid = tu.type_uuid`,
    responsible: sql`LEFT JOIN entity_latest org ON org.entity_uuid = tu.owner_uuid`,
    createdBy: sql`JOIN entity e ON e.uuid = tu.entity_uuid`,
    vkm: sql`LEFT JOIN (SELECT DISTINCT ON (c.unit_uuid) c.unit_uuid, c.vkm, c.nvr
                        FROM entity_latest c WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint'
                        ORDER BY c.unit_uuid, c.name) fc ON fc.unit_uuid = tu.entity_uuid`,
  };
  sortJoins.nvr = sortJoins.vkm!;
  const direction = f.descendingOrder ? 'DESC' : 'ASC';
  const sortKey = sql.raw(SORT[f.sortBy]);

  const everything =
    Date.parse(q.window.start) <= Date.parse(DEFAULT_TIME_RANGE.start) &&
    Date.parse(q.window.end) >= Date.parse(DEFAULT_TIME_RANGE.end);
  const units = everything
    ? sql`(SELECT l.entity_uuid, l.name, l.state, l.active, l.last_modified, l.valid, l.evn, l.owner_ref, l.type_ref,
                  l.owner_uuid, l.type_uuid, l.attributes, l.segment_count
           FROM entity_latest l WHERE l.tenant = ${tenant}::uuid AND l.type = 'tractionunit')`
    : sql`(SELECT DISTINCT ON (s.entity_uuid) s.entity_uuid, s.name, s.state, s.active, s.last_modified, s.valid,
                  s.attributes ->> 'evn' AS evn, s.attributes ->> 'owner' AS owner_ref,
                  s.attributes ->> 'tractionUnitTypeRef' AS type_ref, rw_uuid(s.attributes ->> 'owner') AS owner_uuid,
                  rw_uuid(s.attributes ->> 'tractionUnitTypeRef') AS type_uuid, s.attributes, NULL::int AS segment_count
           FROM entity_segment s
           WHERE s.tenant = ${tenant}::uuid AND s.type = 'tractionunit' AND s.superseded_at IS NULL
             AND s.valid && tstzrange(${q.window.start}::timestamptz, ${q.window.end}::timestamptz, '[)')
           ORDER BY s.entity_uuid, upper(s.valid) DESC)`;

  const result = await rows<FleetRow>(
    ex,
    sql`
    WITH f AS (
      SELECT tu.entity_uuid, tu.evn, ${sortKey} AS sort_key
      FROM ${units} tu ${sortJoins[f.sortBy] ?? sql``}
      WHERE true ${sql.join(conditions, sql` `)}
    ), page AS (
      SELECT x.entity_uuid, row_number() OVER () AS position
      FROM (SELECT entity_uuid FROM f ORDER BY sort_key ${sql.raw(direction)} NULLS LAST, evn, entity_uuid
            LIMIT ${q.size} OFFSET ${q.page * q.size}) x
    )
    SELECT tu.entity_uuid AS uuid, tu.evn, tu.attributes ->> 'description' AS description, tu.name AS "tractionUnitName",
           typ.name AS type, tu.type_ref AS "typeRef", org.name AS responsible, tu.owner_ref AS "ownerRef",
           rw_iso(tu.last_modified) AS "informationChangeDate", tu.state AS status, tu.active, e.created_by AS "createdBy",
           rw_iso(lower(tu.valid)) AS "validFrom", rw_iso(upper(tu.valid)) AS "validTo",
           coalesce(tu.segment_count, (SELECT count(*)::int FROM entity_segment x
                                       WHERE x.entity_uuid = tu.entity_uuid AND x.superseded_at IS NULL)) AS "segmentCount",
           (SELECT count(*)::int FROM f) AS total,
           coalesce(cps.list, '[]'::jsonb) AS "consumptionPoints"
    FROM page p
    JOIN ${units} tu ON tu.entity_uuid = p.entity_uuid
    JOIN entity e ON e.uuid = p.entity_uuid
    LEFT JOIN entity_latest typ ON typ.entity_uuid = tu.type_uuid
    LEFT JOIN entity_latest org ON org.entity_uuid = tu.owner_uuid
    LEFT JOIN LATERAL (
      SELECT jsonb_agg(jsonb_build_object('uuid', c.entity_uuid, 'name', c.name, 'cpid', c.attributes ->> 'cpid',
                        'emsId', c.attributes ->> 'emsId', 'emsType', c.attributes ->> 'emsType',
                        'channels', (c.attributes ->> 'channels')::int, 'vkm', c.attributes ->> 'vkm',
                        'nvr', c.attributes ->> 'nvr') ORDER BY c.name) AS list
      FROM entity_latest c
      WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.unit_uuid = p.entity_uuid
    ) cps ON true
    ORDER BY p.position`,
  );
  if (result.length === 0 && q.page > 0) {
    // Past the last page: still answer the total so the pager can recover.
    const first = await fleetPage(ex, tenant, { ...q, page: 0, size: 1 });
    return { rows: [], total: first.total };
  }
  return { rows: result, total: result[0]?.total ?? 0 };
}

export interface UnitWithPoints {
  uuid: string;
  name: string;
  evn: string;
  owner: string | null;
  typeRef: string | null;
  consumptionPoints: { uuid: string; name: string; cpid: string }[];
}

/**
 * Traction units valid in the window with their consumption points (latest segments), optionally
 * limited to owners and types. Backs the exchange pickers.
 */
export async function unitsWithPoints(
  ex: Executor,
  tenant: string,
  window: TimeWindow,
  filter: { owners?: readonly string[]; types?: readonly string[] },
): Promise<UnitWithPoints[]> {
  const owners = filter.owners?.length
    ? sql`AND s.attributes ->> 'owner' = ANY(${sql.param([...filter.owners])}::text[])`
    : sql``;
  const types = filter.types?.length
    ? sql`AND s.attributes ->> 'tractionUnitTypeRef' = ANY(${sql.param([...filter.types])}::text[])`
    : sql``;
  return rows<UnitWithPoints>(
    ex,
    sql`WITH tu AS (
          SELECT DISTINCT ON (s.entity_uuid) s.entity_uuid, s.name, s.attributes FROM entity_segment s
          WHERE s.tenant = ${tenant}::uuid AND s.type = 'tractionunit' AND s.superseded_at IS NULL AND s.active
            AND s.valid && tstzrange(${window.start}::timestamptz, ${window.end}::timestamptz, '[)') ${owners} ${types}
          ORDER BY s.entity_uuid, upper(s.valid) DESC
        ), cp AS (
          SELECT DISTINCT ON (c.entity_uuid) c.entity_uuid, c.name, c.attributes FROM entity_segment c
          WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.superseded_at IS NULL
          ORDER BY c.entity_uuid, upper(c.valid) DESC
        )
        SELECT tu.entity_uuid AS uuid, tu.name, tu.attributes ->> 'evn' AS evn, tu.attributes ->> 'owner' AS owner,
               tu.attributes ->> 'tractionUnitTypeRef' AS "typeRef",
               coalesce(jsonb_agg(jsonb_build_object('uuid', cp.entity_uuid, 'name', cp.name, 'cpid', cp.attributes ->> 'cpid')
                        ORDER BY cp.name) FILTER (WHERE cp.entity_uuid IS NOT NULL), '[]'::jsonb) AS "consumptionPoints"
        FROM tu LEFT JOIN cp ON cp.attributes ->> 'tractionUnitRef' = tu.entity_uuid::text
        GROUP BY tu.entity_uuid, tu.name, tu.attributes
        ORDER BY tu.name`,
  );
}

/** Identifiers (CPID, consumption point name or uuid, EVN or traction unit uuid) -> CPIDs. */
export async function resolveCpids(
  ex: Executor,
  tenant: string,
  identifiers: readonly string[],
): Promise<{ identifier: string; cpid: string; consumptionPointUuid: string; tractionUnitUuid: string | null }[]> {
  if (identifiers.length === 0) return [];
  return rows(
    ex,
    sql`WITH cp AS (
          SELECT DISTINCT ON (c.entity_uuid) c.entity_uuid, c.name, c.attributes FROM entity_segment c
          WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.superseded_at IS NULL
          ORDER BY c.entity_uuid, upper(c.valid) DESC
        )
        SELECT DISTINCT i.id AS identifier, cp.attributes ->> 'cpid' AS cpid, cp.entity_uuid AS "consumptionPointUuid",
               (cp.attributes ->> 'tractionUnitRef')::uuid AS "tractionUnitUuid"
        FROM unnest(${sql.param([...identifiers])}::text[]) AS i(id)
        JOIN cp ON i.id IN (cp.attributes ->> 'cpid', cp.name, cp.entity_uuid::text, cp.attributes ->> 'evn',
                            cp.attributes ->> 'tractionUnitRef')
        ORDER BY 1, 2`,
  );
}
