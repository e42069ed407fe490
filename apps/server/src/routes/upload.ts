import { EXCEL_IMPORT_FIELD, MAX_UPLOAD_FILES } from '@railwatt/contracts';
import type { FastifyRequest } from 'fastify';
import { findPgError } from '../db/constraints.js';
import { ApiError } from '../errors.js';
import { finishFile, recordFile, startFile } from '../modules/datalog/datalog-service.js';
import { removeFileBytes, writeFileBytes, type StoredUpload } from '../modules/datalog/file-store.js';

/** One uploaded file, read whole (the multipart plugin bounds its size). */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
  contentType?: string;
}

/** How much of a streamed file is kept in memory for format detection. */
export const UPLOAD_HEAD_BYTES = 4096;

/** The @fastify/multipart limits every upload route registers (count and per-file size). */
export const uploadLimits = (maxFileBytes: number) => ({
  files: MAX_UPLOAD_FILES,
  fileSize: maxFileBytes,
  fields: 10,
  parts: MAX_UPLOAD_FILES + 10,
});

/** Room per file for its multipart headers and boundary, over the file's own limit. */
const PART_OVERHEAD_BYTES = 64 * 1024;

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

/**
 * A body longer than the most an upload can carry (MAX_UPLOAD_FILES files at the limit) is refused
 * from its Content-Length, before a byte of it is read. A single file over the limit in a shorter
 * body is stopped by the multipart fileSize limit when the limit is reached.
 */
function bodyTooLarge(request: FastifyRequest, maxFileBytes: number): string | undefined {
  const length = Number(request.headers['content-length']);
  if (!Number.isFinite(length) || length <= MAX_UPLOAD_FILES * (maxFileBytes + PART_OVERHEAD_BYTES)) return undefined;
  return `The upload is larger than ${MAX_UPLOAD_FILES} files of ${megabytes(maxFileBytes)} MB`;
}

/** A file stream the multipart limit cut off (our own check of `truncated`, and the plugin's). */
class FileTooLargeError extends Error {
  readonly code = 'FST_REQ_FILE_TOO_LARGE';
}

/** The refusal for whatever went wrong while reading the multipart body: the client's input, never a 500. */
function refusalFor(request: FastifyRequest, error: unknown, fileName: string | null, maxFileBytes: number): string {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return `The file ${fileName ?? ''} is larger than ${megabytes(maxFileBytes)} MB`;
  if (code === 'FST_FILES_LIMIT') return `At most ${MAX_UPLOAD_FILES} files can be uploaded at once`;
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return 'Something is wrong with uploaded data';
  // busboy's own errors ('Unexpected end of form', 'Malformed part header', 'Boundary not
  // found' ...) carry no code: the body is not well-formed multipart.
  request.log.info({ err: error }, 'malformed multipart body');
  return `Something is wrong with uploaded data. The multipart body is malformed: ${
    error instanceof Error ? error.message : 'unreadable'
  }`;
}

/**
 * An error of a database statement (PostgreSQL's or PGlite's, possibly wrapped by Drizzle) rather
 * than of the multipart reader: it carries a SQLSTATE, or Drizzle wrapped it.
 */
const isStoreError = (error: unknown): boolean =>
  findPgError(error) !== undefined || (error instanceof Error && error.name === 'DrizzleQueryError');

const WRONG_FIELD = `Something is wrong with uploaded data. Send the files in the field "${EXCEL_IMPORT_FIELD}"`;

/**
 * Reads every file part of a multipart upload (field `files`) whole, for consumers that need the
 * whole file in memory (the Excel domain import's zip reader; its limit is 20 MB). Whatever is wrong
 * with the body (the size and count guards of @fastify/multipart, a broken boundary, a truncated
 * part, a file under another field name) is a 400 with a data-log entry of `messageType`; it is the
 * client's input, never a 500.
 */
