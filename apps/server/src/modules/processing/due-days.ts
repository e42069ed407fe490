import { dayStartInZone, nextPeriodStart, type ProcedureName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/**
 * Due days (migration 0440 `procedure_due_day`, ARCHITECTURE.md "Allocated as the days arrive"): the
 * area days a step that keeps them (ProcedureDefinition.keepsDueDays: combine and the two allocation
 * steps) has to process again because a step before it changed what it reads. The engine (run.ts
 * runChunk) does the bookkeeping, in each chunk's own transaction:
 * - a chunk that did its work marks its day for each follower that keeps due days (markDue);
 * - a chunk of such a follower over the whole area (no refs) takes its day's mark first (takeDueMark),
 *   so a change committed while it runs marks the day again;
 * - a run with option onlyDue skips a day that was neither marked nor ever processed by the procedure
 *   (processedBefore), the rest were allocated when their records arrived.
 */

interface Day {
  start: string;
  end: string;
}

/** Marks `day` due for each of `procedures` (a day marked already keeps its first mark). */
export async function markDue(
  ex: Executor,
  tenant: string,
  procedures: readonly ProcedureName[],
  day: Day,
): Promise<void> {
  if (procedures.length === 0) return;
  await ex.execute(
    sql`INSERT INTO procedure_due_day (tenant, procedure_name, day_start, day_end)
        SELECT ${tenant}::uuid, p, ${day.start}::timestamptz, ${day.end}::timestamptz
          FROM unnest(${sql.param([...procedures])}::text[]) AS p
        ON CONFLICT (tenant, procedure_name, day_start) DO NOTHING`,
  );
}

/**
 * Marks the area days `days` ('YYYY-MM-DD' in the area's zone) due for `procedure`: what changed
 * outside the chain (the operating days a train-run file changed, for train-preprocessing).
 */
export async function markDaysDue(
  ex: Executor,
  area: { uuid: string; timeZone: string },
  procedure: ProcedureName,
  days: Iterable<string>,
): Promise<void> {
  const starts: string[] = [];
  const ends: string[] = [];
  for (const day of new Set(days)) {
    const start = dayStartInZone(day, area.timeZone);
    starts.push(start);
    ends.push(nextPeriodStart(start, 'P1D', area.timeZone).toISOString());
  }
  if (starts.length === 0) return;
  await ex.execute(
    sql`INSERT INTO procedure_due_day (tenant, procedure_name, day_start, day_end)
        SELECT ${area.uuid}::uuid, ${procedure}, s, e
          FROM unnest(${sql.param(starts)}::timestamptz[], ${sql.param(ends)}::timestamptz[]) AS d(s, e)
        ON CONFLICT (tenant, procedure_name, day_start) DO NOTHING`,
  );
}

/**
 * Deletes the procedure's mark of the day `day` (a chunk covering the whole area day: a chunk its
 * run's period clips leaves the mark); answers whether there was one.
 */
export async function takeDueMark(ex: Executor, tenant: string, procedure: ProcedureName, day: Day): Promise<boolean> {
  const taken = await rows<{ n: number }>(
    ex,
    sql`WITH t AS (DELETE FROM procedure_due_day
                    WHERE tenant = ${tenant}::uuid AND procedure_name = ${procedure}
                      AND day_start = ${day.start}::timestamptz AND day_end = ${day.end}::timestamptz
                   RETURNING 1)
        SELECT count(*)::int AS n FROM t`,
  );
  return (taken[0]?.n ?? 0) > 0;
}

/**
 * Whether a run of the procedure other than `resultId`, over the whole area, finished a chunk
 * starting at the day's start (a day processed, or found not due because it was processed before).
 */
export async function processedBefore(
  ex: Executor,
  tenant: string,
  procedure: ProcedureName,
  resultId: number,
  day: Day,
): Promise<boolean> {
  const [found] = await rows<{ done: boolean }>(
    ex,
    sql`SELECT EXISTS (
          SELECT 1 FROM procedure_chunk c JOIN procedure_result r ON r.id = c.procedure_result_id
           WHERE c.tenant = ${tenant}::uuid AND c.chunk_start = ${day.start}::timestamptz
             AND c.chunk_end = ${day.end}::timestamptz AND r.procedure_name = ${procedure}
             AND r.id <> ${resultId} AND cardinality(r.ref_uuids) = 0) AS done`,
  );
  return found?.done === true;
}

/**
 * The earliest area day (its start) at or after `from` marked due for any of `procedures`, or null:
 * where the nightly allocation starts (jobs/nightly-allocation.ts).
 */
export async function earliestDueDay(
  ex: Executor,
  tenant: string,
  procedures: readonly ProcedureName[],
  from: string,
): Promise<string | null> {
  const [found] = await rows<{ start: string | null }>(
    ex,
    sql`SELECT rw_iso(min(day_start)) AS start FROM procedure_due_day
         WHERE tenant = ${tenant}::uuid AND procedure_name = ANY(${sql.param([...procedures])}::text[])
           AND day_start >= ${from}::timestamptz`,
  );
  return found?.start ?? null;
}
