import { rolesExcept } from '@railwatt/contracts';
import { WORK_AREAS } from '../../lib/access';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const DashboardHome = lazyScreen(() => import('./components/dashboard-home'), 'DashboardHome');

/**
 * The dashboard home: not for train-run-data providers (product.md §2). It exists in every area with a
 * dashboard, master-data mode included; the administration area has none (its landing is user registration).
 */
export const dashboardRoutes: AppRoute = {
  path: '/',
  names: ['dashboard'],
  titleKey: 'routes.dashboard',
  roles: rolesExcept('train-run-data-provider'),
  areas: [...WORK_AREAS.filter((a) => a !== 'administration'), 'masterdata'],
  // A labelled main-menu entry, first (issue 18 item 1): the logo alone is no way a new user finds.
  menu: { labelKey: 'menu.dashboard', order: 0 },
  component: DashboardHome,
};
