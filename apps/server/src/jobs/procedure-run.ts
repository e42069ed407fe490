import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { recordInterruptedRun } from '../modules/processing/recovery.js';
import { executeRun, helpRun } from '../modules/processing/run.js';
import type { RunQueue } from '../modules/processing/service.js';
import type { JobRunner } from '../modules/jobs/runner.js';
import type { JobDependencies } from './dependencies.js';

const RETRY_LIMIT = 2;

/**
 * Executes one procedure result (ARCHITECTURE.md "Processing"): the procedure's chunks (area days),
 * each in its own transaction, skipping those a failed or interrupted attempt already finished, with
 * the definition the app's procedures give for it (src/procedures.ts ALL_PROCEDURES); on success the
 * chain queues its followers. A chunk that throws fails the attempt; it is retried twice, 3 s
 * apart, then the job lands in `procedure-run__dead` and the result is failure. A month of area days
 * may take long: an attempt may run 4 hours. An attempt cut off by the process's death counts as a
 * failed one: the job runner retries it as soon as a node finds its node gone
 * (modules/jobs/recovery.ts), and the run resumes from its finished days. With `helping`, a run of
 * the job is another node's hand on a result a run already executes (run.ts helpRun: its days,
 * never its outcome).
 */
export const procedureRunJob = defineJob({
  name: 'procedure-run',
  payload: z.object({ procedureResultId: z.number().int().positive(), helping: z.boolean().optional() }),
  retryLimit: RETRY_LIMIT,
  retryDelaySeconds: 3,
  expireInSeconds: 4 * 60 * 60,
  onInterrupted: (ctx, { procedureResultId, helping }, outcome) =>
    helping ? Promise.resolve() : recordInterruptedRun(ctx, procedureResultId, outcome),
  handler: (ctx, { procedureResultId, helping }, run, { procedures, chain }: JobDependencies) =>
    helping
      ? helpRun(ctx, procedureResultId, run, procedures)
      : executeRun(ctx, procedureResultId, run, { procedures, chain, retryLimit: RETRY_LIMIT }),
});

/**
 * The one way to queue a procedure result's run (routes, the chain, delayed tasks, dead-letter
 * reruns): its `procedure-run` job on the app's runner.
 */
export const procedureRunQueue =
  (jobs: Pick<JobRunner, 'enqueue'>): RunQueue =>
  (ctx, procedureResultId) =>
    jobs.enqueue(ctx, procedureRunJob, { procedureResultId });
