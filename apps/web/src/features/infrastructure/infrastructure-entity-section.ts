import { INFRASTRUCTURE_ENTITY_KINDS, INFRASTRUCTURE_WRITERS } from '@railwatt/contracts';
import type { EntitySection } from '../../components/ui/entity-kit';

/**
 * The infrastructure entities (product.md §2 entity/registration child forms, entity/overview) as
 * the entity kit's section. Writers: contracts INFRASTRUCTURE_WRITERS, the list the server's
 * per-kind policy reads (the route file's INFRA_WRITE names the same roles; a test keeps them equal).
 */
export const INFRASTRUCTURE_ENTITY_SECTION: EntitySection = {
  id: 'infrastructure',
  kinds: INFRASTRUCTURE_ENTITY_KINDS,
  paths: {
    overview: '/infrastructure/entity/overview',
    registration: '/infrastructure/entity/registration',
    errorSummary: '/infrastructure/entity/overview/errorsummary',
    segmentsHistory: '/infrastructure/segmentshistory',
    import: '/infrastructure/import',
  },
  write: { roles: INFRASTRUCTURE_WRITERS },
};
