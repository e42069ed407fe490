import { FLEET_WRITERS, OWN_FLEET_ONLY, POLICIES, policyAdmits, TYPE_APPROVERS, type Role } from '@railwatt/contracts';

export interface FleetAccess {
  /** The fleetWrite policy of the save calls (courtesy in the UI; the server decides). */
  canWrite: boolean;
  /**
   * Writes only the units of its own organisations (a vehicle keeper without a wider fleet role): its
   * owner choices are its organisations, and another organisation's unit opens read-only.
   */
  ownFleetOnly: boolean;
  /** Only the erex-administrator approves traction unit types (product.md §6). */
  canApproveTypes: boolean;
}

/** What the roles held in the area allow on fleet screens (courtesy in the UI; the server decides). */
export function fleetAccess(roles: readonly Role[]): FleetAccess {
  const canWrite = policyAdmits(POLICIES.fleetWrite, roles, null);
  return {
    canWrite,
    ownFleetOnly: canWrite && roles.every((r) => OWN_FLEET_ONLY.includes(r) || !FLEET_WRITERS.includes(r)),
    canApproveTypes: roles.some((r) => TYPE_APPROVERS.includes(r)),
  };
}
