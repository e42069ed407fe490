import {
  ADMINISTRATION_WRITERS,
  ADMINISTRATOR_ONLY,
  AREA_WIDE_ROLES,
  EXCHANGE_AREA_ADMINISTRATION_WRITERS,
  FLEET_WRITERS,
  INFRASTRUCTURE_ENTITY_KINDS,
  INFRASTRUCTURE_WRITERS,
  MOTOR_TYPE_WRITERS,
  OWN_FLEET_ONLY,
  TYPE_APPROVERS,
  UNIT_APPROVERS,
  type AreaKind,
  type EntityKind,
  type Role,
} from '@railwatt/contracts';

/**
 * Who may do what with master data (product.md §6, issue 6 §4). Every role list comes from
 * contracts access-rules.ts; this file only says which list governs which kind and action.
 */

/** Who acts: the signed-in user, the roles held in the tenant and the tenant's kind (exchange area rules). */
export interface Actor {
  username: string;
  roles: readonly Role[];
  /** The kind of the area acted in; unset (seeders, service tests) reads as a country area. */
  areaKind?: AreaKind;
}

/**
 * Kinds with their own writers: the fleet writers (a vehicle keeper only for its own organisations'
 * units), export limitations, the infrastructure entity kinds.
 */
const KIND_WRITERS: Partial<Record<EntityKind, readonly Role[]>> = {
  tractionunit: FLEET_WRITERS,
  consumptionpoint: FLEET_WRITERS,
  tractionunittype: FLEET_WRITERS,
  motortype: MOTOR_TYPE_WRITERS,
  // product.md §6: export limitations are erex-administrator only.
  exportlimitation: ADMINISTRATOR_ONLY,
  // The infrastructure entity kinds (supply metering points, tracks ...): the Infrastructure section's
  // writers in every area, cp-admin and exchange-operator included (access-rules.ts).
  ...Object.fromEntries(INFRASTRUCTURE_ENTITY_KINDS.map((kind) => [kind, INFRASTRUCTURE_WRITERS])),
};

/**
 * Which roles may write which kind in an area of `areaKind`. Organisations (create, retire, change
 * type, export credentials) and every administration kind and infrastructure area belong to the roles
 * that have the Administration section in the area: not cp-admin, vehicle keeper or exchange
 * operator; in the exchange area only the erex-administrator.
 */
export function writersOf(kind: EntityKind, areaKind?: AreaKind): readonly Role[] {
  return (
    KIND_WRITERS[kind] ?? (areaKind === 'exchange' ? EXCHANGE_AREA_ADMINISTRATION_WRITERS : ADMINISTRATION_WRITERS)
  );
}

export function mayWriteKind(actor: Actor, kind: EntityKind): boolean {
  const writers = writersOf(kind, actor.areaKind);
  return actor.roles.some((r) => writers.includes(r));
}

/** True when the actor writes fleet data only as a vehicle keeper (restricted to own organisations). */
export function writesOnlyOwnFleet(actor: Actor): boolean {
  return (
    actor.roles.some((r) => OWN_FLEET_ONLY.includes(r)) &&
    !actor.roles.some((r) => FLEET_WRITERS.includes(r) && !OWN_FLEET_ONLY.includes(r))
  );
}

/**
 * Roles that act for the whole settlement area rather than for an organisation. For them the fleet's
 * "own data" search modes cover every unit of the area; for the others (vehicle keeper, cp-admin,
 * exchange operator, consumer) "own" means the units of the organisations they belong to.
 */
export const ownDataIsWholeArea = (actor: Actor): boolean => actor.roles.some((r) => AREA_WIDE_ROLES.includes(r));

/**
 * Approval for billing, per kind. Traction unit types: only the erex-administrator approves,
 * unapproves or retires an approved one (product.md §6). Traction units: settlement roles, not the
 * vehicle keeper that owns the unit (issue 6 §4: the keeper must not approve its own units for
 * billing). Other kinds: whoever writes the kind.
 */
const APPROVERS: Partial<Record<EntityKind, readonly Role[]>> = {
  tractionunittype: TYPE_APPROVERS,
  tractionunit: UNIT_APPROVERS,
};

export const mayApprove = (actor: Actor, kind: EntityKind): boolean => {
  const approvers = APPROVERS[kind];
  return !approvers || actor.roles.some((r) => approvers.includes(r));
};

/** Whether the kind has an approval that only some writers may give (tractionunittype, tractionunit). */
export const hasGuardedApproval = (kind: EntityKind): boolean => APPROVERS[kind] !== undefined;

export const approvalRefusal = (kind: EntityKind): string =>
  kind === 'tractionunittype'
    ? 'Only the erex-administrator approves, unapproves or retires an approved traction unit type'
    : 'Only settlement roles approve traction units for billing, or change an approved one';

/** Only the erex-administrator connects an organisation to another exchange admin (issue 6 §4). */
export const mayChangeExchangeAdmin = (actor: Actor): boolean =>
  actor.roles.some((r) => ADMINISTRATOR_ONLY.includes(r));

/** product.md §6: fields flagged for_erex_admin_only are written by the erex-administrator only. */
export const mayWriteAdminOnlyFields = (actor: Actor): boolean =>
  actor.roles.some((r) => ADMINISTRATOR_ONLY.includes(r));
