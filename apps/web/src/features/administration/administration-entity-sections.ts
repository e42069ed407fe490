import { ADMINISTRATION_KINDS, POLICIES } from '@railwatt/contracts';
import type { EntitySection } from '../../components/ui/entity-kit';

const ADMIN_WRITE = POLICIES.administrationWrite;

/**
 * The administration entities (product.md §2 entities/registration child forms, entities/overview) as
 * the entity kit's section; writers from the administrationWrite policy (the erex-administrator alone
 * in the exchange area).
 */
export const ADMINISTRATION_ENTITY_SECTION: EntitySection = {
  id: 'administration',
  kinds: ADMINISTRATION_KINDS,
  paths: {
    overview: '/administration/entities/overview',
    registration: '/administration/entities/registration',
    errorSummary: '/administration/entities/overview/errorsummary',
    segmentsHistory: '/administration/segmentshistory',
    import: '/administration/import',
  },
  write: { roles: ADMIN_WRITE.roles, areaRoles: ADMIN_WRITE.areaRoles },
};

/**
 * Export limitations (exportlimitation/registration and /overview): erex-administrator only
 * (product.md §6; the server's policy lets only the administrator write the kind). A failed status
 * change goes to the entities error summary, which the administrator may open too.
 */
export const EXPORT_LIMITATION_SECTION: EntitySection = {
  id: 'exportlimitation',
  kinds: ['exportlimitation'],
  paths: {
    overview: '/administration/exportlimitation/overview',
    registration: '/administration/exportlimitation/registration',
    errorSummary: '/administration/entities/overview/errorsummary',
    segmentsHistory: '/administration/segmentshistory',
  },
  write: { roles: POLICIES.administratorOnly.roles },
};
