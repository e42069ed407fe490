import type { AreaKind, Role } from '@railwatt/contracts';
import pino from 'pino';
import type { ServiceContext, TenantContext } from '../context.js';
import type { TxExecutor } from '../modules/domain/sql.js';

/**
 * A ServiceContext for tests that call services directly, as the access hook would build it for
 * `actor` in the area `tenantUuid` (Finland, a country area, unless the actor names another kind).
 */
export const serviceContext = (
  db: TxExecutor,
  tenantUuid: string,
  actor: { username: string; roles: readonly Role[]; areaKind?: AreaKind } = { username: 'test', roles: [] },
  tenant: Partial<Omit<TenantContext, 'uuid'>> = {},
): ServiceContext => ({
  db,
  tenant: {
    uuid: tenantUuid,
    name: tenantUuid,
    kind: actor.areaKind ?? 'finland',
    timeZone: 'Europe/Berlin',
    ...tenant,
  },
  actor: { ...actor, roles: [...actor.roles] },
  log: pino({ level: 'silent' }),
});
