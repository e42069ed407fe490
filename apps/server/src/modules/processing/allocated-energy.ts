import { sql, type SQL } from 'drizzle-orm';

/** The allocated_energy_hourly categories of the two steps (migration 0380), also their procedures' names. */
export const SHUNTING_AND_STABLING = 'shunting-and-stabling';
export const ENERGY_OUTSIDE_TRAIN_RUN = 'energy-outside-train-run';

/**
 * The checked 5-minute CEBD records: the `cebd_record` rows (one per consumption point and period
 * end, with its energies, traction unit, grid and price area, codes, duplicate flag and file,
 * data_log_id) that cebd-preprocessing has checked (codes not NULL). Every read of the records by
 * allocation, combine, the settlement's traceability and the statistics' allocation lag goes
 * through this one fragment (`FROM ${checkedRecords} p`); PostgreSQL pulls the subquery up, so the
 * record table's key and indexes serve the caller's clauses as if it were named directly.
 */
export const checkedRecords: SQL = sql.raw('(SELECT * FROM cebd_record WHERE codes IS NOT NULL)');

/** Validation codes whose records cannot be allocated: 54 unknown EMS, 59 outside the area, 60 master data missing. */
export const UNALLOCATABLE_CODES = [54, 59, 60] as const;

/**
 * A checked record (`checkedRecords`, alias `r`) that can be billed to someone: it has a traction
 * unit and none of UNALLOCATABLE_CODES. The other codes (55-58) are warnings about the data; its
 * energy is still somebody's. The one rule combine and the two allocation steps read.
 */
export const allocatable = (r: SQL) =>
  sql`${r}.traction_unit_uuid IS NOT NULL AND NOT (${r}.codes && ARRAY[${sql.raw(UNALLOCATABLE_CODES.join(', '))}]::smallint[])`;

/** The chunk as ISO instants; an empty chunk is a programming error. */
export function isoRange(chunk: { start: string; end: string }): { start: string; end: string } {
  const start = new Date(chunk.start).toISOString();
  const end = new Date(chunk.end).toISOString();
  if (!(start < end)) throw new Error(`Empty chunk ${chunk.start} .. ${chunk.end}`);
  return { start, end };
}

/**
 * The current train runs (not deleted, not superseded) that overlap [from, to], one row per
 * traction unit of their composition: unit, id, ru_uuid, departure, arrival. Read through
 * train_run_day_idx: a run's operating day is its departure's day, and a run lasts less than two
 * days, so operating days from two days before `from` up to `to` hold every run that can overlap.
 * Their vehicles are read by key from the runs' ids as a list (bench/settlement.ts: a hash join
 * scanned the month's train_run_vehicle for every chunk).
 */
export const tractionRunsNear = (tenant: string, from: SQL, to: SQL) => sql`
  SELECT v.traction_unit_uuid AS unit, r.id, r.ru_uuid, r.departure, r.arrival
    FROM train_run r
    JOIN train_run_vehicle v ON v.train_run_id = r.id AND v.tenant = r.tenant
   WHERE r.tenant = ${tenant}::uuid AND r.superseded_at IS NULL AND NOT r.deleted
     AND r.operating_day BETWEEN (${from})::date - 2 AND (${to})::date + 1
     AND r.departure <= ${to} AND r.arrival >= ${from}
     AND v.traction_unit_uuid IS NOT NULL
     AND v.tenant = ${tenant}::uuid AND v.train_run_id = ANY(ARRAY(
           SELECT x.id FROM train_run x
            WHERE x.tenant = ${tenant}::uuid AND x.superseded_at IS NULL AND NOT x.deleted
              AND x.operating_day BETWEEN (${from})::date - 2 AND (${to})::date + 1
              AND x.departure <= ${to} AND x.arrival >= ${from}))`;

/** The UTC hour of a record's 5-minute period (period end in (hour, hour + 1 h]), as price-and-supply buckets. */
export const recordHour = (periodEnd: SQL) => sql`date_trunc('hour', ${periodEnd} - interval '1 microsecond', 'UTC')`;

/**
 * The sums (alias `a`) of a chunk (period ends in (S, E]): their hours from S's to E's, and their
 * records inside the chunk. A row never straddles the chunk that wrote it; a chunk boundary inside
 * an hour (a period starting at 10:30) gives that hour two rows per island, one per chunk.
 */
