import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import {
  allocatable,
  checkedRecords,
  ENERGY_OUTSIDE_TRAIN_RUN,
  inSum,
  insertSums,
  isoRange,
  sumsOfChunk,
  tractionRunsNear,
} from '../processing/allocated-energy.js';

/**
 * energy-outside-train-run (DOMAIN.md "Processing" step 4, issue 9 item 4) for one chunk (an area
 * day): the metered energy that neither combine ('train-run') nor shunting-and-stabling allocated
 * gets a payer, as its own category. Set-based: two statements per chunk.
 *
 * Input: the chunk's checked records (allocated-energy.ts `checkedRecords`, period end in (start, end]) that can
 * be billed (a traction unit, none of the codes 54, 59, 60; see allocated-energy.ts `allocatable`) and lie in no
 * allocated_energy_hourly sum of another category (allocated-energy.ts `inSum`: a sum's island holds exactly
 * its records).
 *
 * The rule, per record (its time is its period end):
 * - The unit's previous run: among the current runs whose composition holds the unit, the latest
 *   arrival at or before the record. When that arrival lies within `limitMinutes`
 *   (processing-config 'energy-outside-train-run' timeLimitMinutes, default 1440) before the record,
 *   the run's RU pays (payer 'ru', train_run_id the run).
 * - Otherwise the unit's vehicle keeper pays (payer 'vehicle-keeper'): the `owner` organisation of
 *   the traction unit's segment valid at the start of the record's period (as cebd-preprocessing
 *   reads master data), provided that organisation has a segment valid then; train_run_id is NULL.
 * - No previous run within the limit and no keeper: no row (pricing cannot bill nobody); the chunk
 *   counts them (`noPayer`, the run's event 'match-energy-failed').
 *
 * Writes `allocated_energy_hourly` sums (migration 0380), category 'energy-outside-train-run'.
 * Idempotent: the chunk deletes its own category's sums first.
 */

export interface EnergyOutsideOptions {
  limitMinutes: number;
  procedureResultId?: number | null;
}

export interface EnergyOutsideResult {
  /** Records of the chunk left to this step. */
  records: number;
  /** Allocated to the previous run's RU. */
  toRu: number;
  /** Allocated to the unit's vehicle keeper. */
  toVehicleKeeper: number;
  /** Neither found: left unallocated. */
  noPayer: number;
}

