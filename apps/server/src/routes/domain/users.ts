import { userAdminCalls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.js';
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
import { route } from '../register-call.js';

export interface UserDomainRoutesOptions {
  database: Database;
}

/** calls.md §7 "Users" (declared in contracts calls/users.ts; what each may do: modules/user/policy.ts). */
export const userDomainRoutes: FastifyPluginAsync<UserDomainRoutesOptions> = async (app) => {
  route(app, userAdminCalls.save, async (request) =>
    createUser(request.ctx.db, actorInTenantOf(request), request.body),
  );

  route(app, userAdminCalls.edit, async (request) => editUser(request.ctx.db, actorInTenantOf(request), request.body));

  route(app, userAdminCalls.editAll, async (request) =>
    setEnabledForAll(request.ctx.db, actorInTenantOf(request), request.body),
  );

  route(app, userAdminCalls.resetPassword, async (request, reply) => {
    // The answer holds a password: no cache may keep it.
    reply.header('cache-control', 'no-store');
    return resetPassword(request.ctx.db, request.body.username);
  });

  route(app, userAdminCalls.allInTenant, async (request) =>
    usersInTenant(request.ctx.db, request.tenant.uuid, request.body ?? { searchString: '' }, request.query),
  );

  route(app, userAdminCalls.allAcrossTenants, async (request) =>
    usersAcrossTenants(
      request.ctx.db,
      request.body ?? { active: true, inactive: false, searchString: '' },
      request.query,
    ),
  );

  route(app, userAdminCalls.get, async (request) =>
    getUser(request.ctx.db, actorInTenantOf(request), request.params.username),
  );
};
