import { rolesExcept } from '@railwatt/contracts';
import { WORK_AREAS, writersAmong } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';

const InfrastructureScreen = lazyScreen(() => import('./components/infrastructure-screen'), 'InfrastructureScreen');

/**
 * Infrastructure: erex-administrator, both area responsibles, the settlement operators, exchange-operator,
 * cp-admin and consumer (the menu table); so no vehicle-keeper and no train-run-data-provider. No area
 * restriction in the spec: it is in every real area (not in master-data mode).
 */
const INFRA_ROLES = rolesExcept('vehicle-keeper', 'train-run-data-provider');
/** Registration and import: not the read-only audit roles, not the consumer (view access). */
const INFRA_WRITE = writersAmong(INFRA_ROLES);

/** The child forms of entity registration (product.md §2). */
export const INFRASTRUCTURE_ENTITY_FORMS = [
  'supplymeteringpointtype',
  'supplymeteringpoint',
  'fixedmeteringpointtype',
  'fixedmeteringpoint',
  'gridareacrossing',
  'bordercrossing',
  'emstype',
  'consumptiontype',
  'track',
  'reportedtrainmeteringpoint',
  'payloadpointtype',
  'payloadpoint',
] as const;

const page = pageBuilder({ roles: INFRA_ROLES, component: InfrastructureScreen });

export const infrastructureRoutes: AppRoute = {
  path: '/infrastructure',
  titleKey: 'routes.infrastructure.section',
  roles: INFRA_ROLES,
  areas: WORK_AREAS,
  menu: { labelKey: 'menu.infrastructure', order: 4 },
  children: [
    { index: true, roles: INFRA_ROLES, redirectTo: 'entity/overview' },
    page('areas/overview', 'routes.infrastructure.areasOverview', { names: ['areasOverview'] }),
    page('areas/overview/errorsummary', 'routes.common.errorSummary', { names: ['areasOverview_errorsummary'] }),
    page('areas/registration', 'routes.infrastructure.areasRegistration', { roles: INFRA_WRITE }),
    page('segmentshistory', 'routes.common.segmentsHistory'),
    page('entity/registration', 'routes.infrastructure.entityRegistration', {
      roles: INFRA_WRITE,
      children: INFRASTRUCTURE_ENTITY_FORMS.map((form) =>
        page(form, 'routes.common.entityForm', { roles: INFRA_WRITE, titleArgs: { entity: `entities.${form}` } }),
      ),
    }),
    page('import', 'routes.common.import', {
      roles: INFRA_WRITE,
      names: ['areasOverview_import', 'entityOverview_import'],
    }),
    page('entity/overview', 'routes.infrastructure.entityOverview', { names: ['entityOverview'] }),
    page('entity/overview/errorsummary', 'routes.common.errorSummary', { names: ['entityOverview_errorsummary'] }),
  ],
};
