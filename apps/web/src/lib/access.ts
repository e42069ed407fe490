import { AREA_KINDS, COUNTRY_AREA_NAMES, ROLES, type AreaKind, type Role } from '@railwatt/contracts';

/** Role lists and area lists the route files compose. Choices where the spec is silent are commented there. */

export const ALL: readonly Role[] = ROLES;

export const without = (roles: readonly Role[], ...excluded: Role[]): Role[] =>
  roles.filter((r) => !excluded.includes(r));

/** The audit roles are read-only: no run or edit pages (product.md §6). */
export const AUDIT_ROLES: readonly Role[] = ['audit-settlement-area-responsible', 'audit-erex-settlement-operator'];

export const ADMINISTRATOR: readonly Role[] = ['erex-administrator'];

/** The nine country areas. */
export const COUNTRIES: readonly AreaKind[] = COUNTRY_AREA_NAMES;

/** Every real area: the master-data pseudo-area has only its own routes. */
export const WORK_AREAS: readonly AreaKind[] = AREA_KINDS.filter((a) => a !== 'masterdata');

export const areasExcept = (...excluded: AreaKind[]): AreaKind[] => WORK_AREAS.filter((a) => !excluded.includes(a));

/** Is the master-data updates page switched on? (product.md §2 "only if a master-data switch is on"). */
export const MASTER_DATA_UPDATES_ENABLED = import.meta.env.VITE_MASTER_DATA_UPDATES === 'true';
