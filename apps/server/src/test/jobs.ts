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
  { until = SETTLED, timeoutMs = 45_000 }: { until?: readonly JobStatus[]; timeoutMs?: number } = {},
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

/**
 * Waits until the area `tenant` has no procedure run under way and no job left to run (queued,
 * running or waiting for a retry): a CEBD upload is followed by its check on arrival (the `cebd-check`
 * job, then a cebd-preprocessing run), and a run by its followers, each a job of its own. A test
 * that starts a run after an upload waits for this first, or meets the check (process_already_running).
 */
export async function waitForIdle(
  database: Database,
  tenant: string,
  { timeoutMs = 120_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const allAreas = allAreasDatabase(database);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [busy] = await allAreas.query<{ runs: number; jobs: number }>(
      `SELECT (SELECT count(*)::int FROM procedure_result WHERE tenant = $1 AND status IN ('initial', 'running')) AS runs,
              (SELECT count(*)::int FROM job_run WHERE tenant = $1 AND status NOT IN ('success', 'dead')) AS jobs`,
      [tenant],
    );
    if (busy!.runs === 0 && busy!.jobs === 0) return;
    if (Date.now() > deadline)
      throw new Error(`Area ${tenant} still busy after ${timeoutMs} ms: ${JSON.stringify(busy)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
