import { z } from 'zod';
import { defineJob, type JobDefinition } from '../modules/jobs/define-job.js';
import { runSftpIntake, type SftpIntakeDeps } from '../modules/interface/intake-run.js';

/** The schedule of the automatic intake: every five minutes unless SFTP_INTAKE_CRON says otherwise. */
export const DEFAULT_SFTP_INTAKE_CRON = '*/5 * * * *';

/**
 * Automatic intake (issue 8 item 5): on its schedule, fetches the files waiting on every enabled
 * IN route and queues each for the time-series import. Made by the app (it needs the database,
 * the credentials key and the import queue); one attempt, no retry: the next run fetches whatever
 * this one left.
 */
export const createSftpIntakeJob = (deps: Omit<SftpIntakeDeps, 'log'>): JobDefinition =>
  defineJob({
    name: 'sftp-intake',
    payload: z.object({}),
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    handler: async (ctx) => {
      const summary = await runSftpIntake({ ...deps, log: ctx.log });
      const failed = summary.routes.filter((r) => r.outcome.error);
      const message = `Fetched ${summary.dataLogIds.length} files from ${summary.routes.length} routes${
        failed.length ? `; could not read ${failed.map((r) => `${r.routeId} (${r.outcome.error})`).join(', ')}` : ''
      }`;
      return failed.length > 0 && failed.length === summary.routes.length ? { status: 'failure', message } : message;
    },
  });
