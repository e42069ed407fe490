import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import type { IntakeFormat } from '../../formats/timeseries/format.js';
import { finishFile, recordFileTimeSeries } from '../datalog/datalog-service.js';
import { openStoredFile, type StoredFile } from '../datalog/file-store.js';
import { importParsedStream, type IntakeOptions, type IntakeResult } from './intake.js';
import { cebdInputSettings } from './settings.js';

/**
 * Imports a file whose bytes and RUNNING entry are already in the data log (an upload, a file
 * fetched from an SFTP route, a re-import): reads the stored bytes, runs the intake, and writes
 * the outcome and the per-series summaries into the entry. The import job calls this.
 */

/** Chunk size the stored bytes are fed to a parser in (like a file read stream). */
const CHUNK = 64 * 1024;

/**
 * The stored file as a stream of chunks, reporting the fraction read. Its parts are read one at a
 * time as the parser asks (file-store.ts), so the import holds one part, never the whole file.
 */
export async function* chunksOf(
  file: StoredFile,
  onProgress?: (fraction: number) => void | Promise<void>,
): AsyncIterable<Buffer> {
  let lastReport = Date.now();
  let read = 0;
  for await (const part of file.parts()) {
    for (let offset = 0; offset < part.length; offset += CHUNK) {
      const chunk = part.subarray(offset, offset + CHUNK);
      read += chunk.length;
      yield chunk;
      if (onProgress && Date.now() - lastReport > 500) {
        lastReport = Date.now();
        await onProgress(Math.min(1, read / file.size));
      }
    }
  }
}

export interface ImportStoredFileOptions extends Pick<IntakeOptions, 'storeTrainRuns' | 'now' | 'valueBatch'> {
  onProgress?: (fraction: number) => void | Promise<void>;
  /**
   * Replaces the area's maximum days since observation for CEBD; null: no limit. Only the demo seeder
   * passes it (its fixed month of data is older than the limit once the calendar moves on); uploads,
   * SFTP files and re-imports keep the area's rule.
   */
  maxDaysSinceObservation?: number | null;
}

export async function importStoredFile(
  ctx: ServiceContext,
  dataLogId: number,
  format: IntakeFormat,
  options: ImportStoredFileOptions = {},
): Promise<IntakeResult> {
  const bytes = await openStoredFile(ctx.db, ctx.tenant.uuid, dataLogId);
  if (!bytes) {
    const text = 'The file’s bytes are not in the data log; nothing was imported';
    await finishFile(ctx.db, ctx.tenant.uuid, dataLogId, { status: 'ERROR', text });
    return {
      status: 'REJECTED',
      text,
      problems: [],
      summaries: [],
      counts: { inserted: 0, superseded: 0, unchanged: 0 },
      trainRuns: 0,
    };
  }
  const maxDays =
    options.maxDaysSinceObservation !== undefined
      ? options.maxDaysSinceObservation
      : format.name === 'cebd'
        ? (await cebdInputSettings(ctx)).maxDaysSinceObservation
        : null;
  const result = await importParsedStream(ctx, format, chunksOf(bytes, options.onProgress), {
    dataLogId,
    maxDaysSinceObservation: maxDays,
    now: options.now,
    storeTrainRuns: options.storeTrainRuns,
    valueBatch: options.valueBatch,
  });
  // A retried attempt replaces what an earlier one recorded.
  await ctx.db.execute(sql`DELETE FROM data_log_time_series WHERE data_log_id = ${dataLogId}`);
  await recordFileTimeSeries(ctx.db, dataLogId, result.summaries);
  await finishFile(ctx.db, ctx.tenant.uuid, dataLogId, { status: result.status, text: result.text });
  return result;
}
