import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/**
 * SQL of train runs (migration 0120). Set-based: every statement takes column arrays (unnest), so a
 * file of any number of runs costs the same few statements. Every statement names the tenant too,
 * though row-level security would add it: the seeders and tests run as the owner.
 */

const param = <T>(values: readonly T[]) => sql.param([...values]);

export interface OrganisationMatch {
  key: string;
  uuid: string;
  name: string;
  byOrgId: boolean;
  isRu: boolean;
}

/** Organisations of the area whose orgId or name (case-insensitive) is one of `keys`. */
export function findOrganisations(ex: Executor, tenant: string, keys: readonly string[]): Promise<OrganisationMatch[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return rows<OrganisationMatch>(
    ex,
    sql`SELECT k.key, l.entity_uuid::text AS uuid, l.name,
               coalesce(l.attributes ->> 'orgId' = k.key, false) AS "byOrgId",
               coalesce(l.attributes -> 'organisationTypes' @> '["RAILWAY_UNDERTAKING"]'::jsonb, false) AS "isRu"
        FROM unnest(${param(keys)}::text[]) AS k(key)
        JOIN entity_latest l ON l.tenant = ${tenant}::uuid AND l.type = 'organisation'
         AND (l.attributes ->> 'orgId' = k.key OR lower(l.name) = lower(k.key))`,
  );
}

/** Entities of one kind whose name (case-insensitive) is one of `names`: traffic categories, train profiles. */
export function findByName(
  ex: Executor,
  tenant: string,
  type: 'trafficcategory' | 'trainprofile',
  names: readonly string[],
): Promise<{ key: string; uuid: string }[]> {
  if (names.length === 0) return Promise.resolve([]);
  return rows(
    ex,
    sql`SELECT k.key, l.entity_uuid::text AS uuid
        FROM unnest(${param(names)}::text[]) AS k(key)
        JOIN entity_latest l ON l.tenant = ${tenant}::uuid AND l.type = ${type} AND lower(l.name) = lower(k.key)`,
  );
}

/** Traction units of the area by EVN. */
export function findTractionUnits(
  ex: Executor,
  tenant: string,
  evns: readonly string[],
): Promise<{ evn: string; uuid: string }[]> {
  if (evns.length === 0) return Promise.resolve([]);
  return rows(
    ex,
    sql`SELECT l.evn, l.entity_uuid::text AS uuid FROM entity_latest l
        WHERE l.tenant = ${tenant}::uuid AND l.type = 'tractionunit' AND l.evn = ANY(${param(evns)}::text[])`,
  );
}

export interface RunKey {
  trainNumber: string;
  operatingDay: string;
  ruUuid: string;
}

/**
 * The current versions of these runs (by position in `keys`, 0-based), locked until the
 * transaction ends so a concurrent file cannot change them between the check and the write.
 */
export async function currentRuns(
  ex: Executor,
  tenant: string,
  keys: readonly RunKey[],
): Promise<{ index: number; id: number; deleted: boolean }[]> {
  if (keys.length === 0) return [];
  const found = await rows<{ index: number; id: string | number; deleted: boolean }>(
    ex,
    sql`SELECT (k.i - 1)::int AS index, r.id, r.deleted
        FROM unnest(${param(keys.map((k) => k.trainNumber))}::text[], ${param(keys.map((k) => k.operatingDay))}::date[],
                    ${param(keys.map((k) => k.ruUuid))}::uuid[]) WITH ORDINALITY AS k(tn, d, ru, i)
        JOIN train_run r ON r.tenant = ${tenant}::uuid AND r.train_number = k.tn AND r.operating_day = k.d
         AND r.ru_uuid = k.ru AND r.superseded_at IS NULL
        FOR UPDATE OF r`,
  );
  return found.map((f) => ({ index: Number(f.index), id: Number(f.id), deleted: f.deleted }));
}

/** Marks versions replaced by the file `dataLogId` (a correction, a delete, an input after a delete). */
export async function supersedeRuns(
  ex: Executor,
  tenant: string,
  ids: readonly number[],
  dataLogId: number,
): Promise<void> {
  if (ids.length === 0) return;
  await ex.execute(sql`UPDATE train_run SET superseded_at = now(), superseded_by_data_log_id = ${dataLogId}
    WHERE tenant = ${tenant}::uuid AND id = ANY(${param(ids)}::bigint[]) AND superseded_at IS NULL`);
}

/** `count` new ids of train_run, so the vehicles of each run can name it in the same few statements. */
export async function allocateRunIds(ex: Executor, count: number): Promise<number[]> {
  if (count === 0) return [];
  const ids = await rows<{ id: string | number }>(
    ex,
    sql`SELECT nextval(pg_get_serial_sequence('train_run', 'id')) AS id FROM generate_series(1, ${count}::int)`,
  );
  return ids.map((r) => Number(r.id));
}

export interface RunInsert extends RunKey {
  id: number;
  trafficCategoryUuid: string | null;
  trainProfileUuid: string | null;
  route: readonly string[];
  departure: string | null;
  arrival: string | null;
  grossTonneKm: number | null;
  deleted: boolean;
}

