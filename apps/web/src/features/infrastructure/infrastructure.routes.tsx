import { INFRASTRUCTURE_ENTITY_KINDS, POLICIES, rolesExcept } from '@railwatt/contracts';
import { fromPolicy, WORK_AREAS, writersAmong } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';

const InfrastructureScreen = lazyScreen(() => import('./components/infrastructure-screen'), 'InfrastructureScreen');
const entityPages = () => import('./components/infrastructure-entity-pages');
const EntityOverviewPage = lazyScreen(entityPages, 'InfrastructureEntityOverviewPage');
const EntityRegistrationPage = lazyScreen(entityPages, 'InfrastructureEntityRegistrationPage');
const EntityFormPage = lazyScreen(entityPages, 'InfrastructureEntityFormPage');
const EntityErrorSummaryPage = lazyScreen(entityPages, 'InfrastructureEntityErrorSummaryPage');
const ImportPage = lazyScreen(entityPages, 'InfrastructureImportPage');
const AreasOverviewPage = lazyScreen(() => import('./components/areas/areas-overview-page'), 'AreasOverviewPage');
const AreasErrorSummaryPage = lazyScreen(
  () => import('./components/areas/areas-error-summary-page'),
  'AreasErrorSummaryPage',
);
const AreaRegistrationPage = lazyScreen(
  () => import('./components/areas/area-registration-page'),
  'AreaRegistrationPage',
);
const InfrastructureSegmentsHistoryPage = lazyScreen(
  () => import('./components/areas/segments-history-page'),
  'InfrastructureSegmentsHistoryPage',
);

/**
 * Infrastructure: erex-administrator, both area responsibles, the settlement operators, exchange-operator,
 * cp-admin and consumer (the menu table); so no vehicle-keeper and no train-run-data-provider. No area
 * restriction in the spec: it is in every real area (not in master-data mode).
 */
const INFRA_ROLES = rolesExcept('vehicle-keeper', 'train-run-data-provider');
/** Registration and import: not the read-only audit roles, not the consumer (view access). */
const INFRA_WRITE = writersAmong(INFRA_ROLES);

const page = pageBuilder({ roles: INFRA_ROLES, component: InfrastructureScreen });

export const infrastructureRoutes: AppRoute = {
  path: '/infrastructure',
  titleKey: 'routes.infrastructure.section',
  roles: INFRA_ROLES,
  areas: WORK_AREAS,
  menu: { labelKey: 'menu.infrastructure', order: 4 },
  children: [
    { index: true, roles: INFRA_ROLES, redirectTo: 'entity/overview' },
    page('areas/overview', 'routes.infrastructure.areasOverview', {
      names: ['areasOverview'],
      nav: { order: 3 },
      component: AreasOverviewPage,
    }),
    page('areas/overview/errorsummary', 'routes.common.errorSummary', {
      names: ['areasOverview_errorsummary'],
      component: AreasErrorSummaryPage,
    }),
    // Areas are saved through /domain/save, which the server allows for infrastructure kinds to the
    // roles of the administrationWrite policy (modules/domain/policy.ts writersOf).
    page('areas/registration', 'routes.infrastructure.areasRegistration', {
      ...fromPolicy(POLICIES.administrationWrite),
      nav: { order: 4 },
      component: AreaRegistrationPage,
    }),
    page('segmentshistory', 'routes.common.segmentsHistory', { component: InfrastructureSegmentsHistoryPage }),
    page('entity/registration', 'routes.infrastructure.entityRegistration', {
      roles: INFRA_WRITE,
      nav: { order: 2 },
      component: EntityRegistrationPage,
      // The child forms of entity registration (product.md §2): the contracts' list of infrastructure kinds.
      children: INFRASTRUCTURE_ENTITY_KINDS.map((form) =>
        page(form, 'routes.common.entityForm', {
          roles: INFRA_WRITE,
          titleArgs: { entity: `entities.${form}` },
          component: EntityFormPage,
        }),
      ),
    }),
    page('import', 'routes.common.import', {
      roles: INFRA_WRITE,
      names: ['areasOverview_import', 'entityOverview_import'],
      nav: { order: 5 },
      component: ImportPage,
    }),
    page('entity/overview', 'routes.infrastructure.entityOverview', {
      names: ['entityOverview'],
      nav: { order: 1 },
      component: EntityOverviewPage,
    }),
    page('entity/overview/errorsummary', 'routes.common.errorSummary', {
      names: ['entityOverview_errorsummary'],
      component: EntityErrorSummaryPage,
    }),
  ],
};
