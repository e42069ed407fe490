import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { allAreasExecutor } from '../db/tenant.js';
import { rows } from '../modules/domain/sql.js';
import { defineJob, type JobDefinition } from '../modules/jobs/define-job.js';
import type { JobRunner } from '../modules/jobs/runner.js';
import type { RunQueue } from '../modules/processing/service.js';
import { AGGREGATION_SCHEDULE_ACTOR, runScheduledAggregations } from '../modules/settlement/aggregation-schedule.js';

export const METERED_ENERGY_AGGREGATION_SCHEDULE_JOB = 'metered-energy-aggregation-schedule';

/** Daily at 02:00 UTC: the day has begun in every European area, and the night's imports are in. */
export const METERED_ENERGY_AGGREGATION_CRON = '0 2 * * *';

/**
 * The daily first and second aggregation (modules/settlement/aggregation-schedule.ts): starts the
 * metered-energy-aggregation runs of every area that configured the procedure. Made by the app (it
 * needs the database and the run queue); one attempt: tomorrow's round does not make up for today's,
 * a person runs a missed day from the run page.
 */
export const createMeteredEnergyAggregationScheduleJob = (deps: {
  database: Database;
  queue: RunQueue;
}): JobDefinition =>
  defineJob({
    name: METERED_ENERGY_AGGREGATION_SCHEDULE_JOB,
    payload: z.object({}),
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    handler: async (ctx) => {
      const round = await runScheduledAggregations({ ...deps, log: ctx.log });
      const started = round.filter((r) => r.result);
      const skipped = round.filter((r) => r.skipped);
      return `Started ${started.length} metered energy aggregations${
        skipped.length
          ? `; not started: ${skipped.map((r) => `${r.area} ${r.aggregation} ${r.day} (${r.skipped})`).join(', ')}`
          : ''
      }`;
    },
  });

/**
 * Puts the round on its schedule (server.ts, after app.jobs.start()), like the SFTP intake: as the
 * system in the Administration area, where its job_run rows show. Answers the area, or null when
 * there is none (nothing is scheduled then).
 */
export async function scheduleMeteredEnergyAggregation(
  jobs: JobRunner,
  database: Database,
  cron: string = METERED_ENERGY_AGGREGATION_CRON,
): Promise<{ tenant: string } | null> {
  const [area] = await rows<{ uuid: string }>(
    allAreasExecutor(database, 'the Administration area of the scheduled metered-energy-aggregation'),
    sql`SELECT uuid FROM settlement_area WHERE kind = 'administration' ORDER BY uuid LIMIT 1`,
  );
  if (!area) return null;
  await jobs.schedule(
    jobs.job(METERED_ENERGY_AGGREGATION_SCHEDULE_JOB),
    cron,
    {},
    { tenant: area.uuid, username: AGGREGATION_SCHEDULE_ACTOR, roles: [], timeZone: 'UTC' },
  );
  return { tenant: area.uuid };
}
