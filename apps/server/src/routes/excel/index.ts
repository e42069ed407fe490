import multipart from '@fastify/multipart';
import { excelCalls, MAX_UPLOAD_FILES } from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { MESSAGE_TYPES, recordFile } from '../../modules/datalog/datalog-service.js';
import { actorInTenantOf, actorOf } from '../../plugins/access.js';
import { exportDomainEntities, exportMasterdata, type ExportedFile } from '../../modules/excel/export-service.js';
import { importDomainFiles, type ImportFile } from '../../modules/excel/import-service.js';
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
  const { database } = options;
  const { maxFileBytes } = options;
  await app.register(multipart, {
    limits: { files: MAX_UPLOAD_FILES, fileSize: maxFileBytes, fields: 10, parts: MAX_UPLOAD_FILES + 10 },
  });

  /** Reads every file part; the size and count guards of @fastify/multipart become 400s with a data-log entry. */
  async function receiveFiles(request: FastifyRequest): Promise<ImportFile[]> {
    const files: ImportFile[] = [];
    let rejected: string | undefined;
    let rejectedName: string | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        rejectedName = part.filename;
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
      } else throw error;
    }
    if (rejected) {
      // The entry records the refusal; the bytes of a refused upload are not kept.
      await recordFile(database, {
        tenant: request.tenant.uuid,
        username: request.auth.username,
        messageType: MESSAGE_TYPES.excelDomainImport,
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
    return importDomainFiles(
      database,
      {
        tenant: request.tenant.uuid,
        timeZone: request.tenant.timeZone,
        actor: actorOf(request),
      },
      files,
    );
  });

  route(app, excelCalls.domainExport, async (request, reply) =>
    sendFile(reply, await exportDomainEntities(database, actorInTenantOf(request), request.body)),
  );

  route(app, excelCalls.masterdataExport, async (request, reply) =>
    sendFile(reply, await exportMasterdata(database, actorInTenantOf(request), request.body)),
  );
};
