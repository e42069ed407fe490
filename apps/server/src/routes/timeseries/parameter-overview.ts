import { parameterOverviewCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  invalidateParameter,
  parameterOverview,
  parameterTypes,
  saveParameter,
} from '../../modules/parameter-overview/service.js';
import { route } from '../register-call.js';

/** The parameter overview (issue 10 item 1; modules/parameter-overview). */
export const parameterOverviewRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.types, async () => parameterTypes());
  route(app, calls.overview, async (request) => parameterOverview(request.ctx, request.query));
  route(app, calls.save, async (request) => saveParameter(request.ctx, request.body));
  route(app, calls.invalidate, async (request) => invalidateParameter(request.ctx, request.body));
};
