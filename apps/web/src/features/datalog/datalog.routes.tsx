import { NotBuiltPage } from '../../components/ui/not-built';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const DataLogScreen = lazyScreen(() => import('./components/datalog-page'), 'DataLogPage');
const MasterDataLogScreen = lazyScreen(() => import('./components/masterdata-datalog-page'), 'MasterDataLogPage');

/**
 * The screens of /monitor/datalog. The route itself (roles, areas, variant titles) is the Monitor
 * section's (features/monitor/monitor.routes.tsx); app/route-table.ts puts these screens on it, so
 * neither feature imports the other. The exchange variant is not built yet.
 */
export const dataLogScreens: Pick<AppRoute, 'component'> & {
  variants: Record<'exchange' | 'masterdata', { component: AppRoute['component'] }>;
} = {
  component: DataLogScreen,
  variants: {
    exchange: { component: NotBuiltPage },
    masterdata: { component: MasterDataLogScreen },
  },
};
