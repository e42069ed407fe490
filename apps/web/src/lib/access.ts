import {
  ALL_ROLES,
  AREA_KINDS,
  COUNTRY_AREA_NAMES,
  ROLES,
  SETTLEMENT_ROLE_GROUP,
  type AccessPolicy,
  type AreaKind,
  type Role,
} from '@railwatt/contracts';

/** Role lists and area lists the route files compose. Choices where the spec is silent are commented there. */

/**
 * A route's roles from the named access policy of the calls its page makes (packages/contracts
 * calls/policies.ts): the server, the guard and the menu then admit the same roles, so no page opens
 * for a user whose every call would be refused.
 */
export function fromPolicy(policy: AccessPolicy): {
  roles: readonly Role[];
  areaRoles?: Partial<Record<AreaKind, readonly Role[]>>;
  policy: AccessPolicy;
} {
  return {
    roles: policy.roles === 'any' ? ALL_ROLES : policy.roles,
    ...(policy.areaRoles ? { areaRoles: policy.areaRoles } : {}),
    policy,
  };
}

export const ALL: readonly Role[] = ROLES;

export const without = (roles: readonly Role[], ...excluded: Role[]): Role[] =>
  roles.filter((r) => !excluded.includes(r));

/** The audit roles are read-only: no run or edit pages (product.md §6). */
export const AUDIT_ROLES: readonly Role[] = ['audit-settlement-area-responsible', 'audit-erex-settlement-operator'];

export const ADMINISTRATOR: readonly Role[] = ['erex-administrator'];

/**
 * The settlement role group without the train-run-data provider: erex-administrator, both area
 * responsibles, the settlement operators and consumer (the menu table's Settlement and Administration rows).
 */
export const SETTLEMENT_STAFF: readonly Role[] = without(SETTLEMENT_ROLE_GROUP, 'train-run-data-provider');

/** Registration, import and edit pages among `roles`: not the read-only audit roles, not the consumer (view access). */
export const writersAmong = (roles: readonly Role[]): Role[] => without(roles, ...AUDIT_ROLES, 'consumer');

/** The nine country areas. */
export const COUNTRIES: readonly AreaKind[] = COUNTRY_AREA_NAMES;

/** Every real area: the master-data pseudo-area has only its own routes. */
export const WORK_AREAS: readonly AreaKind[] = AREA_KINDS.filter((a) => a !== 'masterdata');

export const areasExcept = (...excluded: AreaKind[]): AreaKind[] => WORK_AREAS.filter((a) => !excluded.includes(a));

/** Is the master-data updates page switched on? (product.md §2 "only if a master-data switch is on"). */
export const MASTER_DATA_UPDATES_ENABLED = import.meta.env.VITE_MASTER_DATA_UPDATES === 'true';
