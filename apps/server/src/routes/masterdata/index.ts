import { dataLogCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.js';
import { allAreasExecutor } from '../../db/tenant.js';
import {
  administratorAreas,
  downloadMasterData,
  listMasterDataLog,
  masterDataStatuses,
  masterDataTypes,
} from '../../modules/datalog/service.js';
import { sendStoredFile } from '../eventlog/send-file.js';
import { route } from '../register-call.js';

export interface MasterDataRoutesOptions {
  database: Database;
}

/**
 * calls.md §7 "Master-data data log". Master-data mode is the administrator's view across areas
 * (product.md §1), so these calls cross areas explicitly: the all-areas executor, narrowed in SQL
 * to the areas where the caller holds erex-administrator (the policy already requires it in the
 * area of the request).
 */
export const masterDataRoutes: FastifyPluginAsync<MasterDataRoutesOptions> = async (app, { database }) => {
  const allAreas = allAreasExecutor(database, 'master-data data log: the administrator across its areas');
  route(app, calls.masterDataList, async (request) =>
    listMasterDataLog(allAreas, administratorAreas(request.auth.functions), request.query),
  );
  route(app, calls.masterDataTypes, async () => masterDataTypes());
  route(app, calls.masterDataStatuses, async () => masterDataStatuses());
  route(app, calls.masterDataDownload, async (request, reply) =>
    sendStoredFile(
      reply,
      await downloadMasterData(
        allAreas,
        administratorAreas(request.auth.functions),
        request.query.id,
        request.query.downloadContentType,
      ),
    ),
  );
};
