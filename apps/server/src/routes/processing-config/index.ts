import {
  PROCESSING_CONFIG_READERS,
  PROCESSING_CONFIG_WRITERS,
  configProcedureOf,
  processingConfigCalls as calls,
  rolesInArea,
  type Role,
  type TuSettlementList,
} from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { readContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import { ApiError } from '../../errors.js';
import {
  configVersions,
  listConfig,
  saveConfig,
  saveTuSettlement,
  tuAreas,
  tuSettlementOf,
} from '../../modules/processing-config/service.js';
import { route } from '../register-call.js';

const procedureOf = (name: string) => {
  const procedure = configProcedureOf(name);
  if (!procedure) throw ApiError.notFound();
  return procedure;
};

/** Does the caller hold one of `roles` in the area `uuid` (not just in the request's area)? */
const holdsIn = (request: Pick<FastifyRequest, 'auth'>, uuid: string, roles: readonly Role[]) =>
  rolesInArea(request.auth.functions, uuid).some((r) => roles.includes(r));

export interface ProcessingConfigRoutesOptions {
  database: Database;
}

/**
 * Processing configurations (calls.md §7 "Processes and configuration", issue 9 item 2). The
 * tu-settlement calls name the transmission-unit areas (norway, sweden, denmark) and act in each
 * named area with its own executor, so the configuration lives in the area whose jobs read it; the
 * caller sees the areas where it holds a reading function and saves where it holds a writing one.
 */
export const processingConfigRoutes: FastifyPluginAsync<ProcessingConfigRoutesOptions> = async (app, { database }) => {
  route(app, calls.list, async (request) =>
    listConfig(request.ctx, procedureOf(request.params.procedure), {
      tpa: request.query.tpa,
      ...(request.query.refTime ? { refTime: request.query.refTime } : {}),
    }),
  );
  route(app, calls.save, async (request) =>
    saveConfig(request.ctx, procedureOf(request.params.procedure), request.body),
  );

  const tuList = async (request: FastifyRequest, refTime?: string): Promise<TuSettlementList> => {
    const out: TuSettlementList = [];
    for (const area of await tuAreas(request.ctx))
      if (holdsIn(request, area.uuid, PROCESSING_CONFIG_READERS))
        out.push(await tuSettlementOf(readContext(tenantExecutor(database, area.uuid), area.uuid), area, refTime));
    return out;
  };
  route(app, calls.tuSettlement, async (request) => tuList(request, request.query.refTime));
  route(app, calls.saveTuSettlement, async (request) => {
    const id = request.params.settlementAreaId.toLowerCase();
    if (!(await tuAreas(request.ctx)).some((a) => a.uuid === id))
      throw ApiError.notFound('Not a settlement area of the transmission-unit model');
    if (!holdsIn(request, id, PROCESSING_CONFIG_WRITERS)) throw ApiError.forbidden();
    const ctx = { ...request.ctx, db: tenantExecutor(database, id), tenant: { ...request.ctx.tenant, uuid: id } };
    await saveTuSettlement(ctx, request.body);
    return tuList(request);
  });
  route(app, calls.versions, async (request) => configVersions(request.ctx, request.params.uuid));
};
