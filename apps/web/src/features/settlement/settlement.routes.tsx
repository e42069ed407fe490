import { TPA_SETTLEMENT_AREAS } from '@railwatt/contracts';
import { COUNTRIES, SETTLEMENT_STAFF, writersAmong } from '../../lib/access';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const SettlementScreen = lazyScreen(() => import('./components/settlement-screen'), 'SettlementScreen');

/** The six roles of the menu table; hidden in the administration and exchange areas (so: countries). */
const SETTLEMENT_ROLES = SETTLEMENT_STAFF;
/** Editing a settlement configuration: not the audit roles (read-only) nor the consumer (view access). */
const SETTLEMENT_WRITE = writersAmong(SETTLEMENT_ROLES);

/** The five pages, plain or tpa-prefixed; the tpa twins exist only in the areas that settle for a TPA. */
function pages(prefix: '' | 'tpa-'): AppRoute[] {
  const tpa = prefix === 'tpa-';
  const extra = (): Partial<AppRoute> => (tpa ? { areas: [...TPA_SETTLEMENT_AREAS] } : {});
  const title = (key: string): string => `routes.settlement.${tpa ? 'tpa.' : ''}${key}`;
  // The section's second level: base verification, process, configuration; the tpa twins after them.
  const nav = (order: number): Pick<AppRoute, 'nav'> => ({ nav: { order: tpa ? order + 3 : order } });
  return [
    {
      path: `${prefix}settlementbaseverification`,
      names: tpa ? ['tpaSettlementBaseVerification'] : ['settlementBaseVerification'],
      titleKey: title('baseVerification'),
      roles: SETTLEMENT_ROLES,
      ...nav(1),
      component: SettlementScreen,
      ...extra(),
    },
    {
      path: `${prefix}settlementprocess`,
      titleKey: title('process'),
      roles: SETTLEMENT_ROLES,
      ...nav(2),
      component: SettlementScreen,
      ...extra(),
    },
    {
      path: `${prefix}settlementconfiguration/view`,
      titleKey: title('configurationView'),
      roles: SETTLEMENT_ROLES,
      ...nav(3),
      component: SettlementScreen,
      ...extra(),
    },
    {
      path: `${prefix}settlementconfiguration/edit`,
      titleKey: title('configurationEdit'),
      roles: SETTLEMENT_WRITE,
      component: SettlementScreen,
      ...extra(),
    },
    {
      path: `${prefix}settlementconfiguration/segmentshistory`,
      titleKey: title('configurationSegmentsHistory'),
      roles: SETTLEMENT_ROLES,
      component: SettlementScreen,
      ...extra(),
    },
  ];
}

/** Settlement and verification; excludes train-run-data providers (product.md §2). */
export const settlementRoutes: AppRoute = {
  path: '/settlementandverification',
  titleKey: 'routes.settlement.section',
  roles: SETTLEMENT_ROLES,
  areas: COUNTRIES,
  menu: { labelKey: 'menu.settlement', order: 2 },
  children: [
    { index: true, roles: SETTLEMENT_ROLES, redirectTo: 'settlementbaseverification' },
    ...pages(''),
    ...pages('tpa-'),
  ],
};
