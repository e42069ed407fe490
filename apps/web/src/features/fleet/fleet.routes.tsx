import { AREA_RESPONSIBLE_ROLES, rolesExcept } from '@railwatt/contracts';
import { ALL, areasExcept, MASTER_DATA_UPDATES_ENABLED, writersAmong } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute, type ExtraCheck } from '../../lib/routes';

const FleetScreen = lazyScreen(() => import('./components/fleet-screen'), 'FleetScreen');
const FleetOverviewPage = lazyScreen(() => import('./components/fleet-overview-page'), 'FleetOverviewPage');
const FleetRegistrationPage = lazyScreen(() => import('./components/fleet-registration-page'), 'FleetRegistrationPage');
const SegmentsHistoryPage = lazyScreen(() => import('./components/segments-history-page'), 'SegmentsHistoryPage');
const FleetErrorSummaryPage = lazyScreen(
  () => import('./components/fleet-error-summary-page'),
  'FleetErrorSummaryPage',
);
const FleetImportPage = lazyScreen(() => import('./components/fleet-import-page'), 'FleetImportPage');
const MasterdataUpdatesPage = lazyScreen(() => import('./components/masterdata-updates-page'), 'MasterdataUpdatesPage');

/** Fleet: all except train-run-data-provider; hidden in the administration area (product.md §2). */
const FLEET_ROLES = rolesExcept('train-run-data-provider');
/** Registration and import write data: not for the read-only audit roles (§6) nor the consumer. */
const FLEET_WRITE = writersAmong(FLEET_ROLES);

/**
 * "Fleet excludes consumer unless also area-responsible or audit-responsible" (product.md §2), read
 * literally: a user holding consumer in the area passes only if they also hold settlement-area-responsible
 * or audit-settlement-area-responsible there. The menu still lists Fleet for consumers (the menu table
 * says "all except train-run-data-provider"); this check is the guard's extra check.
 */
export const fleetConsumerCheck: ExtraCheck = (roles) =>
  !roles.includes('consumer') || roles.some((r) => AREA_RESPONSIBLE_ROLES.includes(r));

const page = pageBuilder({ roles: FLEET_ROLES, component: FleetScreen });

export const fleetRoutes: AppRoute = {
  path: '/fleet',
  titleKey: 'routes.fleet.section',
  roles: FLEET_ROLES,
  areas: areasExcept('administration'),
  check: fleetConsumerCheck,
  menu: { labelKey: 'menu.fleet', order: 3 },
  children: [
    { index: true, roles: ALL, redirectTo: 'overview' },
    page('overview', 'routes.fleet.overview', { names: ['fleetOverview'], component: FleetOverviewPage }),
    page('registration', 'routes.fleet.registration', { roles: FLEET_WRITE, component: FleetRegistrationPage }),
    page('segmentshistory', 'routes.common.segmentsHistory', { component: SegmentsHistoryPage }),
    page('overview/errorsummary', 'routes.common.errorSummary', {
      names: ['fleetOverview_errorsummary'],
      component: FleetErrorSummaryPage,
    }),
    page('import', 'routes.common.import', {
      roles: FLEET_WRITE,
      names: ['fleetOverview_import'],
      component: FleetImportPage,
    }),
    page('masterdata-updates', 'routes.fleet.masterdataUpdates', {
      enabled: MASTER_DATA_UPDATES_ENABLED,
      component: MasterdataUpdatesPage,
    }),
  ],
};
