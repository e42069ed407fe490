import type { JobRun, JobStatus, Role } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { boundedText } from '../../db/storable-text.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The SQL of job_run (migration 0100). Every function runs on the executor it is given: the area-bound
 * executor of the request that queues a run, or of the run's area in the worker (db/tenant.ts), so
 * row-level security holds for the runner too. Each statement commits on its own: progress must be
 * visible while the handler's own work is still under way.
 */

/** Longest message stored (contracts TEXT_LIMITS.message is far above; an error's stack is not for screens). */
export const MAX_RUN_MESSAGE = 4000;

/** Bounded and storable (a message may quote a file's bytes: NUL would fail the write and leave the run running). */
const clip = (message: string | null | undefined): string | null =>
  message == null ? null : boundedText(message, MAX_RUN_MESSAGE);

export interface NewRun {
  id: string;
  tenant: string;
  name: string;
  payload: unknown;
  username: string;
  roles: readonly Role[];
  dataLogId?: number | null;
  status?: Extract<JobStatus, 'queued' | 'running'>;
}

/** A new run (queued by enqueue, or running when a schedule's job starts); a retried job keeps its row. */
export async function insertRun(ex: Executor, run: NewRun): Promise<void> {
  await ex.execute(
    sql`INSERT INTO job_run (id, tenant, name, status, payload, username, roles, data_log_id)
        VALUES (${run.id}::uuid, ${run.tenant}::uuid, ${run.name}, ${run.status ?? 'queued'},
                ${JSON.stringify(run.payload ?? {})}::jsonb, ${run.username}, ${sql.param([...run.roles])}::text[],
                ${run.dataLogId ?? null})
        ON CONFLICT (id) DO NOTHING`,
  );
}

/**
 * An attempt starts: running, its number, the first start time kept, and the node working on it
 * (rw_node(), migration 0390: a node that is gone leaves it to the others). False when there is no
 * such run.
 */
export async function markRunning(ex: Executor, id: string, attempt: number): Promise<boolean> {
  const updated = await rows<{ id: string }>(
    ex,
    sql`UPDATE job_run SET status = 'running', attempts = ${attempt}, started_at = coalesce(started_at, now()),
               finished_at = NULL, node = rw_node()
         WHERE id = ${id}::uuid
        RETURNING id`,
  );
  return updated.length > 0;
}

/** How far a running attempt is; a message replaces the previous one, none keeps it. */
export async function markProgress(ex: Executor, id: string, fraction: number, message?: string): Promise<void> {
  await ex.execute(
    sql`UPDATE job_run SET progress = ${fraction}, message = coalesce(${clip(message)}, message)
         WHERE id = ${id}::uuid AND status = 'running'`,
  );
}

/** The run ended: success (progress 1), failure (an attempt failed, a retry follows) or dead (no retry left). */
export async function markFinished(
  ex: Executor,
  id: string,
  outcome: { status: Extract<JobStatus, 'success' | 'failure' | 'dead'>; message?: string | null; final?: boolean },
): Promise<void> {
  const { status } = outcome;
  await ex.execute(
    sql`UPDATE job_run
           SET status = ${status}, message = coalesce(${clip(outcome.message)}, message),
               ${status === 'success' ? sql`progress = 1,` : sql``}
               finished_at = ${status === 'failure' && !outcome.final ? sql`NULL` : sql`now()`}
         WHERE id = ${id}::uuid`,
  );
}

/** One run of the area, as GET /jobs/{id} answers it; null when the area has no such run. */
export async function findRun(ex: Executor, tenant: string, id: string): Promise<JobRun | null> {
  const [run] = await rows<JobRun>(
    ex,
    sql`SELECT id, name, status, progress, message, data_log_id AS "dataLogId", attempts,
               rw_iso(created_at) AS "createdAt", rw_iso(started_at) AS "startedAt", rw_iso(finished_at) AS "finishedAt"
          FROM job_run
         WHERE tenant = ${tenant}::uuid AND id = ${id}::uuid`,
  );
  return run ?? null;
}
