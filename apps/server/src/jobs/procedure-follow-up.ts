import { procedureNameSchema, procedureRunOptionsSchema } from '@railwatt/contracts';
import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { startFollowUp } from '../modules/processing/chain.js';
import type { JobDependencies } from './dependencies.js';

/**
 * A follow-up run of the processing chain (modules/processing/chain.ts): starts `procedure` for the
 * period as a new result by the system. While a run of it is under way for an overlapping period
 * the attempt fails (process_already_running) and is tried again every 30 s, 120 times (an hour:
 * longer than a month's run of a large area); after that it waits in `procedure-follow-up__dead`.
 */
export const procedureFollowUpJob = defineJob({
  name: 'procedure-follow-up',
  payload: z.object({
    procedure: procedureNameSchema,
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
    cause: z.string().max(400),
    runOptions: procedureRunOptionsSchema.optional(),
  }),
  retryLimit: 120,
  retryDelaySeconds: 30,
  expireInSeconds: 5 * 60,
  handler: async (ctx, followUp, _run, { chain }: JobDependencies) => {
    const result = await startFollowUp(ctx, followUp, chain.run);
    return `${followUp.procedure} run ${result.id} started for ${followUp.start} .. ${followUp.end}`;
  },
});
