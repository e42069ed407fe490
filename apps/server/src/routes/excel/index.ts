import multipart from '@fastify/multipart';
import { excelCalls, processingCalls } from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { MESSAGE_TYPES } from '../../modules/datalog/datalog-service.js';
import {
  exportDomainEntities,
  exportMasterdata,
  exportOrganisations,
  type ExportedFile,
} from '../../modules/excel/export-service.js';
import { importDomainFiles } from '../../modules/excel/import-service.js';
import { exportProcessingEvents } from '../../modules/processing/events-export.js';
import { createWorkbookPool } from '../../workers/workbook-pool.js';
import { route } from '../register-call.js';
import { receiveFiles, uploadLimits } from '../upload.js';

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
  await app.register(multipart, { limits: uploadLimits(maxFileBytes) });
  // Workbooks are read in a worker thread, so a 50,000-row import does not stop other requests.
  const workbooks = createWorkbookPool();
  app.addHook('onClose', () => workbooks.close());

  const receive = (request: FastifyRequest, messageType: string = MESSAGE_TYPES.excelDomainImport) =>
    receiveFiles(request, { messageType, maxFileBytes });

  route(app, excelCalls.domainImport, async (request) => {
    const files = await receive(request);
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
    const messageType = MESSAGE_TYPES.excelOrganisationImport;
    const files = await receive(request, messageType);
    return importDomainFiles(request.ctx, files, {
      readWorkbook: (task) => workbooks.read(task),
      kinds: ['organisation'],
      messageType,
    });
  });

  route(app, excelCalls.organisationExport, async (request, reply) =>
    sendFile(reply, await exportOrganisations(request.ctx, request.body)),
  );
  // events.xlsx under the Files prefix; the same file as POST /eventlog/processingevent/export.
  route(app, processingCalls.excelEventExport, async (request, reply) =>
    sendFile(reply, await exportProcessingEvents(request.ctx, request.query, request.body)),
  );
};
