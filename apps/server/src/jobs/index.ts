import type { JobDefinition } from '../modules/jobs/define-job.js';
import { cebdCheckJob } from './cebd-check.js';
import { procedureFollowUpJob } from './procedure-follow-up.js';
import { procedureRunJob } from './procedure-run.js';
import { timeSeriesImportJob } from './timeseries-import.js';

/**
 * Every background procedure the server runs (ARCHITECTURE.md "Background jobs"): one file per job
 * in this folder, named after it (`defineJob` in modules/jobs/define-job.ts), listed here so the app's
 * job runner creates its queue and works on it.
 */
export const ALL_JOBS: readonly JobDefinition[] = [
  timeSeriesImportJob,
  procedureRunJob,
  procedureFollowUpJob,
  cebdCheckJob,
];
