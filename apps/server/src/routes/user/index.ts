import { userCalls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.js';
import { me, settlementAreas } from '../../modules/user/service.js';
import { route } from '../register-call.js';

export interface UserRoutesOptions {
  database: Database;
}

/** Calls the shell needs before an area is chosen: who am I, and which areas may I pick. */
export const userRoutes: FastifyPluginAsync<UserRoutesOptions> = async (app, { database }) => {
  route(app, userCalls.me, async (request) => me(request.auth));
  route(app, userCalls.settlementAreas, async (request) => settlementAreas(database, request.auth));
};
