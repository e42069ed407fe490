import type { FleetEntry, FleetFilter } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { TimeWindow } from '../domain/repository.js';
import { rows, type Executor } from '../domain/sql.js';

const like = (value: string): string => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Sort keys of the fleet overview; each maps to a column of the filtered set `f`. */
const SORT: Record<FleetFilter['sortBy'], SQL> = {
  evn: sql`f.attributes ->> 'evn'`,
  vkm: sql`f.first_vkm`,
  nvr: sql`f.first_nvr`,
  description: sql`lower(f.attributes ->> 'description')`,
  tractionUnitName: sql`lower(f.name)`,
  type: sql`lower(f.type_name)`,
  responsible: sql`lower(f.owner_name)`,
  informationChangeDate: sql`f.last_modified`,
  status: sql`f.state`,
  createdBy: sql`f.created_by`,
  validFrom: sql`lower(f.valid)`,
  validTo: sql`upper(f.valid)`,
};

export interface FleetQuery {
  filter: FleetFilter;
  window: TimeWindow;
  /** Only units owned by these organisations ("own" search modes); undefined = all. */
  ownerScope?: readonly string[];
  page: number;
  size: number;
}

type FleetRow = Omit<FleetEntry, 'writable'> & { total: number };

/**
 * The fleet overview (the hot query; bench/fleet.ts measures it). One statement: the latest segment
 * of every traction unit in the window (DISTINCT ON over the partial index of current segments),
 * type and owner names by hash join, filters, sort, count and page; consumption points only for
 * the rows of the page (index on tractionUnitRef).
 */
