import { MESSAGE_TYPES, type TimeSeriesUploadResult } from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import type { FormatName } from '../../formats/timeseries/format.js';
import { extensionOf, FORMAT_EXTENSIONS, INTAKE_FORMATS } from '../../formats/timeseries/registry.js';
import { finishFile, startFile } from '../datalog/datalog-service.js';
import { copyFileBytes, type StoredUpload } from '../datalog/file-store.js';
import type { DataLogActionList } from '../datalog/registry.js';

/** Data-log message types of the intake, per format (contracts MESSAGE_TYPES). */
export const FORMAT_MESSAGE_TYPES: Record<FormatName, string> = {
  cebd: MESSAGE_TYPES.cebdImport,
  utilts: MESSAGE_TYPES.utiltsImport,
  sdv: MESSAGE_TYPES.sdvImport,
  xlsx: MESSAGE_TYPES.excelTimeSeriesImport,
  csv: MESSAGE_TYPES.csvTimeSeriesImport,
  nordpool: MESSAGE_TYPES.nordpoolPriceImport,
  // A train-run file may hold corrections and deletes too; it is logged as the input it arrives as.
  trainrun: MESSAGE_TYPES.trainRunInput,
};
export const messageTypeOf = (format: FormatName): string => FORMAT_MESSAGE_TYPES[format];

/** Hands a stored file to the background import; answers the job run's id. */
export interface ImportQueue {
  enqueueImport(ctx: ServiceContext, input: { dataLogId: number; format: FormatName }): Promise<string>;
}

/**
 * The step after every time-series upload stored its files (routes/upload.ts storeUploadedFiles:
 * each with its RUNNING data-log entry and its bytes): each file whose extension and first bytes
 * fit the endpoint's format is queued for the import job; any other is refused at once (its entry
 * REJECTED, its bytes kept for download, a failure in the answer). The answer is `async`: the job
 * completes the entries.
 */
export async function acceptFiles(
  ctx: ServiceContext,
  files: readonly StoredUpload[],
  format: FormatName,
  queue: ImportQueue,
): Promise<TimeSeriesUploadResult> {
  const answer: Required<Pick<TimeSeriesUploadResult, 'dataLogIds' | 'jobIds'>> & TimeSeriesUploadResult = {
    success: true,
    async: true,
    sheetParseResults: [],
    dataLogIds: [],
    jobIds: [],
  };
  for (const file of files) {
    const reader = INTAKE_FORMATS[format];
    const fits =
      reader !== undefined &&
      FORMAT_EXTENSIONS[format].includes(extensionOf(file.fileName)) &&
      reader.detect(file.fileName, file.head);
    if (!fits) {
      const text = `Something is wrong with uploaded data: ${file.fileName} is not a ${format} file (${FORMAT_EXTENSIONS[format].map((e) => `.${e}`).join(', ')})`;
      const id = file.dataLogId;
      await finishFile(ctx.db, ctx.tenant.uuid, id, { status: 'REJECTED', text });
      answer.success = false;
      answer.dataLogIds.push(id);
      answer.sheetParseResults.push({
        sheetName: file.fileName,
        type: 'File',
        rowsRead: 0,
        failures: [{ errorMessage: text, type: 'File' }],
      });
      continue;
    }
    answer.dataLogIds.push(file.dataLogId);
    answer.jobIds.push(await queue.enqueueImport(ctx, { dataLogId: file.dataLogId, format }));
  }
  answer.async = answer.jobIds.length > 0;
  return answer;
}

/**
 * The data log's re-import (calls.md §4) of an intake file, for each intake format's message type:
 * its stored bytes become a new entry, imported like an upload; the original is marked RETRIED,
 * naming the new entry. The app puts them in its table of data-log actions (app.ts).
 */
export function intakeReimporters(queue: ImportQueue): DataLogActionList {
  return (Object.entries(FORMAT_MESSAGE_TYPES) as [FormatName, string][]).map(([format, messageType]) => [
    messageType,
    async (ctx, entry) => {
      const id = await startFile(ctx.db, {
        tenant: ctx.tenant.uuid,
        username: ctx.actor.username,
        messageType,
        fileName: entry.fileName,
        contentType: entry.contentType,
      });
      // The original's parts are copied inside the database; the bytes never pass through here.
      if (!(await copyFileBytes(ctx.db, ctx.tenant.uuid, entry.id, id))) {
        await finishFile(ctx.db, ctx.tenant.uuid, id, { status: 'ERROR', text: 'The original file is not stored' });
        throw new Error(`Data-log entry ${entry.id} has no stored file`);
      }
      await queue.enqueueImport(ctx, { dataLogId: id, format });
      return {
        dataLogId: id,
        messageStatus: 'RETRIED',
        messageText: `Re-imported by ${ctx.actor.username} as entry ${id}`,
      };
    },
  ]);
}
