import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import type { IntakeFormat } from '../../formats/timeseries/format.js';
import { fileBytes, finishFile } from '../datalog/datalog-service.js';
import type { Executor } from '../domain/sql.js';
import { importParsedStream, type IntakeOptions, type IntakeResult, type SeriesSummary } from './intake.js';
import { cebdInputSettings } from './settings.js';

/**
 * Imports a file whose bytes and RUNNING entry are already in the data log (an upload, a file
 * fetched from an SFTP route, a re-import): reads the stored bytes, runs the intake, and writes
 * the outcome and the per-series summaries into the entry. The import job calls this.
 */

/** Chunk size the stored bytes are fed to a parser in (like a file read stream). */
const CHUNK = 64 * 1024;

/** The stored bytes as a stream of chunks, reporting the fraction read. */
export async function* chunksOf(
  bytes: Buffer,
  onProgress?: (fraction: number) => void | Promise<void>,
): AsyncIterable<Buffer> {
  let lastReport = Date.now();
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    yield bytes.subarray(offset, offset + CHUNK);
    if (onProgress && Date.now() - lastReport > 500) {
      lastReport = Date.now();
      await onProgress(Math.min(1, (offset + CHUNK) / bytes.length));
    }
  }
}

export interface ImportStoredFileOptions extends Pick<IntakeOptions, 'storeTrainRuns' | 'now'> {
  onProgress?: (fraction: number) => void | Promise<void>;
}

export async function importStoredFile(
  ctx: ServiceContext,
  dataLogId: number,
  format: IntakeFormat,
  options: ImportStoredFileOptions = {},
): Promise<IntakeResult> {
  const bytes = await fileBytes(ctx.db, ctx.tenant.uuid, dataLogId);
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
  const maxDays = format.name === 'cebd' ? (await cebdInputSettings(ctx)).maxDaysSinceObservation : null;
  const result = await importParsedStream(ctx, format, chunksOf(bytes, options.onProgress), {
    dataLogId,
    maxDaysSinceObservation: maxDays,
    now: options.now,
    storeTrainRuns: options.storeTrainRuns,
  });
  await recordSummaries(ctx.db, dataLogId, result.summaries);
  await finishFile(ctx.db, ctx.tenant.uuid, dataLogId, { status: result.status, text: result.text });
  return result;
}

/** The data log's time-series details of a file (calls.md §3 messageLogTimeSeries), in one INSERT. */
export async function recordSummaries(
  ex: Executor,
  dataLogId: number,
  summaries: readonly SeriesSummary[],
): Promise<void> {
  await ex.execute(sql`DELETE FROM data_log_time_series WHERE data_log_id = ${dataLogId}`);
  if (summaries.length === 0) return;
  const col = <T>(f: (s: SeriesSummary) => T) => sql.param(summaries.map(f));
  await ex.execute(sql`
    INSERT INTO data_log_time_series (data_log_id, start_time, end_time, time_series_type, entity_identifier, values_count, message)
    SELECT ${dataLogId}, s, e, t, i, n, m
      FROM unnest(${col((s) => s.startTime)}::timestamptz[], ${col((s) => s.endTime)}::timestamptz[],
                  ${col((s) => s.timeSeriesType)}::text[], ${col((s) => s.entityIdentifier)}::text[],
                  ${col((s) => s.valuesCount)}::integer[], ${col((s) => s.message)}::text[]) AS x(s, e, t, i, n, m)`);
}
