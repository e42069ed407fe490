import { UNDER_WAY_STATUSES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import type { InterruptedOutcome } from '../jobs/define-job.js';
import { rows, type Executor } from '../domain/sql.js';
import { findResult, updateResult } from './repository.js';

/**
 * Procedure results after their process died (issue 17 item 5; modules/jobs/recovery.ts settles the
 * jobs). A run's finished days are committed with their done-marks (run.ts), so what a crash loses
 * is the days in flight: the retried attempt resumes from the rest.
 */

/**
 * procedure-run's onInterrupted: the job is retried (the result stays running and says so) or it
 * was the last attempt (the result fails with the reason, and rerun resumes it later).
 */
export async function recordInterruptedRun(
  ctx: ServiceContext,
  procedureResultId: number,
  outcome: InterruptedOutcome,
): Promise<void> {
  const result = await findResult(ctx.db, ctx.tenant.uuid, procedureResultId);
  if (!result || !UNDER_WAY_STATUSES.includes(result.status)) return;
  await updateResult(
    ctx.db,
    procedureResultId,
    outcome.retried
      ? { message: `Attempt ${outcome.attempt} was cut off by a server stop; it resumes from its unfinished days` }
      : {
          status: 'failure',
          message: `Failed after ${outcome.attempt} attempts: the server stopped during the last one`,
          finished: true,
        },
  );
}

export const UNQUEUED_MESSAGE = 'The server stopped before the run was queued; run it again';

/**
 * Results under way without a job, started by a node that is gone (start.ts: at start-up, before
 * the job runner starts, and in every sweep of gone nodes). A result's job id is stored after its
 * job is queued (service.ts queueResult), and while it is missing a new run of the same scope is
 * refused (the run is being queued). A process that died in between left it so; its node is gone,
 * so nothing is queueing it any more (a live node's results are left alone: rw_node_gone, migration
 * 0390): such a result either belongs to a queued job that names it (adopted: the job runs it) or
 * to none (failure, so its month is free). Spans every area: the caller passes the explicit
 * all-areas executor. Answers how many results failed.
 */
export async function endUnqueuedResults(allAreas: Executor): Promise<number> {
  // A job still to run it: queued, running (interrupted: the job runner settles it) or between attempts.
  const liveJob = sql`SELECT j.id FROM job_run j
                       WHERE j.tenant = r.tenant AND j.name = 'procedure-run'
                         AND j.payload ->> 'procedureResultId' = r.id::text
                         AND NOT coalesce((j.payload ->> 'helping')::boolean, false)
                         AND (j.status IN ('queued', 'running') OR (j.status = 'failure' AND j.finished_at IS NULL))
                       ORDER BY j.created_at DESC LIMIT 1`;
  await allAreas.execute(
    sql`UPDATE procedure_result r SET job_id = (${liveJob})
         WHERE r.status = ANY(${sql.param([...UNDER_WAY_STATUSES])}::text[]) AND r.job_id IS NULL
           AND rw_node_gone(r.node) AND EXISTS (${liveJob})`,
  );
  const failed = await rows<{ id: number }>(
    allAreas,
    sql`UPDATE procedure_result r
           SET status = 'failure', message = ${UNQUEUED_MESSAGE}, execute_end_time = now()
         WHERE r.status = ANY(${sql.param([...UNDER_WAY_STATUSES])}::text[]) AND r.job_id IS NULL
           AND rw_node_gone(r.node)
     RETURNING r.id`,
  );
  return failed.length;
}
