import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { AGGREGATION_SCHEDULE_ACTOR, runScheduledAggregations } from '../modules/settlement/aggregation-schedule.js';
import type { JobDependencies } from './dependencies.js';

/** Daily at 02:00 UTC: the day has begun in every European area, and the night's imports are in. */
export const METERED_ENERGY_AGGREGATION_CRON = '0 2 * * *';

/**
 * The daily first and second aggregation (modules/settlement/aggregation-schedule.ts): starts the
 * metered-energy-aggregation runs of every area that configured the procedure. Runs as the system in
 * the Administration area, where its job_run rows show. One attempt: tomorrow's round does not make
 * up for today's, a person runs a missed day from the run page.
 */
export const meteredEnergyAggregationScheduleJob = defineJob({
  name: 'metered-energy-aggregation-schedule',
  payload: z.object({}),
  retryLimit: 0,
  expireInSeconds: 15 * 60,
  schedule: { cron: METERED_ENERGY_AGGREGATION_CRON, actor: AGGREGATION_SCHEDULE_ACTOR },
  handler: async (ctx, _payload, _run, { database, chain }: JobDependencies) => {
    const round = await runScheduledAggregations({ database, queue: chain.run, log: ctx.log });
    const started = round.filter((r) => r.result);
    const skipped = round.filter((r) => r.skipped);
    return `Started ${started.length} metered energy aggregations${
      skipped.length
        ? `; not started: ${skipped.map((r) => `${r.area} ${r.aggregation} ${r.day} (${r.skipped})`).join(', ')}`
        : ''
    }`;
  },
});
