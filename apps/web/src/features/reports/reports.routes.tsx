import { rolesExcept, TPA_SETTLEMENT_AREAS, type AreaKind } from '@railwatt/contracts';
import { areasExcept } from '../../lib/access';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const ReportsScreen = lazyScreen(() => import('./components/reports-screen'), 'ReportsScreen');
const ReportsIndexPage = lazyScreen(() => import('./components/reports-index-page'), 'ReportsIndexPage');
const ReportOrderPage = lazyScreen(() => import('./components/report-order-page'), 'ReportOrderPage');

/**
 * Reports. The spec names no roles: everyone except the train-run-data provider (whose work is the data
 * log and completeness verification), so that cp-admin + vehicle-keeper users, whom the redirect rules send
 * here from the data log, can use it. Not in the administration area nor master-data mode.
 */
const REPORT_ROLES = rolesExcept('train-run-data-provider');

/** The reports of product.md §2; tpa reports in the areas that settle for a TPA, the Portugal overview in portugal. */
export const REPORTS: readonly { name: string; schedule: boolean; areas?: readonly AreaKind[] }[] = [
  { name: 'trainrunenergy', schedule: true },
  { name: 'trainrunenergysettlementdependency', schedule: true },
  { name: 'settlement', schedule: true },
  { name: 'gridarea-settlement', schedule: true },
  { name: 'settlementsummary', schedule: true },
  { name: 'tpa-settlement', schedule: true, areas: [...TPA_SETTLEMENT_AREAS] },
  { name: 'erpsettlementtotal', schedule: true },
  { name: 'supplier', schedule: true },
  { name: 'tpa-supplier', schedule: true, areas: [...TPA_SETTLEMENT_AREAS] },
  { name: 'energycorrection', schedule: true },
  { name: 'energyrawdata', schedule: true },
  { name: 'surveillancearea', schedule: true },
  { name: 'totaltrainrunenergy', schedule: true },
  { name: 'energymarket', schedule: true },
  { name: 'consumption', schedule: true },
  { name: 'shuntingandstabling', schedule: true },
  { name: 'nonmeteredtractionunits', schedule: true },
  { name: 'accumulatedenergy', schedule: true },
  { name: 'accumulatedenergysettlementdependency', schedule: true },
  // "Some with schedule pages": the invoice appendices and ERP exports are ordered per run, not scheduled.
  { name: 'onaccountappendix', schedule: false },
  { name: 'settlementoverviewonaccount', schedule: true },
  { name: 'settlementoverview', schedule: true },
  { name: 'portugal-settlementoverview', schedule: true, areas: ['portugal'] },
  { name: 'agressoexportsettlement', schedule: false },
  { name: 'customerinvoicemonthappendix', schedule: false },
  { name: 'agressoonaccount', schedule: false },
  { name: 'energysupplyandcost', schedule: true },
  { name: 'expense', schedule: true },
  { name: 'overviewofinvoicedcost', schedule: true },
  { name: 'priceelements', schedule: true },
  { name: 'accumulatedmeteredtrainenergyintaxarea', schedule: true },
  { name: '15minoverview', schedule: true },
  { name: '15mindetailed', schedule: true },
];

/**
 * A report's order page and, when it has one, its schedule page beside it (not nested: the order page
 * does not show above the schedule page), at /reports/<report> and /reports/<report>/schedule.
 */
function reportRoutes(report: (typeof REPORTS)[number]): AppRoute[] {
  const titleArgs = { report: `reports.${report.name}` };
  const areas = report.areas ? { areas: report.areas } : {};
  const order: AppRoute = {
    path: report.name,
    titleKey: 'routes.reports.order',
    titleArgs,
    roles: REPORT_ROLES,
    ...areas,
    component: ReportOrderPage,
  };
  if (!report.schedule) return [order];
  const schedule: AppRoute = {
    path: `${report.name}/schedule`,
    titleKey: 'routes.reports.schedule',
    titleArgs,
    roles: REPORT_ROLES,
    ...areas,
    component: ReportsScreen,
  };
  return [order, schedule];
}

export const reportsRoutes: AppRoute = {
  path: '/reports',
  titleKey: 'routes.reports.section',
  roles: REPORT_ROLES,
  areas: areasExcept('administration'),
  children: [
    { index: true, titleKey: 'routes.reports.section', roles: REPORT_ROLES, component: ReportsIndexPage },
    {
      path: 'schedules/:report',
      titleKey: 'routes.reports.scheduleOverview',
      roles: REPORT_ROLES,
      component: ReportsScreen,
    },
    ...REPORTS.flatMap(reportRoutes),
  ],
};
