import { POLICIES, policyAdmits, TYPE_APPROVERS, type Role } from '@railwatt/contracts';

export interface FleetAccess {
  /** The fleetWrite policy of the save calls (courtesy in the UI; the server decides). */
  canWrite: boolean;
  /** Only the erex-administrator approves traction unit types (product.md §6). */
  canApproveTypes: boolean;
}

export function fleetAccess(roles: readonly Role[]): FleetAccess {
  return {
    canWrite: policyAdmits(POLICIES.fleetWrite, roles, null),
    canApproveTypes: roles.some((r) => TYPE_APPROVERS.includes(r)),
  };
}
