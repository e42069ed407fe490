import { CEBD_MONTH_END_CRON, cebdMonthEndJob } from './cebd-month-end.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { waitForRun } from '../test/jobs.js';
import { DELAYED_TASKS_CRON, delayedTasksJob } from './delayed-tasks.js';
import {
  METERED_ENERGY_AGGREGATION_CRON,
  meteredEnergyAggregationScheduleJob,
} from './metered-energy-aggregation-schedule.js';
import { SFTP_INTAKE_ACTOR, sftpIntakeJob } from './sftp-intake.js';
import { NIGHTLY_ALLOCATION_CRON, nightlyAllocationJob } from './nightly-allocation.js';
import { REPORT_SCHEDULE_CRON, reportScheduleJob } from './report-schedule.js';

/**
 * The schedule of the automatic intake, declared on its job and put in place by start.ts after
 * app.jobs.start() (applySchedules): pg-boss keeps it in its schedule table; what its cron sends is
 * run by the worker as the system in Administration.
 */
describe('the sftp-intake schedule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: {}, config: { sftpIntakeCron: '*/7 * * * *' } });
  });
  afterAll(async () => t?.close());

  it('schedules every job that declares a schedule, the intake on SFTP_INTAKE_CRON, as the system in Administration', async () => {
    expect(await t.app.jobs.schedules(sftpIntakeJob)).toEqual([]);
    const expected = [
      { job: sftpIntakeJob.name, cron: '*/7 * * * *' },
      { job: meteredEnergyAggregationScheduleJob.name, cron: METERED_ENERGY_AGGREGATION_CRON },
      { job: delayedTasksJob.name, cron: DELAYED_TASKS_CRON },
      { job: cebdMonthEndJob.name, cron: CEBD_MONTH_END_CRON },
      { job: nightlyAllocationJob.name, cron: NIGHTLY_ALLOCATION_CRON },
      { job: reportScheduleJob.name, cron: REPORT_SCHEDULE_CRON },
    ];
    expect(await t.app.jobs.applySchedules()).toEqual(expected);
    // The next start: still one schedule per job, replaced.
    expect(await t.app.jobs.applySchedules()).toEqual(expected);
    expect(await t.app.jobs.schedules(sftpIntakeJob)).toEqual([
      {
        key: expect.any(String),
        cron: '*/7 * * * *',
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
    const actor = { tenant: t.areaUuid('administration'), username: SFTP_INTAKE_ACTOR, roles: [] };
    await expect(t.app.jobs.schedule(sftpIntakeJob, 'every five minutes', {}, actor)).rejects.toThrow();
    expect((await t.app.jobs.schedules(sftpIntakeJob)).map((s) => s.cron)).toEqual(['*/7 * * * *']);
  });

  it('runs what the schedule sends: the worker stores the run in Administration and fetches from every route', async () => {
    const [schedule] = await t.app.jobs.schedules(sftpIntakeJob);
    // What pg-boss's cron does when the expression comes due (its clock checks every 30-60 s).
    const id = await t.app.jobs.boss!.send(sftpIntakeJob.name, schedule!.envelope);
    const run = await waitForRun(t.database, id!, { until: ['success', 'failure', 'dead'] });
    expect(run).toMatchObject({
      name: sftpIntakeJob.name,
      tenant: t.areaUuid('administration'),
      status: 'success',
      message: 'Fetched 0 files from 0 routes',
    });
  });
});
