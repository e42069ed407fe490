import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/** Message statuses (calls.md §4; RUNNING and FAILED are among the "further data-log statuses"). */
export const MESSAGE_STATUSES = ['RUNNING', 'OK', 'ERROR', 'REJECTED', 'PARTLY_REJECTED', 'RETRIED', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Message types written by this codebase; the data-log screens filter on them. */
export const MESSAGE_TYPES = {
  excelDomainImport: 'EXCEL_DOMAIN_IMPORT',
  excelDomainExport: 'EXCEL_DOMAIN_EXPORT',
  masterdataExport: 'MASTERDATA_EXPORT',
  excelOrganisationImport: 'EXCEL_ORGANISATION_IMPORT',
  excelOrganisationExport: 'EXCEL_ORGANISATION_EXPORT',
  interfaceConfigurationExport: 'INTERFACE_CONFIGURATION_EXPORT',
} as const;

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
    sql`INSERT INTO data_log (tenant, message_type, message_status, message_text, file_name, username, destination, file_bytes, content_type)
        VALUES (${file.tenant}::uuid, ${file.messageType}, ${file.status}, ${file.text}, ${file.fileName}, ${file.username},
                ${file.destination ?? null}, ${file.bytes ?? null}, ${file.contentType ?? null})
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
