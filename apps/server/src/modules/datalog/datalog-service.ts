import type { Database } from '../../db/client.js';

/** Message statuses (calls.md §4). */
export const MESSAGE_STATUSES = ['OK', 'ERROR', 'REJECTED', 'PARTLY_REJECTED', 'RETRIED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Message types written by this codebase; the data-log screens filter on them. */
export const MESSAGE_TYPES = {
  excelDomainImport: 'EXCEL_DOMAIN_IMPORT',
  excelDomainExport: 'EXCEL_DOMAIN_EXPORT',
  masterdataExport: 'MASTERDATA_EXPORT',
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

/** Anything with a raw query: the Database itself, or a transaction handle exposing query(). */
type Queryable = Pick<Database, 'query'>;

/**
 * Records one file and its outcome. Call it with the Database (not inside the transaction that
 * stored or failed to store the file's content), so that a rolled-back import is still logged.
 */
export async function recordFile(db: Queryable, file: FileRecord): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO data_log (tenant, message_type, message_status, message_text, file_name, username, destination, file_bytes, content_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      file.tenant,
      file.messageType,
      file.status,
      file.text,
      file.fileName,
      file.username,
      file.destination ?? null,
      file.bytes ?? null,
      file.contentType ?? null,
    ],
  );
  return row!.id;
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
export async function listFiles(db: Queryable, tenant: string, limit = 100): Promise<DataLogEntry[]> {
  return db.query<DataLogEntry>(
    `SELECT id, tenant, log_time_stamp AS "logTimeStamp", message_type AS "messageType",
            message_status AS "messageStatus", message_text AS "messageText", file_name AS "fileName",
            username, destination, content_type AS "contentType", octet_length(file_bytes) AS "fileSize"
       FROM data_log WHERE tenant = $1 ORDER BY log_time_stamp DESC, id DESC LIMIT $2`,
    [tenant, limit],
  );
}

/** The original bytes of an entry, for download and re-import. */
export async function fileBytes(db: Queryable, tenant: string, id: number): Promise<Buffer | null> {
  const [row] = await db.query<{ file_bytes: Buffer | Uint8Array | null }>(
    'SELECT file_bytes FROM data_log WHERE tenant = $1 AND id = $2',
    [tenant, id],
  );
  return row?.file_bytes ? Buffer.from(row.file_bytes) : null;
}
