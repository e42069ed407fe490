import { z } from 'zod';
import type { FormatName } from '../formats/timeseries/format.js';
import { INTAKE_FORMATS } from '../formats/timeseries/registry.js';
import { errorIdOf, userMessage } from '../errors.js';
import { failInterruptedFile, finishFile } from '../modules/datalog/datalog-service.js';
import { defineJob } from '../modules/jobs/define-job.js';
import { queueArrivalCheck } from '../modules/processing/chain.js';
import { importStoredFile } from '../modules/timeseries/import-file.js';
import { valueBatchFor } from '../modules/timeseries/store.js';
import { storeTrainRuns } from '../modules/trainrun/service.js';
import type { JobDependencies } from './dependencies.js';

const FORMAT_NAMES = [
  'cebd',
  'utilts',
  'sdv',
  'xlsx',
  'csv',
  'nordpool',
  'trainrun',
] as const satisfies readonly FormatName[];

/**
 * Imports one stored file (an upload, an SFTP fetch, a re-import): the intake reads its bytes from
 * the data log as a stream, stores it whole or not at all, and writes the outcome and the
 * per-series summaries into the entry. A file refused for its content ends the run as failed
 * without a retry (it would be refused again); an error of ours fails the attempt, which is retried
 * and, in the end, marks the entry ERROR.
 *
 * An import cut off by the process's death is not run again (interrupted: 'fail'): the file is one
 * transaction, so nothing of it was stored, and its entry says FAILED (the start-up's
 * failInterruptedFiles, and onInterrupted here); the job_run ends failure and the pg-boss job is
 * cancelled. Whoever sent it re-imports it from the data log, a new entry. Importing it again on
 * our own would turn an entry the user has seen fail into a success later, and a file that brought
 * the process down (memory) would bring it down again.
 */
export const timeSeriesImportJob = defineJob({
  name: 'timeseries-import',
  payload: z.object({ dataLogId: z.number().int().positive(), format: z.enum(FORMAT_NAMES) }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 60 * 60,
  interrupted: 'fail',
  onInterrupted: (ctx, { dataLogId }) => failInterruptedFile(ctx.db, ctx.tenant.uuid, dataLogId),
  handler: async (ctx, { dataLogId, format }, run, { chain }: JobDependencies) => {
    const reader = INTAKE_FORMATS[format];
    if (!reader) throw new Error(`No reader for the ${format} format`);
    try {
      await run.progress(0, 'Reading the file');
      const result = await importStoredFile(ctx, dataLogId, reader, {
        storeTrainRuns,
        valueBatch: valueBatchFor(run.embedded ? 'pglite' : 'postgres'),
        onProgress: (fraction) => run.progress(Math.min(0.99, fraction), 'Reading and storing'),
      });
      // CEBD that changed stored values is checked at once, as its own job (chain.ts startArrivalCheck:
      // a cebd-preprocessing run of the file's days and consumption points); days already processed
      // further run down the chain again (product.md §4: combine reruns when CEBD arrives after it
      // ran). The file is committed by now. Queuing it may not fail the import (the entry is OK, and a
      // retried import would store nothing new): a failure is logged, and the month-end run checks
      // the records it left unchecked.
      if (format === 'cebd' && result.status === 'OK' && result.counts.inserted + result.counts.superseded > 0) {
        await queueArrivalCheck(ctx, dataLogId, chain).catch((error: unknown) =>
          ctx.log.error({ err: error, dataLogId }, 'CEBD arrival: the check of the file was not queued'),
        );
      }
      return { status: result.status === 'OK' ? 'success' : 'failure', message: result.text };
    } catch (error) {
      // calls.md §8's words for a failure of ours, with the id the log keeps the error under: a
      // database error's message quotes its SQL and parameters, which are not for the data log.
      ctx.log.error({ err: error, dataLogId, errorId: errorIdOf(error) }, 'time-series import failed');
      await finishFile(ctx.db, ctx.tenant.uuid, dataLogId, {
        status: 'ERROR',
        text: `Failed to upload. Ask administrator for help (${userMessage(error)})`,
      });
      throw error;
    }
  },
});
