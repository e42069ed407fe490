import { meSchema, settlementAreaSchema } from '@railwatt/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { me, settlementAreas } from '../../modules/user/service.js';

export interface UserRoutesOptions {
  database: Database;
}

/** Calls the shell needs before an area is chosen: who am I, and which areas may I pick. */
export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, { database }) => {
  app.get(
    '/me',
    {
      config: { access: { roles: 'any', tenant: false } },
      schema: { tags: ['user'], summary: 'The signed-in user', response: { 200: meSchema } },
    },
    async (request) => me(request.auth),
  );

  app.get(
    '/settlementareas',
    {
      config: { access: { roles: 'any', tenant: false } },
      schema: {
        tags: ['user'],
        summary: 'Areas in which the signed-in user holds a market function',
        response: { 200: z.array(settlementAreaSchema) },
      },
    },
    async (request) => settlementAreas(database, request.auth),
  );
};
