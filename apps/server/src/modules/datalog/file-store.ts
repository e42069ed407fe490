import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The one owner of a data-log entry's file bytes (ARCHITECTURE.md "Files and the data log"). A file
 * is stored as numbered parts of at most PART_BYTES in `data_log_part` (migration 0330), each part
 * written and read by its own short statement, so no layer ever holds the whole file: not the
 * multipart reader, not the driver's parameter encoding, not PGlite's WebAssembly heap (which grows
 * to its largest message and never shrinks). A 100 MB upload costs a few parts of memory, not
 * seventy copies of the file.
 *
 * Consistency of an entry and its parts: the entry is written first (RUNNING for an upload, or its
 * final status for an export) with `file_size` NULL; the parts follow, each in its own transaction
 * (on PGlite one transaction across an upload would hold the single session for as long as the
 * client takes to send the file); `file_size` is set by the last statement. So `file_size IS NOT
 * NULL` is what "the bytes are stored" means: readers answer null for an entry without it, the
 * import job is queued only after it, and a write that fails half-way removes its parts. Parts a
 * crashed process left behind (size still NULL) are removed at the next start
 * (removeIncompleteFiles, called with failInterruptedFiles).
 *
 * Bytes travel as hex text (`decode(..., 'hex')` / `encode(..., 'hex')`): PGlite's own bytea
 * parameter encoding builds an array of one string per byte, and its bytea parser calls parseInt
 * per byte; hex text costs one string of twice the part's size on both databases.
 */

/**
 * One uploaded file streamed into the data log (routes/upload.ts storeUploadedFiles): its RUNNING
 * entry holds the bytes.
 */
export interface StoredUpload {
  dataLogId: number;
  fileName: string;
  contentType?: string;
  /** The file's first UPLOAD_HEAD_BYTES (what a format's detect reads). */
  head: Buffer;
  size: number;
}

/** Largest part (the migration's CHECK holds the same number). */
export const PART_BYTES = 1024 * 1024;

/** The bytes of a stored file, read part by part on demand. */
export interface StoredFile {
  size: number;
  /** The file's parts in order; each read is one statement. */
  parts(): AsyncIterable<Buffer>;
}

/** Where a file's bytes come from: a whole buffer (exports, small files) or a stream of chunks. */
export type FileSource = Uint8Array | AsyncIterable<Uint8Array>;

async function writePart(ex: Executor, tenant: string, id: number, part: number, bytes: Uint8Array): Promise<void> {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  await ex.execute(
    sql`INSERT INTO data_log_part (data_log_id, part, tenant, bytes)
        VALUES (${id}, ${part}, ${tenant}::uuid, decode(${hex}, 'hex'))`,
  );
}

