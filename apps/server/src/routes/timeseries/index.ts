import multipart from '@fastify/multipart';
import {
  LIST_LIMITS,
  TENANT_NAME_HEADER,
  TIME_SERIES_TYPE_NAMES,
  TIME_SERIES_TYPES,
  timeSeriesCalls as calls,
  type TimeSeriesUploadResult,
} from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { FormatName } from '../../formats/timeseries/format.js';
import { acceptFiles, messageTypeOf, type ImportQueue } from '../../modules/timeseries/accept.js';
import { exportTimeSeries } from '../../modules/timeseries/export.js';
import { cebdInputSettings, saveCebdInputSettings } from '../../modules/timeseries/settings.js';
import { runSftpIntake, type SftpIntakeDeps } from '../../modules/interface/intake-run.js';
import { route } from '../register-call.js';
import { storeUploadedFiles, uploadLimits } from '../upload.js';

export interface TimeSeriesRoutesOptions {
  /** Largest time-series file, in bytes (config.timeSeriesImportMaxFileBytes). */
  maxFileBytes: number;
  /** Where accepted files go: the import job (jobs/timeseries-import.ts). */
  queue: ImportQueue;
  /** What GET /integration/prices/import-prices fetches with (the automatic intake's parts). */
  sftpIntake: Omit<SftpIntakeDeps, 'log'>;
}

/**
 * calls.md §7 "Files" and "Time series" (declared in contracts calls/timeseries.ts): every upload
 * stores its files with a RUNNING data-log entry and hands each to the import job, answering at once
 * (`async: true`: the dialog shows finished_async and follows the job); types, export and the
 * CEBD input settings.
 */
export const timeSeriesRoutes: FastifyPluginAsync<TimeSeriesRoutesOptions> = async (app, options) => {
  await app.register(multipart, { limits: uploadLimits(options.maxFileBytes) });

  const upload =
    (format: FormatName) =>
    async (request: FastifyRequest): Promise<TimeSeriesUploadResult> => {
      // Streamed into the data log as it arrives (no copy of the file in memory), then queued.
      const files = await storeUploadedFiles(request, {
        messageType: messageTypeOf(format),
        maxFileBytes: options.maxFileBytes,
      });
      return acceptFiles(request.ctx, files, format, options.queue);
    };

  route(app, calls.cebdImport, async (request) => {
    // The header names the settlement area a data collecting service sends for; the area itself is
    // the current-tenant-id the access hook resolved, so the two must agree.
    const named = request.headers[TENANT_NAME_HEADER];
    if (
      typeof named === 'string' &&
      named.trim() !== '' &&
      named.trim().toLowerCase() !== request.tenant.name.toLowerCase()
    ) {
      throw ApiError.badRequest(
        'invalid_input',
        `The ${TENANT_NAME_HEADER} header names ${named}, not the selected area ${request.tenant.name}`,
      );
    }
    return upload('cebd')(request as FastifyRequest);
  });
  route(app, calls.excelImport, async (request) => upload('xlsx')(request as FastifyRequest));
  route(app, calls.csvImport, async (request) => upload('csv')(request as FastifyRequest));
  route(app, calls.ediImport, async (request) => upload('utilts')(request as FastifyRequest));
  route(app, calls.sdvImport, async (request) => upload('sdv')(request as FastifyRequest));
  route(app, calls.trainRunImport, async (request) => upload('trainrun')(request as FastifyRequest));
  route(app, calls.nordpoolImport, async (request) => upload('nordpool')(request as FastifyRequest));

  // Prices waiting on the enabled NORDPOOL routes, for the caller's area: fetched now, imported by
  // jobs. At most as many files as the answer lists ids for; more wait for the next call or the
  // scheduled intake.
  route(app, calls.importPrices, async (request) => {
    const summary = await runSftpIntake(
      { ...options.sftpIntake, log: request.log },
      { interfaceTypes: ['NORDPOOL'], areas: [request.tenant.kind.toLowerCase()], maxFiles: LIST_LIMITS.small },
    );
    const failures = summary.routes
      .filter((r) => r.outcome.error)
      .map((r) => ({ errorMessage: `${r.routeId}: ${r.outcome.error}`, type: 'Route' }));
    return {
      success: failures.length === 0,
      async: summary.jobIds.length > 0,
      dataLogIds: summary.dataLogIds,
      jobIds: summary.jobIds,
      sheetParseResults: failures.length ? [{ sheetName: 'NORDPOOL', type: 'Route', rowsRead: 0, failures }] : [],
    };
  });

  route(app, calls.types, async () =>
    TIME_SERIES_TYPE_NAMES.map((typeName) => {
      const info = TIME_SERIES_TYPES[typeName];
      return { typeName, refKind: info.refKind, unit: info.unit, resolution: info.resolution, source: info.source };
    }),
  );

  route(app, calls.export, async (request, reply) => {
    const file = await exportTimeSeries(request.ctx, request.body);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.bytes);
  });

  route(app, calls.cebdInputMaxDays, async (request) => cebdInputSettings(request.ctx));
  route(app, calls.cebdInputSave, async (request) => saveCebdInputSettings(request.ctx, request.body));
};