export async function allocateEnergyOutsideTrainRun(
  ctx: ServiceContext,
  chunk: { start: string; end: string },
  options: EnergyOutsideOptions,
): Promise<EnergyOutsideResult> {
  const tenant = ctx.tenant.uuid;
  const { start, end } = isoRange(chunk);
  const S = sql`${start}::timestamptz`;
  const E = sql`${end}::timestamptz`;
  const L = sql`make_interval(mins => ${options.limitMinutes}::int)`;
  const runId = options.procedureResultId ?? null;

  return ctx.db.transaction(async (tx) => {
    // No JIT: compiling the statement costs more than running it once per chunk (bench/settlement.ts:
    // about 1.1-1.8 s of a day's time, as it was for combine).
    await tx.execute(sql`SET LOCAL jit = off`);
    // No nested or merge joins (as shunting-and-stabling.ts): the chunk's sums read once by hour, not
    // probed per record; the keepers hash-joined (below).
    await tx.execute(sql`SET LOCAL enable_nestloop = off`);
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`
      DELETE FROM allocated_energy_hourly a
       WHERE ${sumsOfChunk(tenant, S, E)} AND a.category = ${ENERGY_OUTSIDE_TRAIN_RUN}`);
    const [counts] = await rows<{ records: number; to_ru: number; to_keeper: number }>(
      tx,
      sql`
      WITH allocated AS MATERIALIZED (
        SELECT a.* FROM allocated_energy_hourly a WHERE ${sumsOfChunk(tenant, S, E)}
      ), recs AS (
        SELECT p.consumption_point_uuid AS cp, p.period_end, p.traction_unit_uuid AS unit, p.grid_area_uuid,
               p.price_area_uuid, p.active_consumed, p.active_regenerated
          FROM ${checkedRecords} p
         WHERE p.tenant = ${tenant}::uuid AND p.period_end > ${S} AND p.period_end <= ${E} AND ${allocatable(sql`p`)}
           AND NOT EXISTS (SELECT 1 FROM allocated a WHERE ${inSum(sql`a`, sql`p`)})
      ), runs AS MATERIALIZED (${tractionRunsNear(tenant, sql`${S} - ${L}`, E)}),
      prev AS MATERIALIZED (
        -- Each record's previous run within the limit: a hash join on the unit over the chunk's
        -- few runs, the latest arrival first.
        SELECT DISTINCT ON (r.cp, r.period_end) r.cp, r.period_end, x.id, x.ru_uuid
          FROM recs r
          JOIN runs x ON x.unit = r.unit AND x.arrival <= r.period_end AND x.arrival >= r.period_end - ${L}
         ORDER BY r.cp, r.period_end, x.arrival DESC, x.id DESC
      ), units AS MATERIALIZED (
        -- The current segments of the chunk's units and of their owners, each a small set read once
        -- by uuid and hash-joined to the records without a previous run (bench/settlement.ts: a
        -- probe per record went through an index of every unit of the area, growing with the
        -- square of the units).
        SELECT s.entity_uuid, s.valid, rw_uuid(s.attributes ->> 'owner') AS owner_ref FROM entity_segment s
         WHERE s.tenant = ${tenant}::uuid AND s.type = 'tractionunit' AND s.superseded_at IS NULL
           AND s.entity_uuid = ANY(ARRAY(SELECT DISTINCT unit FROM recs))
      ), owners AS MATERIALIZED (
        SELECT s.entity_uuid, s.valid FROM entity_segment s
         WHERE s.tenant = ${tenant}::uuid AND s.type = 'organisation' AND s.superseded_at IS NULL
           AND s.entity_uuid = ANY(ARRAY(SELECT DISTINCT owner_ref FROM units WHERE owner_ref IS NOT NULL))
      ), keepers AS (
        -- The vehicle keeper, looked up only for the records without a previous run: the unit's
        -- segment at the record's start, then its owner's (current segments of one entity never
        -- overlap: one of each at most).
        SELECT r.cp, r.period_end, o.entity_uuid AS keeper
          FROM recs r
          JOIN units u ON u.entity_uuid = r.unit AND u.valid @> (r.period_end - interval '5 minutes')
          JOIN owners o ON o.entity_uuid = u.owner_ref AND o.valid @> (r.period_end - interval '5 minutes')
         WHERE NOT EXISTS (SELECT 1 FROM prev WHERE prev.cp = r.cp AND prev.period_end = r.period_end)
      ), payers AS (
        SELECT r.*, prev.id AS run_id, prev.ru_uuid, k.keeper
          FROM recs r
          LEFT JOIN prev ON prev.cp = r.cp AND prev.period_end = r.period_end
          LEFT JOIN keepers k ON k.cp = r.cp AND k.period_end = r.period_end
      ), allocation AS (
        SELECT cp, period_end, unit, grid_area_uuid, price_area_uuid, active_consumed, active_regenerated,
               ${ENERGY_OUTSIDE_TRAIN_RUN}::text AS category, run_id, coalesce(ru_uuid, keeper) AS organisation_uuid,
               CASE WHEN run_id IS NOT NULL THEN 'ru' ELSE 'vehicle-keeper' END AS payer
          FROM payers WHERE run_id IS NOT NULL OR keeper IS NOT NULL
      ), written AS (${insertSums(tenant, sql`allocation`, runId)})
      SELECT (SELECT count(*)::int FROM recs) AS records,
             (SELECT coalesce(sum(records), 0)::int FROM written WHERE payer = 'ru') AS to_ru,
             (SELECT coalesce(sum(records), 0)::int FROM written WHERE payer = 'vehicle-keeper') AS to_keeper`,
    );
    const records = Number(counts?.records ?? 0);
    const toRu = Number(counts?.to_ru ?? 0);
    const toVehicleKeeper = Number(counts?.to_keeper ?? 0);
    return { records, toRu, toVehicleKeeper, noPayer: records - toRu - toVehicleKeeper };
  });
}
