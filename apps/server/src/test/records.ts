import type { Actor } from '../modules/domain/policy.js';

/** The erex-administrator as an actor for service-level tests. */
export const ADMIN_ACTOR: Actor = { username: 'erex-administrator', roles: ['erex-administrator'] };

/** A minimal organisation record as saveEntities accepts it (a vehicle keeper with one e-mail). */
export const organisationRecord = (name: string, orgId: string, domain = 'example.com') => ({
  type: 'Organisation',
  name,
  orgId,
  organisationTypes: ['VEHICLE_KEEPER'],
  emails: `${orgId}@${domain}`,
});
