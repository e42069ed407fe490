import multipart from '@fastify/multipart';
import {
  domainExportRequestSchema,
  masterdataExportRequestSchema,
  MAX_UPLOAD_FILES,
  uploadResultSchema,
  type Role,
} from '@railwatt/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';
import { tenantDatabase } from '../../db/tenant.js';
import { ApiError } from '../../errors.js';
import { MESSAGE_TYPES, recordFile } from '../../modules/datalog/datalog-service.js';
import { DOMAIN_READ_ROLES } from '../../modules/domain/policy.js';
import { actorInTenantOf, actorOf } from '../../plugins/access.js';
import { exportDomainEntities, exportMasterdata, type ExportedFile } from '../../modules/excel/export-service.js';
import { importDomainFiles, type ImportFile } from '../../modules/excel/import-service.js';

export interface ExcelRoutesOptions {
  database: Database;
  /** Per-file size limit in bytes (config.excelImportMaxFileBytes). */
  maxFileBytes: number;
}

/** Who may upload domain workbooks (issue 3); what each may write is decided per kind by the domain policy. */
export const EXCEL_IMPORT_ROLES: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'vehicle-keeper',
  'cp-admin',
  'exchange-operator',
  'erex-settlement-operator',
];

const sendFile = (reply: FastifyReply, file: ExportedFile) =>
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.bytes);

/** calls.md §7 "Files": domain workbook import and export, fleet master data export. */
export const excelRoutes: FastifyPluginAsyncZod<ExcelRoutesOptions> = async (app, options) => {
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
      await recordFile(tenantDatabase(database, request.tenant.uuid), {
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

  app.post(
    '/domain/import',
    {
      config: { access: { roles: EXCEL_IMPORT_ROLES } },
      schema: {
        tags: ['excel'],
        summary: 'Import domain workbooks (multipart, up to 5 files, one sheet per entity type)',
        consumes: ['multipart/form-data'],
        response: { 200: uploadResultSchema },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw ApiError.badRequest('invalid_input', 'Send the files as multipart/form-data');
      const files = await receiveFiles(request);
      return importDomainFiles(
        tenantDatabase(database, request.tenant.uuid),
        {
          tenant: request.tenant.uuid,
          timeZone: request.tenant.timeZone,
          actor: actorOf(request),
        },
        files,
      );
    },
  );

  app.post(
    '/domain/export',
    {
      config: { access: { roles: DOMAIN_READ_ROLES } },
      schema: {
        tags: ['excel'],
        summary: 'Export entities as exportedentities.xlsx (the layout the import reads)',
        body: domainExportRequestSchema,
      },
    },
    async (request, reply) => {
      return sendFile(
        reply,
        await exportDomainEntities(
          tenantDatabase(database, request.tenant.uuid),
          actorInTenantOf(request),
          request.body,
        ),
      );
    },
  );

  app.post(
    '/masterdata/export',
    {
      config: { access: { roles: DOMAIN_READ_ROLES } },
      schema: {
        tags: ['excel'],
        summary: 'Export the fleet master data as masterdata.csv (the fleet filter of POST /domain/fleet, or uuids)',
        body: masterdataExportRequestSchema,
      },
    },
    async (request, reply) => {
      return sendFile(
        reply,
        await exportMasterdata(tenantDatabase(database, request.tenant.uuid), actorInTenantOf(request), request.body),
      );
    },
  );
};
