import { isSchedulable, rolesExcept, TPA_SETTLEMENT_AREAS, type AreaKind, type ReportName } from '@railwatt/contracts';
import { areasExcept } from '../../lib/access';
import { lazyScreen, type AppRoute } from '../../lib/routes';

const ReportsIndexPage = lazyScreen(() => import('./components/reports-index-page'), 'ReportsIndexPage');
const ReportOrderPage = lazyScreen(() => import('./components/report-order-page'), 'ReportOrderPage');
const ReportSchedulesPage = lazyScreen(() => import('./components/report-schedules-page'), 'ReportSchedulesPage');
const ReportSchedulePage = lazyScreen(() => import('./components/report-schedule-page'), 'ReportSchedulePage');

/**
 * Reports. The spec names no roles: everyone except the train-run-data provider (whose work is the data
 * log and completeness verification), so that cp-admin + vehicle-keeper users, whom the redirect rules send
 * here from the data log, can use it. Not in the administration area nor master-data mode.
 */
const REPORT_ROLES = rolesExcept('train-run-data-provider');

/** The reports of product.md §2; tpa reports in the areas that settle for a TPA, the Portugal overview in portugal. */
/**
 * Which have a schedule page ("some with schedule pages") is contracts isSchedulable: the server refuses
 * to schedule the others (the invoice appendices and ERP exports, made per billing run).
 */
export const REPORTS: readonly { name: ReportName; areas?: readonly AreaKind[] }[] = [
  { name: 'trainrunenergy' },
  { name: 'trainrunenergysettlementdependency' },
  { name: 'settlement' },
  { name: 'gridarea-settlement' },
  { name: 'settlementsummary' },
  { name: 'tpa-settlement', areas: [...TPA_SETTLEMENT_AREAS] },
  { name: 'erpsettlementtotal' },
  { name: 'supplier' },
  { name: 'tpa-supplier', areas: [...TPA_SETTLEMENT_AREAS] },
  { name: 'energycorrection' },
  { name: 'energyrawdata' },
  { name: 'surveillancearea' },
  { name: 'totaltrainrunenergy' },
  { name: 'energymarket' },
  { name: 'consumption' },
  { name: 'shuntingandstabling' },
  { name: 'nonmeteredtractionunits' },
  { name: 'accumulatedenergy' },
  { name: 'accumulatedenergysettlementdependency' },
  { name: 'onaccountappendix' },
  { name: 'settlementoverviewonaccount' },
  { name: 'settlementoverview' },
  { name: 'portugal-settlementoverview', areas: ['portugal'] },
  { name: 'agressoexportsettlement' },
  { name: 'customerinvoicemonthappendix' },
  { name: 'agressoonaccount' },
  { name: 'energysupplyandcost' },
  { name: 'expense' },
  { name: 'overviewofinvoicedcost' },
  { name: 'priceelements' },
  { name: 'accumulatedmeteredtrainenergyintaxarea' },
  { name: '15minoverview' },
  { name: '15mindetailed' },
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
  if (!isSchedulable(report.name)) return [order];
  const schedule: AppRoute = {
    path: `${report.name}/schedule`,
    titleKey: 'routes.reports.schedule',
    titleArgs,
    roles: REPORT_ROLES,
    ...areas,
    component: ReportSchedulePage,
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
      component: ReportSchedulesPage,
    },
    ...REPORTS.flatMap(reportRoutes),
  ],
};
