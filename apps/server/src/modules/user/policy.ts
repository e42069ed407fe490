import { USER_ADMINISTRATORS, type Role, type UserArea } from '@railwatt/contracts';
import { ApiError } from '../../errors.js';

/**
 * Who may manage users (product.md §6 "erex-administrator only: user registration and overview
 * across areas"): the administrator everywhere; a settlement-area responsible lists, creates and
 * edits users of its own area (the current tenant) only.
 */
export const USER_ADMIN_ROLES: readonly Role[] = USER_ADMINISTRATORS;

/** Who acts, and in which area (the current-tenant-id). */
export interface UserActor {
  username: string;
  roles: readonly Role[];
  tenant: string;
}

export const isUserAdmin = (actor: UserActor): boolean => actor.roles.some((r) => USER_ADMIN_ROLES.includes(r));

/** What the actor may know about a stored user: the administrator anything, a responsible its own area's users. */
export function assertMayRead(actor: UserActor, heldAreas: readonly string[], hasGlobal: boolean): void {
  if (isUserAdmin(actor)) return;
  if (!hasGlobal && !heldAreas.includes(actor.tenant)) throw ApiError.forbidden();
}

/**
 * A responsible may only set its own area, may not hand out the administrator function, and may
 * only change users who work in its area alone (a change of name or enabled flag would otherwise
 * reach into areas it does not answer for).
 */
export function assertMayWrite(
  actor: UserActor,
  areas: readonly UserArea[],
  stored?: { heldAreas: readonly string[]; hasGlobal: boolean },
): void {
  if (isUserAdmin(actor)) return;
  if (areas.some((a) => a.areaId !== actor.tenant)) {
    throw ApiError.forbidden('A settlement area responsible manages users of its own area only');
  }
  if (areas.some((a) => a.marketFunctions.includes('erex-administrator'))) {
    throw ApiError.forbidden('Only an administrator can grant the erex-administrator function');
  }
  if (stored && (stored.hasGlobal || stored.heldAreas.some((id) => id !== actor.tenant))) {
    throw ApiError.forbidden('This user also works in other areas; ask an administrator');
  }
}
