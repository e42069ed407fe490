import { sql } from 'drizzle-orm';
import { TEXT_LIMITS, type MessageStatus } from '@railwatt/contracts';
import { boundedText, storableFileName, storableName } from '../../db/storable-text.js';
import { rows, type Executor } from '../domain/sql.js';
import { removeIncompleteFiles, writeFileBytes, type FileSource } from './file-store.js';

/** Declared in contracts (datalog.ts), so the screens, the filters and the action rules share them. */
export { MESSAGE_STATUSES, MESSAGE_TYPES, type MessageStatus } from '@railwatt/contracts';

export interface FileRecord {
  tenant: string;
  username: string;
  messageType: string;
  status: MessageStatus;
  text: string | null;
  fileName: string | null;
  /** The file's bytes: written part by part after the entry (file-store.ts), never in its INSERT. */
  bytes?: FileSource | null;
  contentType?: string | null;
  destination?: string | null;
  /** The settlement filter's baseId and trainId (train runs, settlement bases). */
  baseId?: string | null;
  trainId?: string | null;
  /** The response file of an export (RES_ download, master-data RESPONSE). */
  response?: { fileName: string; bytes: Buffer; contentType?: string | null } | null;
  /** MANUAL (default) or SUBSCRIPTION (master-data transfers pushed by a subscription). */
  mode?: 'MANUAL' | 'SUBSCRIPTION';
  /**
   * The organisations whose figures the file carries (a metered-energy aggregation's payer, the TPA
   * file's every payer): only an actor that sees them all reads the entry (organisation/visibility.ts).
   * Omitted: a file of the area.
   */
  organisations?: readonly string[] | null;
}

/**
 * Longest message text an entry keeps. The contract allows more (TEXT_LIMITS.message), but a list
 * page holds up to 1,000 entries, and a refusal already names its first problems and counts the rest.
 */
export const MAX_ENTRY_TEXT = 10_000;

/**
 * What a file or a message says, bounded and storable (db/storable-text.ts), at the one place entries
 * are written: no entry's outcome fails to store (it would stay RUNNING), and no stored row fails the
 * list's response schema (it would break the data log of the whole area with a 500).
 */
const entryText = (text: string | null | undefined): string | null =>
  text == null ? null : boundedText(text, MAX_ENTRY_TEXT);
const entryName = (name: string | null | undefined): string | null => (name == null ? null : storableFileName(name));
const entryValue = (value: string | null | undefined, max: number): string | null =>
  value == null ? null : storableName(value, max);

/**
 * Every function here runs on the executor it is given: the request's area-bound executor
 * (request.ctx.db), never a transaction that may roll back the work the entry describes. An entry
 * must outlive a rolled-back import, so callers write it outside the import's store transaction.
 */

/**
 * Records one file with its final outcome (exports, refusals before any work starts). Its bytes, if
 * any, follow the entry part by part (file-store.ts): the entry lists no size until they are all in.
 */
export async function recordFile(ex: Executor, file: FileRecord): Promise<number> {
  const [row] = await rows<{ id: number }>(
    ex,
    sql`INSERT INTO data_log (tenant, message_type, message_status, message_text, file_name, username, destination,
                          content_type, base_id, train_id, response_file_name, response_bytes,
                          response_content_type, mode, organisation_uuids)
        VALUES (${file.tenant}::uuid, ${file.messageType}, ${file.status}, ${entryText(file.text)},
                ${entryName(file.fileName)}, ${file.username}, ${entryValue(file.destination, TEXT_LIMITS.address)},
                ${entryValue(file.contentType, TEXT_LIMITS.name)}, ${entryValue(file.baseId, TEXT_LIMITS.identifier)},
                ${entryValue(file.trainId, TEXT_LIMITS.identifier)}, ${entryName(file.response?.fileName)},
                ${file.response?.bytes ?? null}, ${entryValue(file.response?.contentType, TEXT_LIMITS.name)},
                ${file.mode ?? 'MANUAL'},
                ${file.organisations ? sql`${sql.param([...file.organisations])}::uuid[]` : null})
        RETURNING id`,
  );
  const id = Number(row!.id);
  if (file.bytes) await writeFileBytes(ex, file.tenant, id, file.bytes);
  return id;
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
    sql`UPDATE data_log SET message_status = ${outcome.status}, message_text = ${entryText(outcome.text)}
         WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
}

/** A RUNNING entry's text while it works (a scheduled report waiting to try its delivery again). */
export async function noteRunningFile(ex: Executor, tenant: string, id: number, text: string): Promise<void> {
  await ex.execute(
    sql`UPDATE data_log SET message_text = ${entryText(text)}
         WHERE tenant = ${tenant}::uuid AND id = ${id} AND message_status = 'RUNNING'`,
  );
}

export const INTERRUPTED_TEXT = 'The server stopped while the file was being processed; nothing of it was stored';

/**
 * At start-up and in every sweep of gone nodes (start.ts): entries still RUNNING whose node is gone
 * (rw_node_gone, migration 0390; on PGlite every entry, one process) were being processed by a
 * process that stopped (an import is one request and one transaction, so nothing of the file was
 * stored). They become FAILED; a live node's entries are left alone. This spans every area; the
 * caller passes the explicit all-areas executor (db/tenant.ts).
 */
export async function failInterruptedFiles(allAreas: Executor): Promise<number> {
  // Bytes whose writing a stopped process never finished (an upload cut off) are not kept.
  await removeIncompleteFiles(allAreas);
  const failed = await rows<{ id: number }>(
    allAreas,
    sql`UPDATE data_log
           SET message_status = 'FAILED',
               message_text = ${INTERRUPTED_TEXT}
         WHERE message_status = 'RUNNING' AND rw_node_gone(node)
     RETURNING id`,
  );
  return failed.length;
}

/**
 * One file's import whose process died (the import job's onInterrupted, modules/jobs/recovery.ts):
 * FAILED as above, if it is still RUNNING. An entry with an outcome keeps it: the import finished
 * and only its job's end was not recorded.
 */
export async function failInterruptedFile(ex: Executor, tenant: string, id: number): Promise<void> {
  await ex.execute(
    sql`UPDATE data_log SET message_status = 'FAILED', message_text = ${INTERRUPTED_TEXT}
         WHERE tenant = ${tenant}::uuid AND id = ${id} AND message_status = 'RUNNING'`,
  );
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
               username, destination, content_type AS "contentType", file_size AS "fileSize"
          FROM data_log WHERE tenant = ${tenant}::uuid ORDER BY log_time_stamp DESC, id DESC LIMIT ${limit}`,
  );
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

/**
 * Records the time series of an entry, set-based (one statement for any number of series). The
 * identifier and message come from the file: bounded like the entry's own text.
 */
export async function recordFileTimeSeries(ex: Executor, dataLogId: number, given: readonly FileTimeSeries[]) {
  if (given.length === 0) return;
  const series = given.map((s) => ({
    ...s,
    timeSeriesType: entryValue(s.timeSeriesType, TEXT_LIMITS.identifier),
    entityIdentifier: entryValue(s.entityIdentifier, TEXT_LIMITS.name),
    message: entryText(s.message),
  }));
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