export async function receiveFiles(
  request: FastifyRequest,
  options: { messageType: string; maxFileBytes: number },
): Promise<UploadedFile[]> {
  if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
  const { maxFileBytes, messageType } = options;
  const files: UploadedFile[] = [];
  let rejected = bodyTooLarge(request, maxFileBytes);
  let rejectedName: string | null = null;
  if (!rejected) {
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        rejectedName = part.filename;
        if (part.fieldname !== EXCEL_IMPORT_FIELD) {
          rejected = WRONG_FIELD;
          // The rest of the body is not read; the request is answered at once.
          part.file.resume();
          break;
        }
        const bytes = await part.toBuffer();
        files.push({ fileName: part.filename, bytes, contentType: part.mimetype });
        rejectedName = null;
      }
    } catch (error) {
      rejected = refusalFor(request, error, rejectedName, maxFileBytes);
    }
  }
  if (rejected) {
    // The entry records the refusal; the bytes of a refused upload are not kept.
    await recordFile(request.ctx.db, {
      tenant: request.tenant.uuid,
      username: request.auth.username,
      messageType,
      status: 'REJECTED',
      text: rejected,
      fileName: rejectedName ?? files.map((f) => f.fileName).join(', '),
    });
    throw ApiError.badRequest('invalid_input', rejected);
  }
  if (files.length === 0) throw ApiError.badRequest('invalid_input', 'No file was uploaded');
  return files;
}

/**
 * Streams every file part of a multipart upload (field `files`) into the data log as it arrives:
 * each file gets its RUNNING entry first and its bytes part by part (file-store.ts), so memory holds
 * one part and the first UPLOAD_HEAD_BYTES, whatever the file's size. The import is queued by the
 * caller only for files stored whole.
 *
 * Refusals are those of receiveFiles (400, the same texts). When the request is refused, every file
 * it carried keeps its entry, REJECTED with the reason, and none keeps any bytes (a file over the
 * limit is cut off by the multipart fileSize limit and its partial parts removed); a body refused
 * from its Content-Length gets one entry without a file name (nothing of it was read).
 */
export async function storeUploadedFiles(
  request: FastifyRequest,
  options: { messageType: string; maxFileBytes: number },
): Promise<StoredUpload[]> {
  if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
  const { maxFileBytes, messageType } = options;
  const { db } = request.ctx;
  const tenant = request.tenant.uuid;
  const stored: StoredUpload[] = [];
  let rejected = bodyTooLarge(request, maxFileBytes);
  let rejectedName: string | null = null;
  // A file refused before its entry was written (wrong field, a broken part header).
  let unrecorded: string | null = null;
  if (!rejected) {
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        rejectedName = part.filename;
        unrecorded = part.filename;
        if (part.fieldname !== EXCEL_IMPORT_FIELD) {
          rejected = WRONG_FIELD;
          part.file.resume();
          break;
        }
        const file: StoredUpload = {
          dataLogId: await startFile(db, {
            tenant,
            username: request.auth.username,
            messageType,
            fileName: part.filename,
            contentType: part.mimetype,
          }),
          fileName: part.filename,
          contentType: part.mimetype,
          head: Buffer.alloc(0),
          size: 0,
        };
        stored.push(file);
        unrecorded = null;
        const stream = part.file;
        file.size = await writeFileBytes(
          db,
          tenant,
          file.dataLogId,
          (async function* () {
            for await (const chunk of stream as AsyncIterable<Buffer>) {
              if (file.head.length < UPLOAD_HEAD_BYTES)
                file.head = Buffer.concat([file.head, chunk.subarray(0, UPLOAD_HEAD_BYTES - file.head.length)]);
              yield chunk;
            }
            // The fileSize limit ends the stream early and marks it truncated.
            if (stream.truncated) throw new FileTooLargeError();
          })(),
        );
        rejectedName = null;
      }
    } catch (error) {
      // The body's faults are the client's (400); the database's are not, and never reach its message.
      if (isStoreError(error)) {
        for (const file of stored) {
          await removeFileBytes(db, tenant, file.dataLogId).catch(() => undefined);
          await finishFile(db, tenant, file.dataLogId, { status: 'ERROR', text: 'Failed to store the upload' }).catch(
            () => undefined,
          );
        }
        throw error;
      }
      rejected = refusalFor(request, error, rejectedName, maxFileBytes);
    }
  }
  if (rejected) {
    if (unrecorded !== null || stored.length === 0) {
      await recordFile(db, {
        tenant,
        username: request.auth.username,
        messageType,
        status: 'REJECTED',
        text: rejected,
        fileName: unrecorded,
      });
    }
    for (const file of stored) {
      await removeFileBytes(db, tenant, file.dataLogId);
      await finishFile(db, tenant, file.dataLogId, { status: 'REJECTED', text: rejected });
    }
    throw ApiError.badRequest('invalid_input', rejected);
  }
  if (stored.length === 0) throw ApiError.badRequest('invalid_input', 'No file was uploaded');
  return stored;
}
