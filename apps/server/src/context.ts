import type { AreaKind, Role } from '@railwatt/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { JWTPayload } from 'jose';
import type { MarketFunction } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { Database, Executor, TxExecutor } from './db/client.js';
import { allAreasExecutor, tenantExecutor } from './db/tenant.js';

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

/**
 * The contexts a scheduled round acts in as the system (`username`, no roles), one per settlement
 * area (Administration aside), by name; with `only`, those areas alone. Each is bound to its area
 * (row-level security) as a request's is. What the rounds of delayed tasks, the daily aggregation
 * and the month-end CEBD re-check loop over.
 */
export async function systemContexts(
  database: Database,
  round: { username: string; log: FastifyBaseLogger; why: string },
  only?: readonly string[],
): Promise<ServiceContext[]> {
  const found = await allAreasExecutor(database, round.why).execute(
    sql`SELECT uuid, name, kind, time_zone AS "timeZone" FROM settlement_area
         WHERE kind <> 'administration' AND (${only === undefined} OR uuid = ANY(${sql.param([...(only ?? [])])}::uuid[]))
         ORDER BY name`,
  );
  return (found.rows as unknown as TenantContext[]).map((tenant) => ({
    db: tenantExecutor(database, tenant.uuid),
    tenant,
    actor: { username: round.username, roles: [], areaKind: tenant.kind },
    log: round.log,
  }));
}
