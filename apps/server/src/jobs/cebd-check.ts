import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { startArrivalCheck } from '../modules/processing/chain.js';

/**
 * The check of a stored CEBD file on arrival (issue 19 item 2, modules/processing/chain.ts
 * startArrivalCheck): starts the cebd-preprocessing run of the file's days and consumption points as
 * the system; the run itself is a `procedure-run` job with progress per day. While another
 * cebd-preprocessing run of an overlapping period is under way (one run per scope: another file's
 * check, a person's run) the attempt fails and is tried again 5 s later, for up to an hour (files of
 * one day arriving together are checked one after the other, each within seconds of the one before);
 * after that it waits in `cebd-check__dead`, and the month-end run checks the file's records.
 */
export const cebdCheckJob = defineJob({
  name: 'cebd-check',
  payload: z.object({ dataLogId: z.number().int().positive() }),
  retryLimit: 720,
  retryDelaySeconds: 5,
  expireInSeconds: 5 * 60,
  handler: async (ctx, { dataLogId }) => {
    const result = await startArrivalCheck(ctx, dataLogId);
    return result
      ? `cebd-preprocessing run ${result.id} started for CEBD file ${dataLogId}`
      : `CEBD file ${dataLogId} holds no records to check`;
  },
});
