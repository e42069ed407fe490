import {
  pageQuerySchema,
  userEditAllResultSchema,
  userEditAllSchema,
  userPageSchema,
  userResetPasswordResultSchema,
  userResetPasswordSchema,
  userSaveSchema,
  userSchema,
  usernameSchema,
  usersAcrossTenantsFilterSchema,
  usersInTenantFilterSchema,
} from '@railwatt/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { allAreasExecutor } from '../../db/tenant.js';
import { USER_ADMIN_ROLES, USER_AREA_ROLES } from '../../modules/user/policy.js';
import { actorInTenantOf } from '../../plugins/access.js';
import {
  createUser,
  editUser,
  getUser,
  resetPassword,
  setEnabledForAll,
  usersAcrossTenants,
  usersInTenant,
} from '../../modules/user/service.js';

export interface UserDomainRoutesOptions {
  database: Database;
}

const ADMIN = { access: { roles: USER_ADMIN_ROLES } };
const AREA = { access: { roles: USER_AREA_ROLES } };
const tags = ['domain', 'users'];

/** calls.md §7 "Users", served under /api/domain/users (policy: modules/user/policy.ts). */
export const userDomainRoutes: FastifyPluginAsyncZod<UserDomainRoutesOptions> = async (app, { database }) => {
  // Users span areas (functions and organisations in several of them; the erex-administrator's
  // lists cover every area), so user management reads and writes across areas on purpose; the
  // user policy (modules/user/policy.ts) decides which areas an actor may touch.
  const usersDb = allAreasExecutor(database);

  app.post(
    '/save',
    {
      config: AREA,
      schema: {
        tags,
        summary: 'Create a user (no password until reset)',
        body: userSaveSchema,
        response: { 200: userSchema },
      },
    },
    async (request) => createUser(usersDb, actorInTenantOf(request), request.body),
  );

  app.post(
    '/edit',
    {
      config: AREA,
      schema: {
        tags,
        summary: 'Change a user; the listed areas are replaced, others kept',
        body: userSaveSchema,
        response: { 200: userSchema },
      },
    },
    async (request) => editUser(usersDb, actorInTenantOf(request), request.body),
  );

  app.post(
    '/edit-all',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Enable or disable many users',
        body: userEditAllSchema,
        response: { 200: userEditAllResultSchema },
      },
    },
    async (request) => setEnabledForAll(usersDb, actorInTenantOf(request), request.body),
  );

  app.post(
    '/resetPassword',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'A new random password, answered once',
        body: userResetPasswordSchema,
        response: { 200: userResetPasswordResultSchema },
      },
    },
    async (request, reply) => {
      // The answer holds a password: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return resetPassword(usersDb, request.body.username);
    },
  );

  app.post(
    '/all-in-tenant',
    {
      config: AREA,
      schema: {
        tags,
        summary: 'Users with a function in the current area (page zero-based, size default 20)',
        querystring: pageQuerySchema,
        body: usersInTenantFilterSchema.optional(),
        response: { 200: userPageSchema },
      },
    },
    async (request) => usersInTenant(usersDb, request.tenant.uuid, request.body ?? { searchString: '' }, request.query),
  );

  app.post(
    '/all-across-tenants',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Every user, by enabled flag and name search',
        querystring: pageQuerySchema,
        body: usersAcrossTenantsFilterSchema.optional(),
        response: { 200: userPageSchema },
      },
    },
    async (request) =>
      usersAcrossTenants(usersDb, request.body ?? { active: true, inactive: false, searchString: '' }, request.query),
  );

  app.get(
    '/:username',
    {
      config: AREA,
      schema: { tags, params: z.object({ username: usernameSchema }), response: { 200: userSchema } },
    },
    async (request) => getUser(usersDb, actorInTenantOf(request), request.params.username),
  );
};