/** The source cut into parts of exactly PART_BYTES (the last one shorter); never empty parts. */
async function* partsOf(source: FileSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) {
    for (let offset = 0; offset < source.length; offset += PART_BYTES)
      yield source.subarray(offset, offset + PART_BYTES);
    return;
  }
  // Chunks (64 kB from a multipart stream) are gathered into one part-sized buffer: one copy per
  // byte, and the buffer is reused only after its part was written.
  let buffer = Buffer.allocUnsafe(PART_BYTES);
  let filled = 0;
  for await (const chunk of source) {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(PART_BYTES - filled, chunk.length - offset);
      buffer.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === PART_BYTES) {
        yield buffer;
        buffer = Buffer.allocUnsafe(PART_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}

/**
 * Stores the bytes of entry `id` (written by recordFile/startFile without bytes) part by part and
 * sets its size; answers the size. If the source fails (a client that stops sending, an upload over
 * the limit) the parts written so far are removed and the error is rethrown: the entry then has no
 * bytes, and the caller records why.
 */
export async function writeFileBytes(ex: Executor, tenant: string, id: number, source: FileSource): Promise<number> {
  let part = 0;
  let size = 0;
  try {
    for await (const bytes of partsOf(source)) {
      await writePart(ex, tenant, id, part, bytes);
      part += 1;
      size += bytes.length;
    }
    await ex.execute(sql`UPDATE data_log SET file_size = ${size} WHERE tenant = ${tenant}::uuid AND id = ${id}`);
  } catch (error) {
    await removeFileBytes(ex, tenant, id).catch(() => undefined);
    throw error;
  }
  return size;
}

/**
 * Gives entry `to` the bytes of entry `from` (re-import, re-export), part by part inside the
 * database: the bytes never pass through the process. A statement per part, not one for the file:
 * on the embedded database a statement holds the one session (db/embedded-session.ts), and a
 * 100 MB copy would hold it for as long. Answers false when `from` has none.
 */
export async function copyFileBytes(ex: Executor, tenant: string, from: number, to: number): Promise<boolean> {
  const size = await storedFileSize(ex, tenant, from);
  if (size === null) return false;
  const count = Math.ceil(size / PART_BYTES);
  for (let part = 0; part < count; part++) {
    await ex.execute(
      sql`INSERT INTO data_log_part (data_log_id, part, tenant, bytes)
          SELECT ${to}, part, tenant, bytes FROM data_log_part
           WHERE tenant = ${tenant}::uuid AND data_log_id = ${from} AND part = ${part}`,
    );
  }
  await ex.execute(sql`UPDATE data_log SET file_size = ${size} WHERE tenant = ${tenant}::uuid AND id = ${to}`);
  return true;
}

/** Removes an entry's bytes (a refused upload keeps its entry, not its partial bytes). */
export async function removeFileBytes(ex: Executor, tenant: string, id: number): Promise<void> {
  await ex.execute(sql`DELETE FROM data_log_part WHERE tenant = ${tenant}::uuid AND data_log_id = ${id}`);
  await ex.execute(sql`UPDATE data_log SET file_size = NULL WHERE tenant = ${tenant}::uuid AND id = ${id}`);
}

/**
 * At start-up and in every sweep of gone nodes (all-areas executor): parts of files whose writing
 * never finished and whose node is gone (a process that stopped during an upload) are removed; their
 * entries are failed by failInterruptedFiles. A live node's upload keeps its parts.
 */
export async function removeIncompleteFiles(allAreas: Executor): Promise<void> {
  await allAreas.execute(
    sql`DELETE FROM data_log_part p USING data_log d
         WHERE d.id = p.data_log_id AND d.file_size IS NULL AND rw_node_gone(d.node)`,
  );
}

/** The size of an entry's stored file; null when it has none (or its writing has not finished). */
export async function storedFileSize(ex: Executor, tenant: string, id: number): Promise<number | null> {
  const [row] = await rows<{ size: number | null }>(
    ex,
    sql`SELECT file_size AS size FROM data_log WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
  return row?.size ?? null;
}

/** Part `part` of an entry's file (parts are immutable once the size is set). */
async function readPart(ex: Executor, tenant: string, id: number, part: number): Promise<Buffer> {
  const [row] = await rows<{ hex: string }>(
    ex,
    sql`SELECT encode(bytes, 'hex') AS hex FROM data_log_part
         WHERE tenant = ${tenant}::uuid AND data_log_id = ${id} AND part = ${part}`,
  );
  if (!row) throw new Error(`Part ${part} of data-log entry ${id} is missing`);
  return Buffer.from(row.hex, 'hex');
}

/**
 * An entry's stored file, to be read part by part (downloads, the import, SFTP delivery); null when
 * it has none. Each part is read when the consumer asks for it, so a slow client or parser holds
 * one part.
 */
export async function openStoredFile(ex: Executor, tenant: string, id: number): Promise<StoredFile | null> {
  const size = await storedFileSize(ex, tenant, id);
  if (size === null) return null;
  const count = Math.ceil(size / PART_BYTES);
  return {
    size,
    async *parts() {
      for (let part = 0; part < count; part++) yield await readPart(ex, tenant, id, part);
    },
  };
}

/**
 * The whole file in one buffer, only for consumers that need it whole (the zip readers of xlsx
 * files, bounded by the Excel import's limit; small response and aggregation files). One buffer of
 * the file's size, each part copied in once.
 */
export async function readFileBytes(ex: Executor, tenant: string, id: number): Promise<Buffer | null> {
  const file = await openStoredFile(ex, tenant, id);
  return file ? wholeFile(file) : null;
}

export async function wholeFile(file: StoredFile): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(file.size);
  let offset = 0;
  for await (const part of file.parts()) {
    part.copy(whole, offset);
    offset += part.length;
  }
  if (offset !== file.size) throw new Error(`Stored file holds ${offset} bytes, not ${file.size}`);
  return whole;
}

/** A file already in memory (an export's answer, a response file) seen as a StoredFile. */
export const bufferFile = (bytes: Buffer): StoredFile => ({
  size: bytes.length,
  async *parts() {
    if (bytes.length > 0) yield bytes;
  },
});
