import { configProcedureOf, processingConfigCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../errors.js';
import {
  configVersions,
  listConfig,
  listTuSettlement,
  saveConfig,
  saveTuSettlement,
} from '../../modules/processing-config/service.js';
import { route } from '../register-call.js';

const procedureOf = (name: string) => {
  const procedure = configProcedureOf(name);
  if (!procedure) throw ApiError.notFound();
  return procedure;
};

/** Processing configurations (calls.md §7 "Processes and configuration", issue 9 item 2). */
export const processingConfigRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.list, async (request) =>
    listConfig(request.ctx, procedureOf(request.params.procedure), {
      tpa: request.query.tpa,
      ...(request.query.refTime ? { refTime: request.query.refTime } : {}),
    }),
  );
  route(app, calls.save, async (request) =>
    saveConfig(request.ctx, procedureOf(request.params.procedure), request.body),
  );
  route(app, calls.tuSettlement, async (request) => listTuSettlement(request.ctx, request.query.refTime));
  route(app, calls.saveTuSettlement, async (request) =>
    saveTuSettlement(request.ctx, request.params.settlementAreaId, request.body),
  );
  route(app, calls.versions, async (request) => configVersions(request.ctx, request.params.uuid));
};
