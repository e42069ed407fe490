import { ADMINISTRATION_KINDS, POLICIES, TRANSMISSION_UNIT_COUNTRIES } from '@railwatt/contracts';
import { ADMINISTRATOR, COUNTRIES, fromPolicy, SETTLEMENT_STAFF, without, writersAmong } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';

const AdministrationScreen = lazyScreen(() => import('./components/administration-screen'), 'AdministrationScreen');
const UserRegistrationPage = lazyScreen(
  () => import('./components/users/user-registration-page'),
  'UserRegistrationPage',
);
const UserRegisterAcrossPage = lazyScreen(
  () => import('./components/users/user-registration-page'),
  'UserRegisterAcrossPage',
);
const UserOverviewPage = lazyScreen(() => import('./components/users/user-overview-page'), 'UserOverviewPage');
const UserViewAcrossPage = lazyScreen(() => import('./components/users/user-overview-page'), 'UserViewAcrossPage');
const OrganisationRegistrationPage = lazyScreen(
  () => import('./components/organisations/organisation-registration-page'),
  'OrganisationRegistrationPage',
);
const OrganisationOverviewPage = lazyScreen(
  () => import('./components/organisations/organisation-overview-page'),
  'OrganisationOverviewPage',
);
const InterfaceOverviewPage = lazyScreen(
  () => import('./components/interfaces/interface-overview-page'),
  'InterfaceOverviewPage',
);
const InterfaceRegistrationPage = lazyScreen(
  () => import('./components/interfaces/interface-registration-page'),
  'InterfaceRegistrationPage',
);
const InterfaceHistoryPage = lazyScreen(
  () => import('./components/interfaces/interface-history-page'),
  'InterfaceHistoryPage',
);
const InterfaceConfigScreen = lazyScreen(
  () => import('./components/interfaces/interface-config-screen'),
  'InterfaceConfigScreen',
);
const InterfaceInformationPage = lazyScreen(
  () => import('./components/interfaces/interface-information-page'),
  'InterfaceInformationPage',
);
const InterfaceConfigurationPage = lazyScreen(
  () => import('./components/interfaces/interface-configuration-page'),
  'InterfaceConfigurationPage',
);
const TuSettlementPage = lazyScreen(
  () => import('../../components/ui/process-config/tu-settlement-page'),
  'TuSettlementPage',
);
const entityPages = () => import('./components/administration-entity-pages');
const EntitiesOverviewPage = lazyScreen(entityPages, 'AdministrationEntitiesOverviewPage');
const EntitiesRegistrationPage = lazyScreen(entityPages, 'AdministrationEntitiesRegistrationPage');
const EntityFormPage = lazyScreen(entityPages, 'AdministrationEntityFormPage');
const EntitiesErrorSummaryPage = lazyScreen(entityPages, 'AdministrationEntitiesErrorSummaryPage');
const ImportPage = lazyScreen(entityPages, 'AdministrationImportPage');
const SegmentsHistoryPage = lazyScreen(entityPages, 'AdministrationSegmentsHistoryPage');
const ExportLimitationOverviewPage = lazyScreen(entityPages, 'ExportLimitationOverviewPage');
const ExportLimitationRegistrationPage = lazyScreen(entityPages, 'ExportLimitationRegistrationPage');
const TimeSeriesImportPage = lazyScreen(
  () => import('./components/timeseries/timeseries-import-page'),
  'TimeSeriesImportPage',
);
const DeadLetterQueueAdminPage = lazyScreen(
  () => import('../../components/ui/dead-letter/dead-letter-pages'),
  'DeadLetterQueueAdminPage',
);
const SentMailPage = lazyScreen(() => import('./components/sent-mail/sent-mail-page'), 'SentMailPage');
const ImportPricesPage = lazyScreen(() => import('./components/timeseries/import-prices-page'), 'ImportPricesPage');

/**
 * Administration (menu table): erex-administrator, the area responsibles, the settlement operators, and
 * consumer outside the exchange area; only erex-administrator in the exchange area. No train-run-data
 * provider. Hidden in master-data mode.
 */
const ADMIN_ROLES = SETTLEMENT_STAFF;
/** Registration, import and edit pages: not the read-only audit roles nor the consumer. */
const ADMIN_WRITE = writersAmong(ADMIN_ROLES);

const page = pageBuilder({ roles: ADMIN_ROLES, component: AdministrationScreen });

/**
 * A page of the section's second level: Administration offers up to nineteen, so they are listed under
 * headings (app/section-menu.tsx shows a grouped section as a side menu), each group overview first.
 */
const nav = (group: string, order: number): Pick<AppRoute, 'nav'> => ({
  nav: { order, group: `shell.navGroup.${group}` },
});

/** erex-administrator-only pages (product.md §6). */
const adminOnly = (path: string, titleKey: string, extra: Partial<AppRoute> = {}): AppRoute =>
  page(path, titleKey, { roles: ADMINISTRATOR, ...extra });

