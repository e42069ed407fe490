import { z } from 'zod';
import type { JobRunner } from '../modules/jobs/runner.js';
import type { JobDependencies } from './dependencies.js';
import { defineJob } from '../modules/jobs/define-job.js';
import { REPORTS } from '../modules/reports/index.js';
import { failInterruptedOrder, makeReport, type ReportQueue } from '../modules/reports/service.js';

/**
 * Makes an ordered report (issue 20 item 3; modules/reports/service.ts makeReport): its rows
 * streamed through the format's renderer into the "Ordered report" data-log entry, with progress in
 * rows. A report that cannot be made (no result with the order's statuses, a failing query) is an
 * outcome: the entry is ERROR with the reason and the run fails without a retry (the data log's
 * re-order repeats it, calls.md §4). An attempt whose process died makes the entry ERROR the same way.
 */
export const reportOrderJob = defineJob({
  name: 'report-order',
  payload: z.object({ orderId: z.number().int().positive() }),
  retryLimit: 0,
  expireInSeconds: 60 * 60,
  interrupted: 'fail',
  onInterrupted: async (ctx, { orderId }, outcome) => failInterruptedOrder(ctx, orderId, outcome.message),
  handler: async (ctx, { orderId }, run, { reportDelivery }: JobDependencies) =>
    makeReport(ctx, REPORTS, orderId, {
      embedded: run.embedded,
      delivery: reportDelivery,
      progress: (fraction, message) => void run.progress(fraction, message),
    }),
});

/** The report orders' queue (the order call and the data log's re-order). */
export const reportQueue =
  (jobs: Pick<JobRunner, 'enqueue'>): ReportQueue =>
  (ctx, { orderId, dataLogId }) =>
    jobs.enqueue(ctx, reportOrderJob, { orderId }, { dataLogId });
