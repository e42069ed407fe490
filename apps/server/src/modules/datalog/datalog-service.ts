import { sql } from 'drizzle-orm';
import type { MessageStatus } from '@railwatt/contracts';
import { rows, type Executor } from '../domain/sql.js';

/** Declared in contracts (datalog.ts), so the screens, the filters and the action rules share them. */
export { MESSAGE_STATUSES, MESSAGE_TYPES, type MessageStatus } from '@railwatt/contracts';

export interface FileRecord {
  tenant: string;
  username: string;
  messageType: string;
  status: MessageStatus;
  text: string | null;
  fileName: string | null;
  bytes?: Buffer | null;
  contentType?: string | null;
  destination?: string | null;
  /** The settlement filter's baseId and trainId (train runs, settlement bases). */
  baseId?: string | null;
  trainId?: string | null;
  /** The response file of an export (RES_ download, master-data RESPONSE). */
  response?: { fileName: string; bytes: Buffer; contentType?: string | null } | null;
  /** MANUAL (default) or SUBSCRIPTION (master-data transfers pushed by a subscription). */
  mode?: 'MANUAL' | 'SUBSCRIPTION';
}

/**
 * Every function here runs on the executor it is given: the request's area-bound executor
 * (request.ctx.db), never a transaction that may roll back the work the entry describes. An entry
 * must outlive a rolled-back import, so callers write it outside the import's store transaction.
 */

/** Records one file with its final outcome (exports, refusals before any work starts). */
export async function recordFile(ex: Executor, file: FileRecord): Promise<number> {
  const [row] = await rows<{ id: number }>(
    ex,
    sql`INSERT INTO data_log (tenant, message_type, message_status, message_text, file_name, username, destination,
                          file_bytes, content_type, base_id, train_id, response_file_name, response_bytes,
                          response_content_type, mode)
        VALUES (${file.tenant}::uuid, ${file.messageType}, ${file.status}, ${file.text}, ${file.fileName}, ${file.username},
                ${file.destination ?? null}, ${file.bytes ?? null}, ${file.contentType ?? null}, ${file.baseId ?? null},
                ${file.trainId ?? null}, ${file.response?.fileName ?? null}, ${file.response?.bytes ?? null},
                ${file.response?.contentType ?? null}, ${file.mode ?? 'MANUAL'})
        RETURNING id`,
  );
  return Number(row!.id);
}

/**
 * Records a file whose processing starts now (status RUNNING, with its bytes), before any parsing:
 * a crash while the file is processed leaves this entry, which failInterruptedFiles turns into
 * FAILED at the next start.
 */
export function startFile(ex: Executor, file: Omit<FileRecord, 'status' | 'text'>): Promise<number> {
  return recordFile(ex, { ...file, status: 'RUNNING', text: null });
}

/** The outcome of a file startFile recorded. */
export async function finishFile(
  ex: Executor,
  tenant: string,
  id: number,
  outcome: { status: Exclude<MessageStatus, 'RUNNING'>; text: string },
): Promise<void> {
  await ex.execute(
    sql`UPDATE data_log SET message_status = ${outcome.status}, message_text = ${outcome.text}
         WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
}

export const INTERRUPTED_TEXT = 'The server stopped while the file was being processed; nothing of it was stored';

/**
 * At start-up: entries still RUNNING were being processed by a process that is gone (an import is
 * one request and one transaction, so nothing of the file was stored). They become FAILED. This
 * spans every area; the caller passes the explicit all-areas executor (db/tenant.ts). One process
 * serves the API today; with several, this must only claim entries of processes that are gone.
 */
export async function failInterruptedFiles(allAreas: Executor): Promise<number> {
  const failed = await rows<{ id: number }>(
    allAreas,
    sql`UPDATE data_log
           SET message_status = 'FAILED',
               message_text = ${INTERRUPTED_TEXT}
         WHERE message_status = 'RUNNING'
     RETURNING id`,
  );
  return failed.length;
}

export interface DataLogEntry {
  id: number;
  tenant: string;
  logTimeStamp: string;
  messageType: string;
  messageStatus: string;
  messageText: string | null;
  fileName: string | null;
  username: string | null;
  destination: string | null;
  contentType: string | null;
  fileSize: number | null;
}

/** The entries of a tenant, newest first (for tests now; the data-log screens come later). */
export async function listFiles(ex: Executor, tenant: string, limit = 100): Promise<DataLogEntry[]> {
  return rows<DataLogEntry>(
    ex,
    sql`SELECT id, tenant, log_time_stamp AS "logTimeStamp", message_type AS "messageType",
               message_status AS "messageStatus", message_text AS "messageText", file_name AS "fileName",
               username, destination, content_type AS "contentType", octet_length(file_bytes) AS "fileSize"
          FROM data_log WHERE tenant = ${tenant}::uuid ORDER BY log_time_stamp DESC, id DESC LIMIT ${limit}`,
  );
}

/** The original bytes of an entry, for download and re-import. */
export async function fileBytes(ex: Executor, tenant: string, id: number): Promise<Buffer | null> {
  const [row] = await rows<{ file_bytes: Buffer | Uint8Array | null }>(
    ex,
    sql`SELECT file_bytes FROM data_log WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
  return row?.file_bytes ? Buffer.from(row.file_bytes) : null;
}

/** One time series a file carried (calls.md §3 messageLogTimeSeries). */
export interface FileTimeSeries {
  startTime: string | null;
  endTime: string | null;
  timeSeriesType: string | null;
  entityIdentifier: string | null;
  valuesCount: number | null;
  message?: string | null;
}

/** Records the time series of an entry, set-based (one statement for any number of series). */
export async function recordFileTimeSeries(ex: Executor, dataLogId: number, series: readonly FileTimeSeries[]) {
  if (series.length === 0) return;
  const col = <K extends keyof FileTimeSeries>(key: K) => sql.param(series.map((s) => s[key] ?? null));
  await ex.execute(
    sql`INSERT INTO data_log_time_series
          (data_log_id, start_time, end_time, time_series_type, entity_identifier, values_count, message)
        SELECT ${dataLogId}, s, e, t, i, n, m
          FROM unnest(${col('startTime')}::timestamptz[], ${col('endTime')}::timestamptz[], ${col('timeSeriesType')}::text[],
                      ${col('entityIdentifier')}::text[], ${col('valuesCount')}::int[], ${col('message')}::text[])
               AS x(s, e, t, i, n, m)`,
  );
}
