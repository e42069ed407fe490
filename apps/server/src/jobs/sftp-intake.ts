import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { runSftpIntake } from '../modules/interface/intake-run.js';
import type { JobDependencies } from './dependencies.js';

/** Who the scheduled runs act as: the system, no roles (the intake reads routes across areas itself). */
export const SFTP_INTAKE_ACTOR = 'system';

/**
 * Automatic intake (issue 8 item 5): on its schedule (SFTP_INTAKE_CRON, read in UTC), fetches the
 * files waiting on every enabled IN route and queues each for the time-series import, as the system
 * in the Administration area, where its job_run rows show. One attempt, no retry: the next run
 * fetches whatever this one left.
 */
export const sftpIntakeJob = defineJob({
  name: 'sftp-intake',
  payload: z.object({}),
  retryLimit: 0,
  expireInSeconds: 15 * 60,
  schedule: { cron: ({ sftpIntake }: JobDependencies) => sftpIntake.cron, actor: SFTP_INTAKE_ACTOR },
  handler: async (ctx, _payload, _run, { sftpIntake }: JobDependencies) => {
    const summary = await runSftpIntake({ ...sftpIntake, log: ctx.log });
    const failed = summary.routes.filter((r) => r.outcome.error);
    const message = `Fetched ${summary.dataLogIds.length} files from ${summary.routes.length} routes${
      failed.length ? `; could not read ${failed.map((r) => `${r.routeId} (${r.outcome.error})`).join(', ')}` : ''
    }`;
    return failed.length > 0 && failed.length === summary.routes.length ? { status: 'failure', message } : message;
  },
});