export async function insertRuns(
  ex: Executor,
  tenant: string,
  dataLogId: number,
  runs: readonly RunInsert[],
): Promise<void> {
  if (runs.length === 0) return;
  const col = <T>(f: (r: RunInsert) => T) => param(runs.map(f));
  await ex.execute(sql`
    INSERT INTO train_run (id, tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, train_profile_uuid,
                           route, departure, arrival, gross_tonne_km, data_log_id, deleted)
    SELECT x.id, ${tenant}::uuid, x.tn, x.d, x.ru, x.tc, x.tp,
           ARRAY(SELECT jsonb_array_elements_text(x.route)), x.dep, x.arr, x.gtk, ${dataLogId}, x.del
    FROM unnest(${col((r) => r.id)}::bigint[], ${col((r) => r.trainNumber)}::text[], ${col((r) => r.operatingDay)}::date[],
                ${col((r) => r.ruUuid)}::uuid[], ${col((r) => r.trafficCategoryUuid)}::uuid[],
                ${col((r) => r.trainProfileUuid)}::uuid[], ${col((r) => JSON.stringify(r.route))}::jsonb[],
                ${col((r) => r.departure)}::timestamptz[], ${col((r) => r.arrival)}::timestamptz[],
                ${col((r) => r.grossTonneKm)}::numeric[], ${col((r) => r.deleted)}::boolean[])
         AS x(id, tn, d, ru, tc, tp, route, dep, arr, gtk, del)`);
}

export interface VehicleInsert {
  trainRunId: number;
  position: number;
  evn: string;
  tractionUnitUuid: string | null;
  grossWeight: number;
}

export async function insertVehicles(ex: Executor, tenant: string, vehicles: readonly VehicleInsert[]): Promise<void> {
  if (vehicles.length === 0) return;
  const col = <T>(f: (v: VehicleInsert) => T) => param(vehicles.map(f));
  await ex.execute(sql`
    INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
    SELECT x.id, ${tenant}::uuid, x.p, x.evn, x.tu, x.w
    FROM unnest(${col((v) => v.trainRunId)}::bigint[], ${col((v) => v.position)}::int[], ${col((v) => v.evn)}::text[],
                ${col((v) => v.tractionUnitUuid)}::uuid[], ${col((v) => v.grossWeight)}::numeric[])
         AS x(id, p, evn, tu, w)`);
}

export interface RunRow {
  id: number;
  trainNumber: string;
  operatingDay: string;
  ruUuid: string;
  railwayUndertaking: string | null;
  trafficCategoryUuid: string | null;
  trafficCategory: string | null;
  trainProfileUuid: string | null;
  trainProfile: string | null;
  route: string[];
  departure: string | null;
  arrival: string | null;
  grossTonneKm: number | null;
  dataLogId: number;
  createdAt: string;
  supersededAt: string | null;
  supersededByDataLogId: number | null;
  deleted: boolean;
}

export interface RunFilter {
  /** Inclusive, YYYY-MM-DD. */
  operatingDayFrom: string;
  operatingDayTo: string;
  /** Also superseded versions and tombstones (the history), oldest first per run. */
  includeHistory?: boolean;
  trainNumber?: string;
}

export async function selectRuns(ex: Executor, tenant: string, filter: RunFilter): Promise<RunRow[]> {
  const found = await rows<RunRow>(
    ex,
    sql`SELECT r.id, r.train_number AS "trainNumber", r.operating_day::text AS "operatingDay",
               r.ru_uuid::text AS "ruUuid", ru.name AS "railwayUndertaking",
               r.traffic_category_uuid::text AS "trafficCategoryUuid", tc.name AS "trafficCategory",
               r.train_profile_uuid::text AS "trainProfileUuid", tp.name AS "trainProfile",
               to_jsonb(r.route) AS route, rw_iso(r.departure) AS departure, rw_iso(r.arrival) AS arrival,
               r.gross_tonne_km::float8 AS "grossTonneKm", r.data_log_id AS "dataLogId",
               rw_iso(r.created_at) AS "createdAt", rw_iso(r.superseded_at) AS "supersededAt",
               r.superseded_by_data_log_id AS "supersededByDataLogId", r.deleted
        FROM train_run r
        LEFT JOIN entity_latest ru ON ru.entity_uuid = r.ru_uuid
        LEFT JOIN entity_latest tc ON tc.entity_uuid = r.traffic_category_uuid
        LEFT JOIN entity_latest tp ON tp.entity_uuid = r.train_profile_uuid
        WHERE r.tenant = ${tenant}::uuid
          AND r.operating_day BETWEEN ${filter.operatingDayFrom}::date AND ${filter.operatingDayTo}::date
          ${filter.includeHistory ? sql`` : sql`AND r.superseded_at IS NULL AND NOT r.deleted`}
          ${filter.trainNumber === undefined ? sql`` : sql`AND r.train_number = ${filter.trainNumber}`}
        ORDER BY r.operating_day, r.train_number, ru.name, r.id`,
  );
  return found.map((r) => ({
    ...r,
    id: Number(r.id),
    dataLogId: Number(r.dataLogId),
    supersededByDataLogId: r.supersededByDataLogId === null ? null : Number(r.supersededByDataLogId),
    grossTonneKm: r.grossTonneKm === null ? null : Number(r.grossTonneKm),
  }));
}

export interface VehicleRow {
  trainRunId: number;
  position: number;
  evn: string;
  tractionUnitUuid: string | null;
  grossWeightTonnes: number;
}

export async function selectVehicles(ex: Executor, tenant: string, runIds: readonly number[]): Promise<VehicleRow[]> {
  if (runIds.length === 0) return [];
  const found = await rows<VehicleRow>(
    ex,
    sql`SELECT v.train_run_id AS "trainRunId", v.position, v.evn, v.traction_unit_uuid::text AS "tractionUnitUuid",
               v.gross_weight::float8 AS "grossWeightTonnes"
        FROM train_run_vehicle v
        WHERE v.tenant = ${tenant}::uuid AND v.train_run_id = ANY(${param(runIds)}::bigint[])
        ORDER BY v.train_run_id, v.position`,
  );
  return found.map((v) => ({ ...v, trainRunId: Number(v.trainRunId), grossWeightTonnes: Number(v.grossWeightTonnes) }));
}
