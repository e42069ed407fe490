import type { JobRun, JobStatus } from '@railwatt/contracts';
import type { Database } from '../db/client.js';
import { allAreasDatabase } from '../db/tenant.js';

/** The statuses a run stays in unless something queues it again. */
const SETTLED: readonly JobStatus[] = ['success', 'dead'];

/**
 * Waits until the run `id` reaches one of `until` (default: success or dead) and answers its
 * record, read across areas (the test's view, not a user's). Polls every 50 ms; fails after
 * `timeoutMs` with the last status seen.
 */
export async function waitForRun(
  database: Database,
  id: string,
  { until = SETTLED, timeoutMs = 15_000 }: { until?: readonly JobStatus[]; timeoutMs?: number } = {},
): Promise<JobRun & { tenant: string }> {
  const allAreas = allAreasDatabase(database);
  const deadline = Date.now() + timeoutMs;
  let last: (JobRun & { tenant: string }) | undefined;
  for (;;) {
    [last] = await allAreas.query<JobRun & { tenant: string }>(
      `SELECT id, tenant, name, status, progress, message, data_log_id AS "dataLogId", attempts,
              rw_iso(created_at) AS "createdAt", rw_iso(started_at) AS "startedAt", rw_iso(finished_at) AS "finishedAt"
         FROM job_run WHERE id = $1`,
      [id],
    );
    if (last && until.includes(last.status)) return last;
    if (Date.now() > deadline) {
      throw new Error(
        `Job run ${id} did not reach ${until.join('/')} in ${timeoutMs} ms (last: ${last?.status ?? 'none'})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
