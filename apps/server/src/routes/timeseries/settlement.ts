import { settlementCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  baseVerification,
  priceAreaBalances,
  settlementHourly,
  settlementLines,
  settlementRecords,
  settlementWarnings,
} from '../../modules/settlement/service.js';
import { route } from '../register-call.js';

/** Settlement and verification reads (issue 10; modules/settlement/service.ts). */
export const settlementRoutes: FastifyPluginAsync = async (app) => {
  route(app, calls.baseVerification, async (request) => baseVerification(request.ctx, request.query));
  route(app, calls.balance, async (request) => priceAreaBalances(request.ctx, request.query));
  route(app, calls.lines, async (request) => settlementLines(request.ctx, request.query.procedureResultId));
  route(app, calls.hourly, async (request) => settlementHourly(request.ctx, request.query));
  route(app, calls.records, async (request) => settlementRecords(request.ctx, request.query));
  route(app, calls.warnings, async (request) => settlementWarnings(request.ctx, request.query.procedureResultId));
};
