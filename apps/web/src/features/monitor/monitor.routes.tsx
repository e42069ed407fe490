import { EXCHANGE_ROLE_GROUP, POLICIES, SETTLEMENT_ROLE_GROUP, rolesExcept, type AreaKind } from '@railwatt/contracts';
import {
  ADMINISTRATOR,
  ALL,
  COUNTRIES,
  SETTLEMENT_STAFF,
  areasExcept,
  fromPolicy,
  without,
  writersAmong,
} from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';
import { PROCESS_PAGES, type ProcessPages } from './process-pages';

const MonitorScreen = lazyScreen(() => import('./components/monitor-screen'), 'MonitorScreen');

/*
 * Role choices where the spec is silent (product.md §6):
 * - section: all except vehicle-keeper (menu table); hidden in the administration area. Master-data mode
 *   reaches only the data log (its master-data variant).
 * - process pages are settlement work: logs for the settlement role group; configuration views for that
 *   group without the train-run-data provider; run and edit pages for the administrator, the
 *   settlement-area-responsible and the settlement operator (area responsibles "edit process
 *   configurations and run processes"; audit roles get no run or edit pages); country areas only.
 * - exchange views (source/receiver, audit log and its views, completeness for cp) use the exchange role group.
 * - combine's dead letter page follows the dead letter queues' policy: the administrator alone (§6);
 * - run allocation, validation and conversion and the table-view configuration are administrator-only (§6);
 *   the export run is also the exchange operator's ("run process, export").
 */
const MONITOR_ROLES = rolesExcept('vehicle-keeper');
const PROCESS_LOG = SETTLEMENT_ROLE_GROUP;
const PROCESS_VIEW = SETTLEMENT_STAFF;
const PROCESS_WRITE = writersAmong(PROCESS_VIEW);
const EXCHANGE_VIEW = EXCHANGE_ROLE_GROUP;
// Error, event and process result views show processing errors, events and results: the settlement
// role group's work, kept open to the exchange role group that had them first.
const PROCESSING_VIEWS = [...new Set([...SETTLEMENT_ROLE_GROUP, ...EXCHANGE_ROLE_GROUP])];
const REAL_AREAS = areasExcept('administration');
const TABLE_VIEW = without(MONITOR_ROLES, 'train-run-data-provider');
const DEAD_LETTERS = fromPolicy(POLICIES.deadLetterQueues);

interface ProcessSpec extends ProcessPages {
  extra?: AppRoute[];
}

/** Pages beyond log, run and configuration, by process. */
const EXTRA_PAGES: Record<string, AppRoute[]> = {
  // The dead letter queues' policy: the administrator alone (product.md §6 "dead letter queue admin").
  combine: [
    processPage('combine', 'deadletterqueue', 'routes.monitor.process.deadLetterQueue', DEAD_LETTERS.roles, {
      policy: DEAD_LETTERS.policy,
      nav: { order: 10 },
    }),
  ],
  'shunting-and-stabling': [
    processPage('shunting-and-stabling', 'delayedtasks', 'routes.monitor.process.delayedTasks', PROCESS_WRITE, {
      nav: { order: 11 },
    }),
  ],
};

/** The processes of product.md §2 (process-pages.ts) and which pages each has. */
export const MONITOR_PROCESSES: readonly ProcessSpec[] = PROCESS_PAGES.map((p) => ({
  ...p,
  extra: EXTRA_PAGES[p.name],
}));

function processPage(
  process: string,
  path: string,
  titleKey: string,
  roles: AppRoute['roles'],
  extra: Partial<AppRoute> = {},
): AppRoute {
  return { path, titleKey, titleArgs: { process: `processes.${process}` }, roles, component: MonitorScreen, ...extra };
}

/** A configuration page with view and edit children (read-only configurations have no edit). */
function configuration(
  process: string,
  path: string,
  mode: 'edit' | 'read-only',
  areas?: readonly AreaKind[],
): AppRoute {
  const children: AppRoute[] = [
    { index: true, roles: PROCESS_VIEW, redirectTo: 'view' },
    processPage(process, 'view', 'routes.monitor.process.configurationView', PROCESS_VIEW),
  ];
  if (mode === 'edit')
    children.push(processPage(process, 'edit', 'routes.monitor.process.configurationEdit', PROCESS_WRITE));
  return { path, roles: PROCESS_VIEW, ...(areas ? { areas } : {}), children };
}

