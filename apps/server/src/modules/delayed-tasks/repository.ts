import type { DelayedTask, DelayedTaskQuery, DelayedTaskStatus, ProcedureName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../domain/sql.js';
import { rows } from '../domain/sql.js';

/** delayed_task (migration 0160) as the calls show it. */
const COLUMNS = sql`id::int AS id, destination_uri AS "destinationUri",
  to_json(period_start) #>> '{}' AS "periodStart", to_json(period_end) #>> '{}' AS "periodEnd",
  to_json(due_at) #>> '{}' AS "dueAt", reason, status,
  procedure_result_id::int AS "procedureResultId", started_result_id::int AS "startedResultId",
  to_json(created_at) #>> '{}' AS "createdAt", to_json(updated_at) #>> '{}' AS "updatedAt"`;

const SORT = {
  dueAt: sql`due_at`,
  createdAt: sql`created_at`,
  periodStart: sql`period_start`,
  status: sql`status`,
  id: sql`id`,
} as const;

const iso = (t: DelayedTask): DelayedTask => ({
  ...t,
  periodStart: new Date(t.periodStart).toISOString(),
  periodEnd: new Date(t.periodEnd).toISOString(),
  dueAt: new Date(t.dueAt).toISOString(),
  createdAt: new Date(t.createdAt).toISOString(),
  updatedAt: new Date(t.updatedAt).toISOString(),
});

export async function countWaiting(ex: Executor, tenant: string, destination: ProcedureName): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM delayed_task
         WHERE tenant = ${tenant}::uuid AND destination_uri = ${destination} AND status = 'waiting'`,
  );
  return Number(row?.n ?? 0);
}

export async function findTaskPage(
  ex: Executor,
  tenant: string,
  query: DelayedTaskQuery,
): Promise<{ total: number; content: DelayedTask[] }> {
  const where = sql`tenant = ${tenant}::uuid AND destination_uri = ${query.destinationUri}
    AND (${query.status ?? null}::text IS NULL OR status = ${query.status ?? null})`;
  const [count] = await rows<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM delayed_task WHERE ${where}`);
  const direction = query.descendingOrder ? sql`DESC` : sql`ASC`;
  const content = await rows<DelayedTask>(
    ex,
    sql`SELECT ${COLUMNS} FROM delayed_task WHERE ${where}
         ORDER BY ${SORT[query.sortBy]} ${direction}, id ${direction}
         LIMIT ${query.size} OFFSET ${query.page * query.size}`,
  );
  return { total: Number(count?.n ?? 0), content: content.map(iso) };
}

export async function findTask(ex: Executor, tenant: string, id: number): Promise<DelayedTask | undefined> {
  const [task] = await rows<DelayedTask>(
    ex,
    sql`SELECT ${COLUMNS} FROM delayed_task WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
  return task && iso(task);
}

/** The waiting tasks of a destination due at `now`, oldest due first, at most `limit`. */
export async function dueTasks(
  ex: Executor,
  tenant: string,
  destination: ProcedureName,
  now: string,
  limit: number,
): Promise<DelayedTask[]> {
  const found = await rows<DelayedTask>(
    ex,
    sql`SELECT ${COLUMNS} FROM delayed_task
         WHERE tenant = ${tenant}::uuid AND destination_uri = ${destination} AND status = 'waiting'
           AND due_at <= ${now}::timestamptz
         ORDER BY due_at, id LIMIT ${limit}`,
  );
  return found.map(iso);
}

/**
 * Sets a task's status (and the run that took it up, when given) if it is still in one of `from`;
 * answers whether it was.
 */
export async function setTaskStatus(
  ex: Executor,
  tenant: string,
  id: number,
  status: DelayedTaskStatus,
  options: { from?: readonly DelayedTaskStatus[]; startedResultId?: number } = {},
): Promise<boolean> {
  const from = options.from ? sql.param([...options.from]) : null;
  const result = await rows<{ id: number }>(
    ex,
    sql`UPDATE delayed_task
           SET status = ${status}, updated_at = now(),
               started_result_id = coalesce(${options.startedResultId ?? null}::bigint, started_result_id)
         WHERE tenant = ${tenant}::uuid AND id = ${id} AND (${from}::text[] IS NULL OR status = ANY(${from}::text[]))
        RETURNING id`,
  );
  return result.length > 0;
}

/** The areas with waiting tasks due at `now` (the schedule reads across areas). */
export async function areasWithDueTasks(ex: Executor, now: string): Promise<string[]> {
  const found = await rows<{ tenant: string }>(
    ex,
    sql`SELECT DISTINCT tenant FROM delayed_task WHERE status = 'waiting' AND due_at <= ${now}::timestamptz`,
  );
  return found.map((r) => r.tenant);
}
