import { ADMINISTRATOR } from '../../lib/access';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const MasterdataScreen = lazyScreen(() => import('./components/masterdata-screen'), 'MasterdataScreen');

/*
 * Master-data mode (product.md §2, administrator only): /masterdata (overview and detailed view),
 * /management and /subscriptions with registration, push-external and push-internal. The dashboard and
 * /monitor/datalog of master-data mode are the dashboard and monitor routes, which admit the masterdata area.
 */
const only = { roles: ADMINISTRATOR, areas: ['masterdata'] } as const;

const page = (path: string, titleKey: string): AppRoute => ({ path, titleKey, component: MasterdataScreen, ...only });

export const masterdataRoutes: AppRoute[] = [
  {
    path: '/masterdata',
    titleKey: 'routes.masterdata.section',
    menu: { labelKey: 'menu.masterdata', order: 6 },
    ...only,
    children: [
      { index: true, roles: ADMINISTRATOR, redirectTo: 'overview' },
      page('overview', 'routes.masterdata.overview'),
      page('detailedview', 'routes.masterdata.detailedView'),
    ],
  },
  { ...page('/management', 'routes.masterdata.management'), menu: { labelKey: 'menu.management', order: 7 } },
  {
    ...page('/subscriptions', 'routes.masterdata.subscriptions'),
    menu: { labelKey: 'menu.subscriptions', order: 8 },
    children: [
      page('registration', 'routes.masterdata.subscriptionRegistration'),
      page('push-external', 'routes.masterdata.pushExternal'),
      page('push-internal', 'routes.masterdata.pushInternal'),
    ],
  },
];