export const sumsOfChunk = (tenant: string, S: SQL, E: SQL, a = sql`a`) =>
  sql`${a}.tenant = ${tenant}::uuid AND ${a}.hour_start >= date_trunc('hour', ${S}, 'UTC') AND ${a}.hour_start < ${E}
      AND ${a}.last_period_end > ${S} AND ${a}.first_period_end <= ${E}`;

/**
 * The record (alias `p`: consumption_point_uuid, period_end) is one of the sum `a`'s records: the
 * same consumption point and hour, its period end within the sum's island (migration 0380: an
 * island has no gap, so every record of the point in [first, last] is the sum's, and a point's
 * islands never overlap). Tested by index (tenant, hour_start, consumption_point_uuid).
 */
export const inSum = (a: SQL, p: SQL) =>
  sql`${a}.tenant = ${p}.tenant AND ${a}.consumption_point_uuid = ${p}.consumption_point_uuid
      AND ${a}.hour_start = ${recordHour(sql`${p}.period_end`)}
      AND ${p}.period_end BETWEEN ${a}.first_period_end AND ${a}.last_period_end`;

/** The columns a sum is grouped by: one payer, point, unit, run, grid and price area in one hour. */
const SUM_KEYS = sql.raw('cp, hour, category, organisation_uuid, payer, unit, run_id, grid_area_uuid, price_area_uuid');

/**
 * Writes the allocation of `source` (a CTE name; one row per record: cp, period_end, unit,
 * grid_area_uuid, price_area_uuid, active_consumed, active_regenerated, category, run_id,
 * organisation_uuid, payer) as sums: per consumption point, hour and payer, one row per island of
 * records 5 minutes apart (migration 0380). Answers `category`, `payer` and `records` per row written.
 *
 * Nearly every group of a point's records in an hour is one island: its records lie on one 5-minute
 * grid (the same seconds past each 5 minutes) and span (count - 1) x 5 minutes. Those are summed by
 * one hash aggregate, no sort. The points and hours holding a group with a gap (a record of another
 * payer or an unallocatable one in between) are split by the rank of each record instead:
 * `period_end - 5 min x (its rank among the same allocation of the point and hour)` is the same for
 * every record of an island and differs between islands. (Sorting every record for that rank was a
 * third of combine's time: bench/settlement.ts, EXPLAIN ANALYZE of a day.)
 */
export const insertSums = (tenant: string, source: SQL, procedureResultId: number | null) => sql`
  INSERT INTO allocated_energy_hourly
         (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid, traction_unit_uuid,
          train_run_id, grid_area_uuid, price_area_uuid, active_consumed, active_regenerated, records,
          first_period_end, last_period_end, procedure_result_id)
  WITH hourly AS (
    SELECT s.*, ${recordHour(sql`s.period_end`)} AS hour FROM ${source} s
  ), grouped AS MATERIALIZED (
    SELECT ${SUM_KEYS}, sum(coalesce(active_consumed, 0)) AS consumed, sum(coalesce(active_regenerated, 0)) AS regenerated,
           count(*) AS records, min(period_end) AS first_end, max(period_end) AS last_end,
           min(extract(epoch FROM period_end)::bigint % 300) = max(extract(epoch FROM period_end)::bigint % 300)
             AND max(period_end) - min(period_end) = interval '5 minutes' * (count(*) - 1) AS one_island
      FROM hourly GROUP BY ${SUM_KEYS}
  ), split AS (
    SELECT DISTINCT cp, hour FROM grouped WHERE NOT one_island
  )
  SELECT ${tenant}::uuid, hour, category, organisation_uuid, payer, cp, unit, run_id, grid_area_uuid,
         price_area_uuid, consumed, regenerated, records, first_end, last_end, ${procedureResultId}::bigint
    FROM grouped g
   WHERE NOT EXISTS (SELECT 1 FROM split x WHERE x.cp = g.cp AND x.hour = g.hour)
  UNION ALL
  SELECT ${tenant}::uuid, hour, category, organisation_uuid, payer, cp, unit, run_id, grid_area_uuid,
         price_area_uuid, sum(coalesce(active_consumed, 0)), sum(coalesce(active_regenerated, 0)), count(*),
         min(period_end), max(period_end), ${procedureResultId}::bigint
    FROM (SELECT y.*, y.period_end - interval '5 minutes' * row_number() OVER (
                   PARTITION BY ${SUM_KEYS} ORDER BY y.period_end) AS island
            FROM hourly y
           WHERE EXISTS (SELECT 1 FROM split x WHERE x.cp = y.cp AND x.hour = y.hour)) z
   GROUP BY ${SUM_KEYS}, island
  RETURNING category, payer, records`;
