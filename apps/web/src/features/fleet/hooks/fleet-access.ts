import type { Role } from '@railwatt/contracts';

/** Roles that may change fleet data (courtesy in the UI; the server decides). */
export const FLEET_WRITE_ROLES: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'vehicle-keeper',
  'cp-admin',
  'exchange-operator',
];

export interface FleetAccess {
  canWrite: boolean;
  /** Only the erex-administrator approves traction unit types (product.md §6). */
  canApproveTypes: boolean;
}

export function fleetAccess(roles: readonly Role[]): FleetAccess {
  return {
    canWrite: roles.some((r) => FLEET_WRITE_ROLES.includes(r)),
    canApproveTypes: roles.includes('erex-administrator'),
  };
}
