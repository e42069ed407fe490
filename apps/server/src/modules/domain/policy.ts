import { rolesExcept, type EntityKind, type Role } from '@railwatt/contracts';

/** Who acts: the signed-in user and the roles held in the tenant. */
export interface Actor {
  username: string;
  roles: readonly Role[];
}

/**
 * Reading domain data and the fleet: every role except the train-run-data-provider; a consumer
 * only when also (audit-)area-responsible (product.md §2 "Fleet excludes consumer unless ..."), which
 * the access hook gives us for free by listing neither role: such a consumer passes through the
 * other role.
 */
export const DOMAIN_READ_ROLES: readonly Role[] = rolesExcept('train-run-data-provider', 'consumer');

/** Option and name lookups (pickers) that any signed-in role in the tenant may use. */
export const DOMAIN_LOOKUP_ROLES = 'any' as const;

/** Roles that may write (save, status change) at all; audit roles are read-only. */
export const DOMAIN_WRITE_ROLES: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'vehicle-keeper',
  'cp-admin',
  'exchange-operator',
];

const FLEET_WRITERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'cp-admin',
  'exchange-operator',
];
const ADMIN_WRITERS: readonly Role[] = ['erex-administrator', 'settlement-area-responsible'];

/** Which roles may write which kind. A vehicle keeper writes only its own organisations' units. */
const KIND_WRITERS: Partial<Record<EntityKind, readonly Role[]>> = {
  tractionunit: [...FLEET_WRITERS, 'vehicle-keeper'],
  consumptionpoint: [...FLEET_WRITERS, 'vehicle-keeper'],
  tractionunittype: [...FLEET_WRITERS, 'vehicle-keeper'],
  motortype: FLEET_WRITERS,
  // product.md §6: export limitations are erex-administrator only.
  exportlimitation: ['erex-administrator'],
  organisation: [...ADMIN_WRITERS, 'cp-admin', 'exchange-operator'],
};

export function mayWriteKind(actor: Actor, kind: EntityKind): boolean {
  const writers = KIND_WRITERS[kind] ?? ADMIN_WRITERS;
  return actor.roles.some((r) => writers.includes(r));
}

/** True when the actor writes fleet data only as a vehicle keeper (restricted to own organisations). */
export function writesOnlyOwnFleet(actor: Actor): boolean {
  return actor.roles.includes('vehicle-keeper') && !actor.roles.some((r) => FLEET_WRITERS.includes(r));
}

/**
 * Roles that act for the whole settlement area rather than for an organisation. For them the fleet's
 * "own data" search modes cover every unit of the area; for the others (vehicle keeper, cp-admin,
 * exchange operator, consumer) "own" means the units of the organisations they belong to.
 */
const AREA_WIDE_ROLES: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
];

export const ownDataIsWholeArea = (actor: Actor): boolean => actor.roles.some((r) => AREA_WIDE_ROLES.includes(r));

/** product.md §6: only the erex-administrator approves traction unit types. */
export const mayApprove = (actor: Actor, kind: EntityKind): boolean =>
  kind !== 'tractionunittype' || actor.roles.includes('erex-administrator');
