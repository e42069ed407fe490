import { POLICIES } from '@railwatt/contracts';
import { ALL, areasExcept, fromPolicy, MASTER_DATA_UPDATES_ENABLED } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';

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

/**
 * Fleet reads and writes through the calls of contracts calls/domain.ts and calls/excel.ts, so its
 * pages take those calls' policies (issue 6 item 3): the section and its read pages domainRead (every
 * role except the train-run-data-provider and the consumer; "Fleet excludes consumer unless also
 * area-responsible or audit-responsible", product.md §2, holds because such a consumer passes through
 * its other role), registration fleetWrite, import excelImport. The menu reads the same section, so a
 * consumer is not offered Fleet, and the erex-settlement-operator, a fleet writer, may open the import
 * that the server accepts from it.
 */
const READ = fromPolicy(POLICIES.domainRead);

const page = pageBuilder({ ...READ, component: FleetScreen });

export const fleetRoutes: AppRoute = {
  path: '/fleet',
  titleKey: 'routes.fleet.section',
  ...READ,
  areas: areasExcept('administration'),
  menu: { labelKey: 'menu.fleet', order: 3 },
  children: [
    { index: true, roles: ALL, redirectTo: 'overview' },
    page('overview', 'routes.fleet.overview', {
      names: ['fleetOverview'],
      nav: { order: 1 },
      component: FleetOverviewPage,
    }),
    page('registration', 'routes.fleet.registration', {
      ...fromPolicy(POLICIES.fleetWrite),
      nav: { order: 2 },
      component: FleetRegistrationPage,
    }),
    page('segmentshistory', 'routes.common.segmentsHistory', { component: SegmentsHistoryPage }),
    page('overview/errorsummary', 'routes.common.errorSummary', {
      names: ['fleetOverview_errorsummary'],
      component: FleetErrorSummaryPage,
    }),
    page('import', 'routes.common.import', {
      ...fromPolicy(POLICIES.excelImport),
      names: ['fleetOverview_import'],
      nav: { order: 3 },
      component: FleetImportPage,
    }),
    page('masterdata-updates', 'routes.fleet.masterdataUpdates', {
      enabled: MASTER_DATA_UPDATES_ENABLED,
      nav: { order: 4 },
      component: MasterdataUpdatesPage,
    }),
  ],
};