export async function fleetPage(ex: Executor, tenant: string, q: FleetQuery): Promise<{ rows: FleetRow[]; total: number }> {
  const f = q.filter;
  const conditions: SQL[] = [];
  if (f.evn) conditions.push(sql`AND tu.attributes ->> 'evn' LIKE ${like(f.evn.replace(/[\s-]/g, ''))}`);
  if (f.description) conditions.push(sql`AND lower(tu.attributes ->> 'description') LIKE ${like(f.description)}`);
  if (f.tractionUnitName) conditions.push(sql`AND lower(tu.name) LIKE ${like(f.tractionUnitName)}`);
  if (f.owners?.length) conditions.push(sql`AND tu.attributes ->> 'owner' = ANY(${sql.param(f.owners)}::text[])`);
  if (q.ownerScope) conditions.push(sql`AND tu.attributes ->> 'owner' = ANY(${sql.param([...q.ownerScope])}::text[])`);
  if (f.tractionUnitTypes?.length) {
    conditions.push(sql`AND tu.attributes ->> 'tractionUnitTypeRef' = ANY(${sql.param(f.tractionUnitTypes)}::text[])`);
  }
  if (f.statuses?.length) conditions.push(sql`AND tu.state = ANY(${sql.param(f.statuses)}::text[])`);
  if (!f.includeInactive) conditions.push(sql`AND tu.active`);
  const cpConditions: SQL[] = [];
  if (f.vkm) cpConditions.push(sql`AND lower(c.attributes ->> 'vkm') LIKE ${like(f.vkm)}`);
  if (f.nvr) cpConditions.push(sql`AND lower(c.attributes ->> 'nvr') LIKE ${like(f.nvr)}`);
  if (f.emsId) cpConditions.push(sql`AND lower(c.attributes ->> 'emsId') LIKE ${like(f.emsId)}`);
  if (f.emsType) cpConditions.push(sql`AND lower(c.attributes ->> 'emsType') LIKE ${like(f.emsType)}`);
  if (cpConditions.length) {
    conditions.push(sql`AND tu.entity_uuid::text IN (
      SELECT c.attributes ->> 'tractionUnitRef' FROM entity_segment c
      WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.superseded_at IS NULL ${sql.join(cpConditions, sql` `)})`);
  }
  // VKM and NVR of a unit are those of its first consumption point; only sorting by them needs all.
  const needFirstCp = f.sortBy === 'vkm' || f.sortBy === 'nvr';
  const firstCp = needFirstCp
    ? sql`LEFT JOIN (SELECT DISTINCT ON (c.attributes ->> 'tractionUnitRef') c.attributes ->> 'tractionUnitRef' AS tu,
                            c.attributes ->> 'vkm' AS vkm, c.attributes ->> 'nvr' AS nvr
                     FROM entity_segment c
                     WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.superseded_at IS NULL
                     ORDER BY c.attributes ->> 'tractionUnitRef', c.name) fc ON fc.tu = tu.entity_uuid::text`
    : sql``;
  const direction = f.descendingOrder ? sql`DESC` : sql`ASC`;

  const result = await rows<FleetRow & { first_vkm?: unknown }>(
    ex,
    sql`
    WITH names AS (
      SELECT DISTINCT ON (n.entity_uuid) n.entity_uuid, n.name FROM entity_segment n
      WHERE n.tenant = ${tenant}::uuid AND n.type IN ('tractionunittype', 'organisation') AND n.superseded_at IS NULL
      ORDER BY n.entity_uuid, upper(n.valid) DESC
    ), tu AS (
      SELECT DISTINCT ON (s.entity_uuid) s.entity_uuid, s.name, s.state, s.active, s.attributes, s.last_modified, s.valid,
             count(*) OVER (PARTITION BY s.entity_uuid) AS segment_count
      FROM entity_segment s
      WHERE s.tenant = ${tenant}::uuid AND s.type = 'tractionunit' AND s.superseded_at IS NULL
        AND s.valid && tstzrange(${q.window.start}::timestamptz, ${q.window.end}::timestamptz, '[)')
      ORDER BY s.entity_uuid, upper(s.valid) DESC
    ), f AS (
      SELECT tu.*, typ.name AS type_name, org.name AS owner_name, e.created_by,
             ${needFirstCp ? sql`fc.vkm` : sql`NULL::text`} AS first_vkm, ${needFirstCp ? sql`fc.nvr` : sql`NULL::text`} AS first_nvr
      FROM tu
      JOIN entity e ON e.uuid = tu.entity_uuid
      LEFT JOIN names typ ON typ.entity_uuid::text = tu.attributes ->> 'tractionUnitTypeRef'
      LEFT JOIN names org ON org.entity_uuid::text = tu.attributes ->> 'owner'
      ${firstCp}
      WHERE true ${sql.join(conditions, sql` `)}
    ), page AS (
      SELECT f.*, count(*) OVER () AS total FROM f
      ORDER BY ${SORT[f.sortBy]} ${direction} NULLS LAST, f.attributes ->> 'evn', f.entity_uuid
      LIMIT ${q.size} OFFSET ${q.page * q.size}
    )
    SELECT p.entity_uuid AS uuid, p.attributes ->> 'evn' AS evn, p.attributes ->> 'description' AS description,
           p.name AS "tractionUnitName", p.type_name AS type, p.attributes ->> 'tractionUnitTypeRef' AS "typeRef",
           p.owner_name AS responsible, p.attributes ->> 'owner' AS "ownerRef",
           rw_iso(p.last_modified) AS "informationChangeDate", p.state AS status, p.active, p.created_by AS "createdBy",
           rw_iso(lower(p.valid)) AS "validFrom", rw_iso(upper(p.valid)) AS "validTo",
           p.segment_count::int AS "segmentCount", p.total::int AS total,
           coalesce(cps.list, '[]'::jsonb) AS "consumptionPoints"
    FROM page p
    LEFT JOIN LATERAL (
      SELECT jsonb_agg(jsonb_build_object('uuid', c.entity_uuid, 'name', c.name, 'cpid', c.attributes ->> 'cpid',
                        'emsId', c.attributes ->> 'emsId', 'emsType', c.attributes ->> 'emsType',
                        'channels', (c.attributes ->> 'channels')::int, 'vkm', c.attributes ->> 'vkm',
                        'nvr', c.attributes ->> 'nvr') ORDER BY c.name) AS list
      FROM (SELECT DISTINCT ON (c.entity_uuid) c.* FROM entity_segment c
            WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.superseded_at IS NULL
              AND c.attributes ->> 'tractionUnitRef' = p.entity_uuid::text
            ORDER BY c.entity_uuid, upper(c.valid) DESC) c
    ) cps ON true
    ORDER BY ${sortOuter(f.sortBy)} ${direction} NULLS LAST, p.attributes ->> 'evn', p.entity_uuid`,
  );
  return { rows: result, total: result[0]?.total ?? 0 };
}

/** The same order as inside `page`, over the outer column names. */
function sortOuter(sortBy: FleetFilter['sortBy']): SQL {
  switch (sortBy) {
    case 'vkm':
      return sql`p.first_vkm`;
    case 'nvr':
      return sql`p.first_nvr`;
    default:
      return sql.raw(SORT_OUTER[sortBy]);
  }
}

const SORT_OUTER: Record<FleetFilter['sortBy'], string> = {
  evn: `p.attributes ->> 'evn'`,
  vkm: 'p.first_vkm',
  nvr: 'p.first_nvr',
  description: `lower(p.attributes ->> 'description')`,
  tractionUnitName: 'lower(p.name)',
  type: 'lower(p.type_name)',
  responsible: 'lower(p.owner_name)',
  informationChangeDate: 'p.last_modified',
  status: 'p.state',
  createdBy: 'p.created_by',
  validFrom: 'lower(p.valid)',
  validTo: 'upper(p.valid)',
};

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
  const owners = filter.owners?.length ? sql`AND s.attributes ->> 'owner' = ANY(${sql.param([...filter.owners])}::text[])` : sql``;
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