function processRoutes(spec: ProcessSpec): AppRoute {
  const children: AppRoute[] = [
    { index: true, roles: PROCESS_LOG, redirectTo: 'log' },
    processPage(spec.name, 'log', 'routes.monitor.process.log', PROCESS_LOG),
  ];
  if (spec.run) children.push(processPage(spec.name, 'run', 'routes.monitor.process.run', PROCESS_WRITE));
  if (spec.configuration) children.push(configuration(spec.name, 'configuration', spec.configuration));
  for (const own of spec.areaConfigurations ?? [])
    children.push(configuration(spec.name, own.path, spec.configuration ?? 'edit', [own.area]));
  children.push(...(spec.extra ?? []));
  return { path: spec.name, roles: PROCESS_LOG, children };
}

const page = pageBuilder({ roles: MONITOR_ROLES, areas: REAL_AREAS, component: MonitorScreen });

export const monitorRoutes: AppRoute = {
  path: '/monitor',
  titleKey: 'routes.monitor.section',
  roles: MONITOR_ROLES,
  areas: [...REAL_AREAS, 'masterdata'],
  menu: { labelKey: 'menu.monitor', order: 1 },
  children: [
    { index: true, roles: MONITOR_ROLES, redirectTo: 'datalog' },
    // Exchange and master-data variants render at the same path (product.md §2 "exchange variant at the same path").
    page('datalog', 'routes.monitor.datalog', {
      names: ['dataLog'],
      nav: { order: 1 },
      areas: [...REAL_AREAS, 'masterdata'],
      variants: {
        exchange: { titleKey: 'routes.monitor.datalogExchange' },
        masterdata: { titleKey: 'routes.monitor.datalogMasterData' },
      },
    }),
    page('source-receiver', 'routes.monitor.sourceReceiver', { roles: EXCHANGE_VIEW }),
    page('source-receiver/filestatisticsview', 'routes.monitor.fileStatistics', { roles: EXCHANGE_VIEW }),
    page('source-receiver/deliveryview', 'routes.monitor.deliveryView', { roles: EXCHANGE_VIEW }),
    {
      path: 'processes',
      roles: PROCESS_LOG,
      areas: COUNTRIES,
      children: [
        {
          index: true,
          titleKey: 'routes.monitor.processes',
          roles: PROCESS_LOG,
          component: MonitorScreen,
          nav: { order: 2 },
        },
        page('segmentshistory', 'routes.common.segmentsHistory', { roles: PROCESS_VIEW, areas: COUNTRIES }),
        ...MONITOR_PROCESSES.map(processRoutes),
      ],
    },
    page('auditlog', 'routes.monitor.auditLog', { roles: EXCHANGE_VIEW }),
    page('auditlog/processview', 'routes.monitor.auditLogProcessView', { roles: EXCHANGE_VIEW }),
    page('errorview', 'routes.monitor.errorView', { roles: PROCESSING_VIEWS, nav: { order: 4 } }),
    page('eventview', 'routes.monitor.eventView', { roles: PROCESSING_VIEWS, nav: { order: 5 } }),
    page('processresultview', 'routes.monitor.processResultView', { roles: PROCESSING_VIEWS, nav: { order: 6 } }),
    page('runprocess', 'routes.monitor.runProcess', {
      roles: [...ADMINISTRATOR, 'exchange-operator'],
      children: [
        page('allocation', 'routes.monitor.runAllocation', { roles: ADMINISTRATOR }),
        page('validation', 'routes.monitor.runValidation', { roles: ADMINISTRATOR }),
        page('conversion', 'routes.monitor.runConversion', { roles: ADMINISTRATOR }),
        page('export', 'routes.monitor.runExport', { roles: [...ADMINISTRATOR, 'exchange-operator'] }),
      ],
    }),
    page('completenessverification', 'routes.monitor.completenessVerification', {
      roles: SETTLEMENT_ROLE_GROUP,
      nav: { order: 7 },
    }),
    page('completenessverificationcp', 'routes.monitor.completenessVerificationCp', {
      roles: EXCHANGE_VIEW,
      nav: { order: 8 },
    }),
    page('eventmonitor', 'routes.monitor.eventMonitor', { roles: SETTLEMENT_ROLE_GROUP, nav: { order: 3 } }),
    page('parameteroverview', 'routes.monitor.parameterOverview', { roles: PROCESS_VIEW, nav: { order: 9 } }),
    page('datasearch', 'routes.monitor.dataSearch', {
      names: ['dataSearch'],
      variants: { exchange: { titleKey: 'routes.monitor.dataSearchExchange' } },
    }),
    {
      path: 'tableview',
      roles: TABLE_VIEW,
      areas: REAL_AREAS,
      children: [
        { index: true, roles: ALL, redirectTo: 'view' },
        page('view', 'routes.monitor.tableView', { roles: TABLE_VIEW }),
        page('configuration', 'routes.monitor.tableViewConfiguration', { roles: ADMINISTRATOR }),
      ],
    },
  ],
};
