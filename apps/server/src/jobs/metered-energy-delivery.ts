import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { deliverAggregationFiles } from '../modules/settlement/aggregation-delivery.js';
import type { JobDependencies } from './dependencies.js';

/**
 * Uploads metered-energy-aggregation files to their OUT routes (modules/settlement/
 * aggregation-delivery.ts), queued by a run once its chunk committed and by a re-export. A failed
 * upload is an outcome (the entry becomes ERROR, a person re-exports it), not a failed attempt; an
 * attempt that dies (the process stopped) is retried and delivers only the entries still PENDING.
 * Its settings (the credentials key, INTERFACE_ALLOWED_HOSTS) are the app's: JobDependencies.delivery.
 */
export const meteredEnergyDeliveryJob = defineJob({
  name: 'metered-energy-delivery',
  payload: z.object({ dataLogIds: z.array(z.number().int().positive()).min(1).max(10_000) }),
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 30 * 60,
  handler: async (ctx, { dataLogIds }, _run, { delivery }: JobDependencies) => {
    const s = await deliverAggregationFiles(ctx, delivery, dataLogIds);
    return `${s.delivered} files delivered, ${s.failed} failed, ${s.notDelivered} without a route`;
  },
});
