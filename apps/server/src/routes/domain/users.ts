import { userAdminCalls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.js';
import { allAreasExecutor } from '../../db/tenant.js';
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
import type { UserDirectory } from '../../modules/user/keycloak-admin.js';
import { route } from '../register-call.js';

export interface UserDomainRoutesOptions {
  database: Database;
  /** Keycloak's admin API when configured (config.keycloakAdmin); absent: app_user is the directory. */
  directory?: UserDirectory | undefined;
}

/** calls.md §7 "Users" (declared in contracts calls/users.ts; what each may do: modules/user/policy.ts). */
export const userDomainRoutes: FastifyPluginAsync<UserDomainRoutesOptions> = async (app, { database, directory }) => {
  // Users span areas (functions and organisations in several of them; the erex-administrator's
  // lists cover every area), so user management reads and writes across areas on purpose; the
  // user policy (modules/user/policy.ts) decides which areas an actor may touch.
  const usersDb = allAreasExecutor(database);

  route(app, userAdminCalls.save, async (request) =>
    createUser(usersDb, actorInTenantOf(request), request.body, directory),
  );

  route(app, userAdminCalls.edit, async (request) =>
    editUser(usersDb, actorInTenantOf(request), request.body, directory),
  );

  route(app, userAdminCalls.editAll, async (request) =>
    setEnabledForAll(usersDb, actorInTenantOf(request), request.body, directory),
  );

  route(app, userAdminCalls.resetPassword, async (request, reply) => {
    // The answer holds a password: no cache may keep it.
    reply.header('cache-control', 'no-store');
    return resetPassword(usersDb, request.body.username, directory);
  });

  route(app, userAdminCalls.allInTenant, async (request) =>
    usersInTenant(
      usersDb,
      request.tenant.uuid,
      request.body ?? { searchString: '', active: true, inactive: true },
      request.query,
    ),
  );

  route(app, userAdminCalls.allAcrossTenants, async (request) =>
    usersAcrossTenants(usersDb, request.body ?? { active: true, inactive: false, searchString: '' }, request.query),
  );

  route(app, userAdminCalls.get, async (request) =>
    getUser(usersDb, actorInTenantOf(request), request.params.username),
  );
};
