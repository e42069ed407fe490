import { EXCEL_IMPORT_FIELD, MAX_UPLOAD_FILES } from '@railwatt/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { recordFile } from '../modules/datalog/datalog-service.js';

/** One uploaded file, read whole (the multipart plugin bounds its size). */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
  contentType?: string;
}

/** The @fastify/multipart limits every upload route registers (count and per-file size). */
export const uploadLimits = (maxFileBytes: number) => ({
  files: MAX_UPLOAD_FILES,
  fileSize: maxFileBytes,
  fields: 10,
  parts: MAX_UPLOAD_FILES + 10,
});

/**
 * Reads every file part of a multipart upload (field `files`). Whatever is wrong with the body (the
 * size and count guards of @fastify/multipart, a broken boundary, a truncated part, a file under
 * another field name) is a 400 with a data-log entry of `messageType`; it is the client's input,
 * never a 500. Used by every upload route (Excel domain import, time-series intake).
 */
export async function receiveFiles(
  request: FastifyRequest,
  options: { messageType: string; maxFileBytes: number },
): Promise<UploadedFile[]> {
  if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
  const { maxFileBytes, messageType } = options;
  const files: UploadedFile[] = [];
  let rejected: string | undefined;
  let rejectedName: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      rejectedName = part.filename;
      if (part.fieldname !== EXCEL_IMPORT_FIELD) {
        rejected = `Something is wrong with uploaded data. Send the files in the field "${EXCEL_IMPORT_FIELD}"`;
        // The rest of the body is not read; the request is answered at once.
        part.file.resume();
        break;
      }
      const bytes = await part.toBuffer();
      files.push({ fileName: part.filename, bytes, contentType: part.mimetype });
      rejectedName = null;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      rejected = `The file ${rejectedName ?? ''} is larger than ${(maxFileBytes / 1_000_000).toFixed(1)} MB`;
    } else if (code === 'FST_FILES_LIMIT') {
      rejected = `At most ${MAX_UPLOAD_FILES} files can be uploaded at once`;
    } else if (
      code === 'FST_PARTS_LIMIT' ||
      code === 'FST_FIELDS_LIMIT' ||
      code === 'FST_INVALID_MULTIPART_CONTENT_TYPE'
    ) {
      rejected = 'Something is wrong with uploaded data';
    } else {
      // busboy's own errors ('Unexpected end of form', 'Malformed part header', 'Boundary not
      // found' ...) carry no code: the body is not well-formed multipart.
      request.log.info({ err: error }, 'malformed multipart body');
      rejected = `Something is wrong with uploaded data. The multipart body is malformed: ${
        error instanceof Error ? error.message : 'unreadable'
      }`;
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
