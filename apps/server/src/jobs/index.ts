import type { z } from 'zod';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import type { JobDefinition } from '../modules/jobs/define-job.js';
import { cebdCheckJob } from './cebd-check.js';
import { cebdMonthEndJob } from './cebd-month-end.js';
import type { JobRunner } from '../modules/jobs/runner.js';
import type { SftpIntakeDeps } from '../modules/interface/intake-run.js';
import type { Procedures } from '../modules/processing/define-procedure.js';
import { deliverySettings } from '../modules/delivery/service.js';
import type { DeliveryQueue } from '../modules/settlement/aggregation-delivery.js';
import type { ImportQueue } from '../modules/timeseries/accept.js';
import { delayedTasksJob } from './delayed-tasks.js';
import type { JobDependencies } from './dependencies.js';
import { meteredEnergyAggregationScheduleJob } from './metered-energy-aggregation-schedule.js';
import { meteredEnergyDeliveryJob } from './metered-energy-delivery.js';
import { nightlyAllocationJob } from './nightly-allocation.js';
import { procedureFollowUpJob } from './procedure-follow-up.js';
import { procedureRunJob, procedureRunQueue } from './procedure-run.js';
import { reportOrderJob, reportQueue } from './report-order.js';
import { reportScheduleJob } from './report-schedule.js';
import { sftpIntakeJob } from './sftp-intake.js';
import { timeSeriesImportJob } from './timeseries-import.js';

/**
 * Every background procedure the server runs (ARCHITECTURE.md "Background jobs"): one file per job
 * in this folder, named after it, each one `defineJob` (modules/jobs/define-job.ts) with its schedule
 * when it runs by itself; listed here so the app's job runner creates its queue, works on it and
 * puts its schedule in place. What the handlers use is passed in (jobDependencies).
 */
export const ALL_JOBS: readonly JobDefinition<z.ZodType, JobDependencies>[] = [
  timeSeriesImportJob,
  procedureRunJob,
  procedureFollowUpJob,
  sftpIntakeJob,
  meteredEnergyDeliveryJob,
  meteredEnergyAggregationScheduleJob,
  delayedTasksJob,
  cebdCheckJob,
  cebdMonthEndJob,
  nightlyAllocationJob,
  reportOrderJob,
  reportScheduleJob,
];

/** The time-series import's queue (uploads, the SFTP intake, the data log's re-import). */
export const importQueue = (jobs: Pick<JobRunner, 'enqueue'>): ImportQueue => ({
  enqueueImport: (ctx, input) => jobs.enqueue(ctx, timeSeriesImportJob, input, { dataLogId: input.dataLogId }),
});

/** The delivery queue of metered-energy-aggregation's files. */
export const deliveryQueue =
  (jobs: Pick<JobRunner, 'enqueue'>): DeliveryQueue =>
  (ctx, dataLogIds) =>
    jobs.enqueue(ctx, meteredEnergyDeliveryJob, { dataLogIds });

/** The automatic intake's settings from the app's configuration (its job and the import-prices call). */
export const sftpIntakeSettings = (
  config: AppConfig,
  database: Database,
  queue: ImportQueue,
): Omit<SftpIntakeDeps, 'log'> => ({
  database,
  credentialsKey: config.interfaceCredentialsKey,
  allowedHosts: config.interfaceAllowedHosts,
  queue,
  maxFileBytes: config.timeSeriesImportMaxFileBytes,
});

/** What the jobs are given (JobDependencies), from the app's configuration and its job runner. */
export function jobDependencies(
  jobs: Pick<JobRunner, 'enqueue'>,
  app: { config: AppConfig; database: Database; procedures: Procedures },
): JobDependencies {
  const { config, database, procedures } = app;
  const imports = importQueue(jobs);
  return {
    database,
    procedures,
    chain: {
      followUp: (ctx, followUp) => jobs.enqueue(ctx, procedureFollowUpJob, followUp),
      checkFile: (ctx, dataLogId) => jobs.enqueue(ctx, cebdCheckJob, { dataLogId }),
      run: procedureRunQueue(jobs),
    },
    imports,
    sftpIntake: { ...sftpIntakeSettings(config, database, imports), cron: config.sftpIntakeCron },
    delivery: { credentialsKey: config.interfaceCredentialsKey, allowedHosts: config.interfaceAllowedHosts },
    reportDelivery: deliverySettings(config),
    reportQueue: reportQueue(jobs),
  };
}
