import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { allAreasExecutor } from '../db/tenant.js';
import { rows } from '../modules/domain/sql.js';
import { defineJob, type JobDefinition } from '../modules/jobs/define-job.js';
import type { JobRunner } from '../modules/jobs/runner.js';
import { runSftpIntake, type SftpIntakeDeps } from '../modules/interface/intake-run.js';

export const SFTP_INTAKE_JOB = 'sftp-intake';

/**
 * Automatic intake (issue 8 item 5): on its schedule, fetches the files waiting on every enabled
 * IN route and queues each for the time-series import. Made by the app (it needs the database,
 * the credentials key and the import queue); one attempt, no retry: the next run fetches whatever
 * this one left.
 */
export const createSftpIntakeJob = (deps: Omit<SftpIntakeDeps, 'log'>): JobDefinition =>
  defineJob({
    name: SFTP_INTAKE_JOB,
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

/** Who the scheduled runs act as: the system, no roles (the intake reads routes across areas itself). */
export const SFTP_INTAKE_ACTOR = 'system';

/**
 * Puts the automatic intake on its schedule (server.ts, after app.jobs.start()): runs of the job
 * registered by the app, on `cron` (UTC), as the system in the Administration area, where their
 * job_run rows show. Replaces an earlier schedule, so a changed SFTP_INTAKE_CRON takes effect at the
 * next start. pg-boss refuses an invalid expression here, so a typo stops the start instead of
 * leaving the intake silently off. Answers the area the runs act in, or null when there is no
 * Administration area to put them in (nothing is scheduled then).
 */
export async function scheduleSftpIntake(
  jobs: JobRunner,
  database: Database,
  cron: string,
): Promise<{ tenant: string } | null> {
  const [area] = await rows<{ uuid: string }>(
    allAreasExecutor(database, 'the Administration area of the scheduled SFTP intake'),
    sql`SELECT uuid FROM settlement_area WHERE kind = 'administration' ORDER BY uuid LIMIT 1`,
  );
  if (!area) return null;
  await jobs.schedule(
    jobs.job(SFTP_INTAKE_JOB),
    cron,
    {},
    {
      tenant: area.uuid,
      username: SFTP_INTAKE_ACTOR,
      roles: [],
      timeZone: 'UTC',
    },
  );
  return { tenant: area.uuid };
}
