import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { REPORTS } from '../modules/reports/index.js';
import { REPORT_SCHEDULE_ACTOR, runDueSchedules } from '../modules/report-schedules/service.js';
import type { JobDependencies } from './dependencies.js';

/** Every minute: a schedule's time is a minute of the area's wall clock. */
export const REPORT_SCHEDULE_CRON = '* * * * *';

/**
 * The report schedules' round (issue 20 item 4; modules/report-schedules runDueSchedules): orders
 * every due schedule of every area as a "Scheduled report" entry, as its owner, each made and
 * delivered by its own `report-order` job (which tries a failed delivery again, then ERROR). Runs
 * as the system in the Administration area; one attempt, no retry: a claimed run is ordered or
 * recorded as ERROR, and the next minute takes what is due then.
 */
export const reportScheduleJob = defineJob({
  name: 'report-schedule',
  payload: z.object({}),
  retryLimit: 0,
  expireInSeconds: 5 * 60,
  schedule: { cron: REPORT_SCHEDULE_CRON, actor: REPORT_SCHEDULE_ACTOR },
  handler: async (ctx, _payload, _run, { database, reportQueue }: JobDependencies) => {
    const runs = await runDueSchedules({ database, queue: reportQueue, reports: REPORTS, log: ctx.log });
    const failed = runs.filter((r) => r.error);
    return `Ordered ${runs.length - failed.length} scheduled reports${
      failed.length ? `; not ordered: ${failed.map((r) => `${r.area} ${r.schedule}`).join(', ')}` : ''
    }`;
  },
});
