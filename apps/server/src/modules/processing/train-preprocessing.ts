import { PROCESS_EVENT_CODES, type ProcessEventCode, type Severity } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';

/**
 * train-preprocessing (DOMAIN.md "Processing" step 2, issue 9 item 4) for one area day: every
 * current train run (train_run: superseded_at IS NULL, not deleted) whose operating day is the
 * chunk's day gets one `train_run_check` row (migration 0160) with the codes found. One DELETE of
 * the day's rows and one INSERT ... SELECT, whatever the number of runs. Codes (contracts
 * PROCESS_EVENT_CODES):
 *
 * - 'weight-outside-limits': a vehicle's gross weight below the configuration's minimum or above
 *   its maximum per vehicle (tonnes; processing-config 'train-preprocessing').
 * - 'unknown-evn': a tractive vehicle (UIC: the EVN's first digit is 9) that no traction unit of
 *   the area knows at the run's departure. Resolved against the fleet master data now (a current
 *   segment valid at the departure), not only the traction_unit_uuid stored with the run: the unit
 *   may have been registered after the file arrived, and then the run is no longer wrong.
 * - 'wrong-train-composition': no tractive vehicle at all (no EVN starting with 9 and no vehicle
 *   the fleet knows as a traction unit), or a traction unit that also runs in another current run
 *   overlapping in time ([departure, arrival) ranges overlap): a unit cannot pull two trains at once.
 *   Both runs are flagged (which of the two reports is wrong cannot be told from the data).
 * - 'duplicate-train-run': another railway undertaking reported the same train number on the same
 *   operating day. The run first stored (the earliest version of its identity) is kept, the later
 *   one flagged; combine ignores the flagged one (`LATER_DUPLICATE`, the same rule, so combine
 *   does not depend on this step having run).
 * - 'data-received-too-late': the run's current version was stored more than maxDaysLate days after
 *   its operating day ended (the end of the day in the area's time zone).
 */

export interface TrainPreprocessingLimits {
  minGrossWeightPerVehicleTonnes: number;
  maxGrossWeightPerVehicleTonnes: number;
  maxDaysLate: number;
}

export interface TrainPreprocessingResult {
  /** Current runs of the day checked. */
  runs: number;
  /** Per code: the runs flagged and up to three of their train numbers (for the event's message). */
  byCode: Partial<Record<ProcessEventCode, { runs: number; examples: string[] }>>;
}

export const TRAIN_CHECK_CODES = [
  'weight-outside-limits',
  'unknown-evn',
  'wrong-train-composition',
  'duplicate-train-run',
  'data-received-too-late',
] as const satisfies readonly ProcessEventCode[];
export type TrainCheckCode = (typeof TRAIN_CHECK_CODES)[number];

/**
 * The severity of each code's event. HIGH where combine cannot use the run as reported (an unknown
 * tractive EVN or a wrong composition leaves metered energy unmatched, a duplicate is ignored);
 * MEDIUM where the run is used as it is and only estimation (weight) or the timeliness report
 * (late data) is concerned.
 */
export const TRAIN_CHECK_SEVERITY: Record<TrainCheckCode, Severity> = {
  'weight-outside-limits': 'MEDIUM',
  'unknown-evn': 'HIGH',
  'wrong-train-composition': 'HIGH',
  'duplicate-train-run': 'HIGH',
  'data-received-too-late': 'MEDIUM',
};

/**
 * A run `r` (train_run alias) that another RU reported first for the same train number and day:
 * the identity stored first (its earliest version) wins; ties by the RU's uuid.
 */
export const LATER_DUPLICATE = (r: SQL) => {
  const firstStored = (x: SQL) => sql`(SELECT min(f.created_at) FROM train_run f
     WHERE f.tenant = ${x}.tenant AND f.operating_day = ${x}.operating_day
       AND f.train_number = ${x}.train_number AND f.ru_uuid = ${x}.ru_uuid)`;
  return sql`EXISTS (
    SELECT 1 FROM train_run o
     WHERE o.tenant = ${r}.tenant AND o.operating_day = ${r}.operating_day AND o.train_number = ${r}.train_number
       AND o.ru_uuid <> ${r}.ru_uuid AND o.superseded_at IS NULL AND NOT o.deleted
       AND ROW(${firstStored(sql`o`)}, o.ru_uuid) < ROW(${firstStored(r)}, ${r}.ru_uuid))`;
};

