import { z } from 'zod';
import { defineJob, type JobDefinition } from '../modules/jobs/define-job.js';
import { deliverAggregationFiles, type DeliverySettings } from '../modules/settlement/aggregation-delivery.js';

export const METERED_ENERGY_DELIVERY_JOB = 'metered-energy-delivery';

/**
 * Uploads metered-energy-aggregation files to their OUT routes (modules/settlement/
 * aggregation-delivery.ts), queued by a run once its chunk committed and by a re-export. A failed
 * upload is an outcome (the entry becomes ERROR, a person re-exports it), not a failed attempt; an
 * attempt that dies (the process stopped) is retried and delivers only the entries still PENDING.
 * Made by the app: it needs the credentials key and INTERFACE_ALLOWED_HOSTS.
 */
export const createMeteredEnergyDeliveryJob = (deps: DeliverySettings): JobDefinition =>
  defineJob({
    name: METERED_ENERGY_DELIVERY_JOB,
    payload: z.object({ dataLogIds: z.array(z.number().int().positive()).min(1).max(10_000) }),
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 30 * 60,
    handler: async (ctx, { dataLogIds }) => {
      const s = await deliverAggregationFiles(ctx, deps, dataLogIds);
      return `${s.delivered} files delivered, ${s.failed} failed, ${s.notDelivered} without a route`;
    },
  });
