import { sql, type SQL } from 'drizzle-orm';

/** The allocated_energy categories of the two steps (migration 0160), also their procedures' names. */
export const SHUNTING_AND_STABLING = 'shunting-and-stabling';
export const ENERGY_OUTSIDE_TRAIN_RUN = 'energy-outside-train-run';

/**
 * A cebd_record row (alias p) that can be billed to someone: cebd-preprocessing checked it (codes
 * not NULL), it has a traction unit and none of the codes that make it unusable (54 unknown EMS, 59
 * outside the area, 60 master data missing). The other codes (55-58) are warnings about the data;
 * its energy is still somebody's.
 */
export const ALLOCATABLE = sql`p.codes IS NOT NULL AND p.traction_unit_uuid IS NOT NULL
  AND NOT (p.codes && ARRAY[54, 59, 60]::smallint[])`;

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
