import { TENANT_HEADER, holdsFunctionIn, rolesInArea, type AreaKind, type Role } from '@railwatt/contracts';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { allAreasExecutor, tenantExecutor } from '../db/tenant.js';
import { ApiError } from '../errors.js';
import type { ServiceContext, TenantContext } from '../context.js';
import { findRequestAccess } from '../modules/user/repository.js';
import type { AuthContext, TokenVerifier } from './auth.js';

/**
 * Who may call a route (ARCHITECTURE.md "Route access is data"): public, or a bearer token holding
 * one of `roles` ('any' = any signed-in user). `tenant` (default true) requires the
 * `current-tenant-id` header to name an area in which the token holds a function; the roles are
 * then those held in that area.
 */
export type RouteAccess =
  | { public: true }
  | {
      roles: readonly Role[] | 'any';
      tenant?: boolean;
      /** Per-area replacement of `roles` (a named policy's, e.g. organisation writing in the exchange area). */
      areaRoles?: Partial<Record<AreaKind, readonly Role[]>>;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route registered under /api (method, url): the declared-calls test compares it with contracts. */
    apiRoutes: readonly { method: string; url: string; access: RouteAccess }[];
  }
  interface FastifyRequest {
    /** Set on every route that is not public. */
    auth: AuthContext;
    /** Set on routes with tenant access (the default). */
    tenant: TenantContext;
    /** Roles held in the tenant (tenant routes) or anywhere (tenant: false). */
    roles: Role[];
    /** Set on every route that is not public. */
    ctx: ServiceContext;
  }
}

/**
 * Who acts on this request: the signed-in user, the roles held in the tenant and the tenant's kind
 * (the exchange area has its own administration writers), set by the hook below.
 */
export const actorOf = (request: FastifyRequest): { username: string; roles: Role[]; areaKind?: AreaKind } => ({
  username: request.auth.username,
  roles: request.roles,
  ...(request.tenant ? { areaKind: request.tenant.kind } : {}),
});

/** The same, with the area the request acts in (tenant routes only). */
export const actorInTenantOf = (
  request: FastifyRequest,
): { username: string; roles: Role[]; areaKind?: AreaKind; tenant: string } => ({
  ...actorOf(request),
  tenant: request.tenant.uuid,
});

const API_PREFIX = '/api';
const kDefaultAccess = Symbol.for('railwatt.defaultAccess');

type InstanceWithDefault = FastifyInstance & { [kDefaultAccess]?: RouteAccess };

/**
 * Gives routes that a third-party plugin registers in this (encapsulated) scope an access rule,
 * because such plugins (e.g. swagger-ui) cannot put `config.access` on their routes themselves.
 */
export function setDefaultAccess(app: FastifyInstance, access: RouteAccess): void {
  // Decorations are inherited by nested plugin scopes, so the plugin's own child scopes see it too.
  app.decorate(kDefaultAccess, { getter: () => access });
}

const isApiRoute = (url: string): boolean => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export interface AccessPluginOptions {
  database: Database;
  verifyToken: TokenVerifier;
}

export const accessPlugin = fp<AccessPluginOptions>(
  async (app, { database, verifyToken }) => {
    app.decorateRequest('auth', null as unknown as AuthContext);
    app.decorateRequest('tenant', null as unknown as TenantContext);
    app.decorateRequest('roles', null as unknown as Role[]);
    app.decorateRequest('ctx', null as unknown as ServiceContext);

    const apiRoutes: { method: string; url: string; access: RouteAccess }[] = [];
    app.decorate('apiRoutes', { getter: () => apiRoutes });
    const remember = (route: RouteOptions, access: RouteAccess) => {
      for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url, access });
    };

    // Nothing under /api is open by accident: a route without config.access stops the start.
    app.addHook('onRoute', function (this: InstanceWithDefault, route: RouteOptions) {
      if (!isApiRoute(route.url)) return;
      if (route.config?.access) {
        remember(route, route.config.access);
        return;
      }
      const fallback = this[kDefaultAccess];
      if (fallback) {
        route.config = { ...route.config, access: fallback };
        remember(route, fallback);
        return;
      }
      const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
      throw new Error(`Route ${methods} ${route.url} has no config.access (ARCHITECTURE.md "Route access is data")`);
    });

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (!access || 'public' in access) return;

      const token = bearerToken(request);
      if (!token) throw ApiError.unauthorized();
      let auth: AuthContext;
      try {
        auth = await verifyToken(token);
      } catch (error) {
        request.log.debug({ err: error }, 'bearer token rejected');
        throw ApiError.unauthorized();
      }
      request.auth = auth;

      const needsTenant = access.tenant ?? true;
      const header = request.headers[TENANT_HEADER];
      const tenantId =
        needsTenant &&
        typeof header === 'string' &&
        UUID.test(header) &&
        holdsFunctionIn(auth.functions, header.toLowerCase())
          ? header.toLowerCase()
          : undefined;
      // A token outlives a disable (POST /domain/users/edit-all), so every request asks app_user.
      // The question rides along with the tenant's area lookup in one statement (a primary-key and
      // a unique-index probe): tenant routes keep their one query, routes without a tenant get one.
      // A per-username cache would save the probe but must be invalidated in every process that
      // serves the API, and would still let a disabled user in for its lifetime; this has nothing
      // to invalidate. Users app_user does not know (Keycloak users not mirrored) are not refused.
      const { userEnabled, area } = await findRequestAccess(database, auth.username, tenantId);
      if (userEnabled === false) throw ApiError.unauthorized();

      if (needsTenant) {
        if (!tenantId || !area) throw ApiError.forbidden();
        request.tenant = { uuid: area.uuid, name: area.name, kind: area.kind, timeZone: area.timeZone };
        request.roles = rolesInArea(auth.functions, area.uuid);
      } else {
        request.roles = [...new Set(auth.functions.map((f) => f.role))];
      }

      const allowed = (needsTenant ? access.areaRoles?.[request.tenant.kind] : undefined) ?? access.roles;
      if (allowed !== 'any' && !request.roles.some((role) => allowed.includes(role))) {
        throw ApiError.forbidden();
      }
      request.ctx = {
        db: needsTenant ? tenantExecutor(database, request.tenant.uuid) : allAreasExecutor(database),
        tenant: request.tenant,
        actor: actorOf(request),
        log: request.log,
      };
    });
  },
  { name: 'access' },
);
