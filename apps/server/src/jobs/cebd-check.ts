import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { startArrivalCheck } from '../modules/processing/chain.js';
import type { JobDependencies } from './dependencies.js';

/**
 * The check of a stored CEBD file on arrival (issue 19 item 2, modules/processing/chain.ts
 * startArrivalCheck): starts the cebd-preprocessing run of the file's days and consumption points as
 * the system; the run itself is a `procedure-run` job with progress per day. It runs beside any other
 * run of its days (migration 0376: files of one day arriving together are each checked at once; their
 * chunks of a day take turns). A failed attempt is tried again; the last waits in `cebd-check__dead`,
 * and the month-end run checks the records the file left unchecked.
 */
export const cebdCheckJob = defineJob({
  name: 'cebd-check',
  payload: z.object({ dataLogId: z.number().int().positive() }),
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 5 * 60,
  handler: async (ctx, { dataLogId }, _run, { chain }: JobDependencies) => {
    const result = await startArrivalCheck(ctx, dataLogId, chain.run);
    return result
      ? `cebd-preprocessing run ${result.id} started for CEBD file ${dataLogId}`
      : `CEBD file ${dataLogId} holds no records to check`;
  },
});
