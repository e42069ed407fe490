import multipart from '@fastify/multipart';
import { EXCEL_IMPORT_FIELD, excelCalls, MAX_UPLOAD_FILES } from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { MESSAGE_TYPES, recordFile } from '../../modules/datalog/datalog-service.js';
import {
  exportDomainEntities,
  exportMasterdata,
  exportOrganisations,
  type ExportedFile,
} from '../../modules/excel/export-service.js';
import { importDomainFiles, type ImportFile } from '../../modules/excel/import-service.js';
import { createWorkbookPool } from '../../workers/workbook-pool.js';
import { route } from '../register-call.js';

export interface ExcelRoutesOptions {
  database: Database;
  /** Per-file size limit in bytes (config.excelImportMaxFileBytes). */
  maxFileBytes: number;
}

const sendFile = (reply: FastifyReply, file: ExportedFile) =>
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.bytes);

/** calls.md §7 "Files" (declared in contracts calls/excel.ts): domain workbook import and export, fleet master data export. */
export const excelRoutes: FastifyPluginAsync<ExcelRoutesOptions> = async (app, options) => {
  const { maxFileBytes } = options;
  await app.register(multipart, {
    limits: { files: MAX_UPLOAD_FILES, fileSize: maxFileBytes, fields: 10, parts: MAX_UPLOAD_FILES + 10 },
  });
  // Workbooks are read in a worker thread, so a 50,000-row import does not stop other requests.
  const workbooks = createWorkbookPool();
  app.addHook('onClose', () => workbooks.close());

  /**
   * Reads every file part. Whatever is wrong with the body (the size and count guards of
   * @fastify/multipart, a broken boundary, a truncated part, a file under another field name) is a
   * 400 with a data-log entry; it is the client's input, never a 500.
   */
  async function receiveFiles(
    request: FastifyRequest,
    messageType: string = MESSAGE_TYPES.excelDomainImport,
  ): Promise<ImportFile[]> {
    const files: ImportFile[] = [];
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

  route(app, excelCalls.domainImport, async (request) => {
    if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
    const files = await receiveFiles(request);
    return importDomainFiles(request.ctx, files, { readWorkbook: (task) => workbooks.read(task) });
  });

  route(app, excelCalls.domainExport, async (request, reply) =>
    sendFile(reply, await exportDomainEntities(request.ctx, request.body)),
  );

  route(app, excelCalls.masterdataExport, async (request, reply) =>
    sendFile(reply, await exportMasterdata(request.ctx, request.body)),
  );

  // Organisations (Administration): the domain import limited to Organisation sheets, and its export.
  route(app, excelCalls.organisationImport, async (request) => {
    if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
    const messageType = MESSAGE_TYPES.excelOrganisationImport;
    const files = await receiveFiles(request, messageType);
    return importDomainFiles(request.ctx, files, {
      readWorkbook: (task) => workbooks.read(task),
      kinds: ['organisation'],
      messageType,
    });
  });

  route(app, excelCalls.organisationExport, async (request, reply) =>
    sendFile(reply, await exportOrganisations(request.ctx, request.body)),
  );
};
