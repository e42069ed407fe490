import type { Database } from '../db/client.js';
import type { SftpIntakeDeps } from '../modules/interface/intake-run.js';
import type { ChainQueue } from '../modules/processing/chain.js';
import type { Procedures } from '../modules/processing/define-procedure.js';
import type { DeliverySettings as ReportDeliverySettings } from '../modules/delivery/service.js';
import type { DeliverySettings } from '../modules/settlement/aggregation-delivery.js';
import type { ImportQueue } from '../modules/timeseries/accept.js';
import type { ReportQueue } from '../modules/reports/service.js';

/**
 * What the jobs of this folder work with besides their context, made once by the app (app.ts, from
 * its configuration and its job runner: jobs/index.ts jobDependencies) and passed to every handler
 * and schedule. A job names what it uses from here; nothing is reached by importing the app.
 */
export interface JobDependencies {
  database: Database;
  /** The procedures the `procedure-run` job runs and the chain follows (src/procedures.ts ALL_PROCEDURES). */
  procedures: Procedures;
  /** The chain's queues: a follow-up run, and a procedure result's `procedure-run` job. */
  chain: ChainQueue;
  /** The time-series import's queue (SFTP intake, re-imports). */
  imports: ImportQueue;
  /** The SFTP intake's settings (and the schedule's SFTP_INTAKE_CRON). */
  sftpIntake: Omit<SftpIntakeDeps, 'log'> & { cron: string };
  /** The OUT routes' settings of metered-energy-aggregation's file delivery. */
  delivery: DeliverySettings;
  /** Where report files go (e-mail, FTP, SFTP, web service: modules/delivery deliverySettings). */
  reportDelivery: ReportDeliverySettings;
  /** The report orders' queue (the report-schedule round orders its due schedules here). */
  reportQueue: ReportQueue;
}