export const administrationRoutes: AppRoute = {
  path: '/administration',
  titleKey: 'routes.administration.section',
  roles: ADMIN_ROLES,
  areaRoles: { exchange: ADMINISTRATOR },
  areas: [...COUNTRIES, 'exchange', 'administration'],
  menu: { labelKey: 'menu.administration', order: 5 },
  children: [
    { index: true, roles: ADMIN_ROLES, redirectTo: 'entities/overview' },
    // The calls of these forms (contracts calls/users.ts, calls/organisations.ts) decide who may open them.
    page('user/registration', 'routes.administration.userRegistration', {
      ...fromPolicy(POLICIES.userAreaAdmin),
      names: ['userRegistration'],
      ...nav('users', 5),
      component: UserRegistrationPage,
    }),
    page('user/overview', 'routes.administration.userOverview', {
      ...fromPolicy(POLICIES.userAreaAdmin),
      ...nav('users', 4),
      component: UserOverviewPage,
    }),
    adminOnly('user/registeracrosssettlementareas', 'routes.administration.userRegisterAcross', {
      ...nav('users', 7),
      component: UserRegisterAcrossPage,
    }),
    adminOnly('user/viewacrosssettlementareas', 'routes.administration.userViewAcross', {
      ...nav('users', 6),
      component: UserViewAcrossPage,
    }),
    page('organisation/registration', 'routes.administration.organisationRegistration', {
      ...fromPolicy(POLICIES.organisationWrite),
      ...nav('organisations', 9),
      component: OrganisationRegistrationPage,
    }),
    page('organisation/overview', 'routes.administration.organisationOverview', {
      ...nav('organisations', 8),
      component: OrganisationOverviewPage,
    }),
    page('segmentshistory', 'routes.common.segmentsHistory', { component: SegmentsHistoryPage }),
    adminOnly('interface/config', 'routes.administration.interfaceConfig', {
      ...nav('interfaces', 13),
      component: InterfaceConfigScreen,
      children: [
        { index: true, roles: ADMINISTRATOR, redirectTo: 'information' },
        adminOnly('information', 'routes.administration.interfaceInformation', { component: InterfaceInformationPage }),
        adminOnly('configuration', 'routes.administration.interfaceConfiguration', {
          areas: ['exchange'],
          component: InterfaceConfigurationPage,
        }),
      ],
    }),
    adminOnly('interface/overview', 'routes.administration.interfaceOverview', {
      areas: ['administration'],
      ...nav('interfaces', 10),
      component: InterfaceOverviewPage,
    }),
    adminOnly('interface/registration', 'routes.administration.interfaceRegistration', {
      areas: ['administration'],
      ...nav('interfaces', 11),
      component: InterfaceRegistrationPage,
    }),
    adminOnly('interface/history', 'routes.administration.interfaceHistory', {
      areas: ['administration'],
      ...nav('interfaces', 12),
      component: InterfaceHistoryPage,
    }),
    adminOnly('exportlimitation/registration', 'routes.administration.exportLimitationRegistration', {
      ...nav('exportLimitations', 15),
      component: ExportLimitationRegistrationPage,
    }),
    adminOnly('exportlimitation/overview', 'routes.administration.exportLimitationOverview', {
      ...nav('exportLimitations', 14),
      component: ExportLimitationOverviewPage,
    }),
    // The uploads' policy (timeSeriesImport) among the administration writers: the train-run data
    // provider, also an importer, has no administration section and uploads from the data log.
    page('timeseries/import', 'routes.administration.timeseriesImport', {
      roles: ADMIN_WRITE.filter((role) => POLICIES.timeSeriesImport.roles.includes(role)),
      ...nav('timeSeries', 16),
      component: TimeSeriesImportPage,
    }),
    adminOnly('final-resting-place', 'routes.administration.finalRestingPlace', { areas: ['exchange'] }),
    page('entities/registration', 'routes.administration.entitiesRegistration', {
      roles: ADMIN_WRITE,
      ...nav('entities', 2),
      component: EntitiesRegistrationPage,
      // The child forms of entities registration (product.md §2): one per administration kind.
      children: ADMINISTRATION_KINDS.map((form) =>
        page(form, 'routes.common.entityForm', {
          roles: ADMIN_WRITE,
          titleArgs: { entity: `entities.${form}` },
          component: EntityFormPage,
        }),
      ),
    }),
    page('entities/overview', 'routes.administration.entitiesOverview', {
      names: ['entitiesOverview'],
      ...nav('entities', 1),
      component: EntitiesOverviewPage,
    }),
    page('entities/overview/errorsummary', 'routes.common.errorSummary', {
      names: ['entitiesOverview_errorsummary'],
      component: EntitiesErrorSummaryPage,
    }),
    // The exchange variant renders at the same path when the exchange area is selected (product.md §2).
    adminOnly('security/timeseriestypes', 'routes.administration.securityTimeseriesTypes', {
      variants: { exchange: { titleKey: 'routes.administration.securityTimeseriesTypesExchange' } },
    }),
    page('import', 'routes.common.import', {
      roles: ADMIN_WRITE,
      names: ['entitiesOverview_import'],
      ...nav('entities', 3),
      component: ImportPage,
    }),
    adminOnly('deadletterqueueadmin', 'routes.administration.deadLetterQueueAdmin', {
      ...fromPolicy(POLICIES.deadLetterQueues),
      ...nav('operations', 19),
      component: DeadLetterQueueAdminPage,
    }),
    // Our addition (issue 20 item 5): the e-mails kept instead of sent when no SMTP server is set.
    adminOnly('sentmail', 'routes.administration.sentMail', {
      ...fromPolicy(POLICIES.administratorOnly),
      ...nav('operations', 20),
      component: SentMailPage,
    }),
    adminOnly('import-prices', 'routes.administration.importPrices', {
      ...nav('timeSeries', 17),
      component: ImportPricesPage,
    }),
    // Transmission-unit model areas only; viewing it is for the settlement staff, not the consumer.
    page('settlementconfiguration', 'routes.administration.settlementConfiguration', {
      roles: without(ADMIN_ROLES, 'consumer'),
      areas: ['exchange', ...TRANSMISSION_UNIT_COUNTRIES],
      ...nav('settlement', 18),
      component: TuSettlementPage,
    }),
    page('unauthorized', 'routes.unauthorized'),
  ],
};
