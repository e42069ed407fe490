import type { AreaKind, Role } from '@railwatt/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { JWTPayload } from 'jose';
import type { MarketFunction } from '@railwatt/contracts';
import type { Executor, TxExecutor } from './db/client.js';

/**
 * The signed-in user of a request, from the token's claims (plugins/auth.ts authFromClaims). It
 * lives here, not in the plugin, so modules need not import a plugin to name it.
 */
export interface AuthContext {
  username: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string;
  functions: MarketFunction[];
  claims: JWTPayload;
}

/** The area a request acts in (the `current-tenant-id` header, resolved by the access hook). */
export interface TenantContext {
  uuid: string;
  name: string;
  kind: AreaKind;
  timeZone: string;
}

/**
 * What a service needs to act for a request (or, later, a job): the executor bound to the area,
 * the area, who acts, and the logger. Built once by the access hook (plugins/access.ts) as
 * `request.ctx`; services take it first: `service(ctx, input)`. It lives here, not in the plugin,
 * so modules need not import a plugin to name it.
 */
export interface ServiceContext {
  /**
   * Tenant routes: bound to the area (row-level security). Routes without a tenant (user
   * management across areas): the explicit all-areas executor.
   */
  db: TxExecutor;
  /** Set on tenant routes only. */
  tenant: TenantContext;
  actor: { username: string; roles: Role[]; areaKind?: AreaKind };
  log: FastifyBaseLogger;
}

/**
 * What reading needs of a context: an executor and the area. A ServiceContext is one; inside a
 * transaction a service passes `{ ...ctx, db: tx }`, and a module that has only an executor and an
 * area uuid passes `{ db, tenant: { uuid } }`.
 */
export interface ReadContext {
  db: Executor;
  tenant: Pick<TenantContext, 'uuid'>;
}

/** The ReadContext of another area than the request's (an area named in the path), with its own executor. */
export const readContext = (db: Executor, uuid: string): ReadContext => ({ db, tenant: { uuid } });
