import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { waitForRun } from '../test/jobs.js';
import { scheduleSftpIntake, SFTP_INTAKE_ACTOR, SFTP_INTAKE_JOB } from './sftp-intake.js';

/**
 * The schedule of the automatic intake, as server.ts sets it after app.jobs.start(): pg-boss keeps
 * it in its schedule table; what its cron sends is run by the worker as the system in Administration.
 */
describe('the sftp-intake schedule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
  });
  afterAll(async () => t?.close());

  it('schedules the job on SFTP_INTAKE_CRON as the system in the Administration area, replacing an earlier schedule', async () => {
    const job = t.app.jobs.job(SFTP_INTAKE_JOB);
    expect(await t.app.jobs.schedules(job)).toEqual([]);
    const config = loadConfig({ SFTP_INTAKE_CRON: '*/7 * * * *' });
    expect(await scheduleSftpIntake(t.app.jobs, t.database, config.sftpIntakeCron)).toEqual({
      tenant: t.areaUuid('administration'),
    });
    // A restart with a changed setting: still one schedule, the new expression.
    await scheduleSftpIntake(t.app.jobs, t.database, loadConfig({}).sftpIntakeCron);
    expect(await t.app.jobs.schedules(job)).toEqual([
      {
        key: expect.any(String),
        cron: '*/5 * * * *',
        timeZone: 'UTC',
        envelope: {
          tenant: t.areaUuid('administration'),
          username: SFTP_INTAKE_ACTOR,
          roles: [],
          payload: {},
          scheduled: true,
        },
      },
    ]);
  });

  it('refuses an expression that is not cron, so a typo stops the start rather than the intake', async () => {
    await expect(scheduleSftpIntake(t.app.jobs, t.database, 'every five minutes')).rejects.toThrow();
    expect((await t.app.jobs.schedules(t.app.jobs.job(SFTP_INTAKE_JOB))).map((s) => s.cron)).toEqual(['*/5 * * * *']);
  });

  it('runs what the schedule sends: the worker stores the run in Administration and fetches from every route', async () => {
    const [schedule] = await t.app.jobs.schedules(t.app.jobs.job(SFTP_INTAKE_JOB));
    // What pg-boss's cron does when the expression comes due (its clock checks every 30-60 s).
    const id = await t.app.jobs.boss!.send(SFTP_INTAKE_JOB, schedule!.envelope);
    const run = await waitForRun(t.database, id!, { until: ['success', 'failure', 'dead'] });
    expect(run).toMatchObject({
      name: SFTP_INTAKE_JOB,
      tenant: t.areaUuid('administration'),
      status: 'success',
      message: 'Fetched 0 files from 0 routes',
    });
  });
});