/** Checks the current train runs of one operating day (`day`, 'YYYY-MM-DD' in the area's zone). */
export async function preprocessTrainRuns(
  ctx: ServiceContext,
  day: string,
  limits: TrainPreprocessingLimits,
  options: { procedureResultId?: number } = {},
): Promise<TrainPreprocessingResult> {
  const tenant = ctx.tenant.uuid;
  const zone = ctx.tenant.timeZone;
  const D = sql`${day}::date`;
  return ctx.db.transaction(async (tx) => {
    // No JIT: compiling the statement costs more than running it once per chunk (bench/settlement.ts:
    // about 1.1-1.8 s of a day's time, as it was for combine).
    await tx.execute(sql`SET LOCAL jit = off`);
    // No nested loops: the planner takes a list of ids (`= ANY(ARRAY(...))`) for 10 rows, and on the
    // month's first and last days joined the day's vehicles to those of D-2..D+2 in a nested loop
    // (bench/settlement.ts, 1,000 units: 108 million pairs, 18 s a day; hash joins: 0.3 s).
    await tx.execute(sql`SET LOCAL enable_nestloop = off`);
    await tx.execute(sql`DELETE FROM train_run_check WHERE tenant = ${tenant}::uuid AND operating_day = ${D}`);
    const found = await rows<{ code: string | null; runs: string | number; examples: string[] | null }>(
      tx,
      sql`
      WITH runs AS MATERIALIZED (
        SELECT r.* FROM train_run r
         WHERE r.tenant = ${tenant}::uuid AND r.operating_day = ${D} AND r.superseded_at IS NULL AND NOT r.deleted
      ), vehicles AS MATERIALIZED (
        -- Each vehicle with the traction unit the fleet knows by its EVN at the run's departure
        -- (the stored uuid first: it was the fleet's answer when the file arrived).
        SELECT v.train_run_id, v.evn, v.gross_weight, left(v.evn, 1) = '9' AS tractive,
               coalesce(v.traction_unit_uuid, (
                 SELECT s.entity_uuid FROM entity_segment s
                  WHERE s.tenant = ${tenant}::uuid AND s.type = 'tractionunit' AND s.superseded_at IS NULL
                    AND s.attributes ->> 'evn' = v.evn AND s.valid @> r.departure
                  LIMIT 1)) AS unit,
               r.departure, r.arrival, r.operating_day
          FROM runs r JOIN train_run_vehicle v ON v.train_run_id = r.id AND v.tenant = r.tenant
         WHERE v.tenant = ${tenant}::uuid AND v.train_run_id = ANY(ARRAY(SELECT id FROM runs))
      ), per_run AS (
        -- The vehicle checks in one pass, grouped by run (bench/settlement.ts: an EXISTS per run over
        -- the day's vehicles grew with the square of the runs of a day).
        SELECT train_run_id,
               bool_or(gross_weight < ${limits.minGrossWeightPerVehicleTonnes}::numeric
                       OR gross_weight > ${limits.maxGrossWeightPerVehicleTonnes}::numeric) AS weight,
               bool_or(tractive AND unit IS NULL) AS unknown,
               NOT bool_or(tractive OR unit IS NOT NULL) AS no_tractive
          FROM vehicles GROUP BY train_run_id
      ), near AS MATERIALIZED (
        -- The current runs of D-2..D+2 with their vehicles, read once by the operating-day index and
        -- their vehicles by key (bench/settlement.ts: probing every run of an EVN read the whole
        -- month's runs of each unit, 185 per vehicle at day 20, and the vehicles were a scan of the
        -- month's table).
        SELECT o.id, o.departure, o.arrival, ov.evn
          FROM train_run o
          JOIN train_run_vehicle ov ON ov.train_run_id = o.id AND ov.tenant = o.tenant
         WHERE o.tenant = ${tenant}::uuid AND o.superseded_at IS NULL AND NOT o.deleted
           AND o.operating_day BETWEEN ${D} - 2 AND ${D} + 2
           AND ov.tenant = ${tenant}::uuid AND ov.train_run_id = ANY(ARRAY(
                 SELECT x.id FROM train_run x
                  WHERE x.tenant = ${tenant}::uuid AND x.superseded_at IS NULL AND NOT x.deleted
                    AND x.operating_day BETWEEN ${D} - 2 AND ${D} + 2))
      ), shared AS (
        -- Runs whose tractive vehicle (or known unit) is in another current run overlapping in time:
        -- a hash join on the EVN over those few days' runs.
        SELECT DISTINCT v.train_run_id
          FROM vehicles v
          JOIN near o ON o.evn = v.evn AND o.id <> v.train_run_id
         WHERE (v.tractive OR v.unit IS NOT NULL)
           AND tstzrange(o.departure, o.arrival) && tstzrange(v.departure, v.arrival)
      ), judged AS (
        SELECT r.id, r.train_number,
               coalesce(p.weight, false) AS weight,
               coalesce(p.unknown, false) AS unknown,
               (coalesce(p.no_tractive, true) OR x.train_run_id IS NOT NULL) AS composition,
               ${LATER_DUPLICATE(sql`r`)} AS duplicate,
               r.created_at > ((r.operating_day + 1)::timestamp AT TIME ZONE ${zone})
                              + make_interval(days => ${limits.maxDaysLate}::int) AS late
          FROM runs r
          LEFT JOIN per_run p ON p.train_run_id = r.id
          LEFT JOIN shared x ON x.train_run_id = r.id
      ), written AS (
        INSERT INTO train_run_check (tenant, train_run_id, operating_day, codes, procedure_result_id)
        SELECT ${tenant}::uuid, id, ${D},
               array_remove(ARRAY[CASE WHEN weight THEN 'weight-outside-limits' END,
                                  CASE WHEN unknown THEN 'unknown-evn' END,
                                  CASE WHEN composition THEN 'wrong-train-composition' END,
                                  CASE WHEN duplicate THEN 'duplicate-train-run' END,
                                  CASE WHEN late THEN 'data-received-too-late' END], NULL),
               ${options.procedureResultId ?? null}::bigint
          FROM judged
        RETURNING train_run_id, codes
      )
      SELECT NULL AS code, count(*) AS runs, NULL AS examples FROM written
      UNION ALL
      SELECT c.code, count(*), (array_agg(j.train_number ORDER BY j.train_number))[1:3]
        FROM written w CROSS JOIN LATERAL unnest(w.codes) AS c(code) JOIN judged j ON j.id = w.train_run_id
       GROUP BY c.code`,
    );
    const result: TrainPreprocessingResult = { runs: 0, byCode: {} };
    for (const row of found) {
      if (row.code === null) result.runs = Number(row.runs);
      else if (row.code in PROCESS_EVENT_CODES) {
        result.byCode[row.code as ProcessEventCode] = { runs: Number(row.runs), examples: row.examples ?? [] };
      }
    }
    return result;
  });
}
