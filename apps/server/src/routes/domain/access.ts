import { DOMAIN_READ_ROLES, DOMAIN_WRITE_ROLES } from '../../modules/domain/policy.js';

/**
 * Route access shared by the /api/domain route files. Which kinds each writing role may change is
 * the domain policy's (modules/domain/policy.ts KIND_WRITERS), decided per entity in the service.
 */
export const READ = { access: { roles: DOMAIN_READ_ROLES } };
export const LOOKUP = { access: { roles: 'any' as const } };
export const WRITE = { access: { roles: DOMAIN_WRITE_ROLES } };
