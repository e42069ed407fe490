import { dataLogCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  dataLogStatuses,
  dataLogTypes,
  downloadEntry,
  listDataLog,
  reexportEntry,
  reimportEntry,
  reorderEntry,
} from '../../modules/datalog/service.js';
import type { DataLogActions } from '../../modules/datalog/registry.js';
import { route } from '../register-call.js';
import { sendStoredFile } from './send-file.js';

/**
 * calls.md §7 "Data log, settlement" (declared in contracts calls/datalog.ts); `actions` is the app's
 * table of re-import, re-export and re-order work (modules/datalog/registry.ts).
 */
export const eventLogRoutes: FastifyPluginAsync<{ actions: DataLogActions }> = async (app, { actions }) => {
  route(app, calls.list, async (request) => listDataLog(request.ctx, request.query));
  route(app, calls.types, async (request) => dataLogTypes(request.ctx));
  route(app, calls.statuses, async (request) => dataLogStatuses(request.ctx));
  route(app, calls.reimport, async (request) => reimportEntry(request.ctx, actions, request.body));
  route(app, calls.reexport, async (request) => reexportEntry(request.ctx, actions, request.body));
  route(app, calls.reorder, async (request) => reorderEntry(request.ctx, actions, request.body));
  route(app, calls.download, async (request, reply) =>
    sendStoredFile(reply, await downloadEntry(request.ctx, request.body, request.query.response)),
  );
};
