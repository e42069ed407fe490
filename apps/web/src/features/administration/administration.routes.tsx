import { ADMINISTRATION_KINDS, POLICIES, TRANSMISSION_UNIT_COUNTRIES } from '@railwatt/contracts';
import { ADMINISTRATOR, COUNTRIES, fromPolicy, SETTLEMENT_STAFF, without, writersAmong } from '../../lib/access';
import { lazyScreen, pageBuilder, type AppRoute } from '../../lib/routes';

const AdministrationScreen = lazyScreen(() => import('./components/administration-screen'), 'AdministrationScreen');

/**
 * Administration (menu table): erex-administrator, the area responsibles, the settlement operators, and
 * consumer outside the exchange area; only erex-administrator in the exchange area. No train-run-data
 * provider. Hidden in master-data mode.
 */
const ADMIN_ROLES = SETTLEMENT_STAFF;
/** Registration, import and edit pages: not the read-only audit roles nor the consumer. */
const ADMIN_WRITE = writersAmong(ADMIN_ROLES);

const page = pageBuilder({ roles: ADMIN_ROLES, component: AdministrationScreen });

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
    }),
    page('user/overview', 'routes.administration.userOverview'),
    adminOnly('user/registeracrosssettlementareas', 'routes.administration.userRegisterAcross'),
    adminOnly('user/viewacrosssettlementareas', 'routes.administration.userViewAcross'),
    page('organisation/registration', 'routes.administration.organisationRegistration', {
      ...fromPolicy(POLICIES.organisationWrite),
    }),
    page('organisation/overview', 'routes.administration.organisationOverview'),
    page('segmentshistory', 'routes.common.segmentsHistory'),
    adminOnly('interface/config', 'routes.administration.interfaceConfig', {
      children: [
        { index: true, roles: ADMINISTRATOR, redirectTo: 'information' },
        adminOnly('information', 'routes.administration.interfaceInformation'),
        adminOnly('configuration', 'routes.administration.interfaceConfiguration', { areas: ['exchange'] }),
      ],
    }),
    adminOnly('interface/overview', 'routes.administration.interfaceOverview', { areas: ['administration'] }),
    adminOnly('interface/registration', 'routes.administration.interfaceRegistration', { areas: ['administration'] }),
    adminOnly('interface/history', 'routes.administration.interfaceHistory', { areas: ['administration'] }),
    adminOnly('exportlimitation/registration', 'routes.administration.exportLimitationRegistration'),
    adminOnly('exportlimitation/overview', 'routes.administration.exportLimitationOverview'),
    page('timeseries/import', 'routes.administration.timeseriesImport', { roles: ADMIN_WRITE }),
    adminOnly('final-resting-place', 'routes.administration.finalRestingPlace', { areas: ['exchange'] }),
    page('entities/registration', 'routes.administration.entitiesRegistration', {
      roles: ADMIN_WRITE,
      // The child forms of entities registration (product.md §2): one per administration kind.
      children: ADMINISTRATION_KINDS.map((form) =>
        page(form, 'routes.common.entityForm', { roles: ADMIN_WRITE, titleArgs: { entity: `entities.${form}` } }),
      ),
    }),
    page('entities/overview', 'routes.administration.entitiesOverview', { names: ['entitiesOverview'] }),
    page('entities/overview/errorsummary', 'routes.common.errorSummary', { names: ['entitiesOverview_errorsummary'] }),
    // The exchange variant renders at the same path when the exchange area is selected (product.md §2).
    adminOnly('security/timeseriestypes', 'routes.administration.securityTimeseriesTypes', {
      variants: { exchange: { titleKey: 'routes.administration.securityTimeseriesTypesExchange' } },
    }),
    page('import', 'routes.common.import', { roles: ADMIN_WRITE, names: ['entitiesOverview_import'] }),
    adminOnly('deadletterqueueadmin', 'routes.administration.deadLetterQueueAdmin'),
    adminOnly('import-prices', 'routes.administration.importPrices'),
    // Transmission-unit model areas only; viewing it is for the settlement staff, not the consumer.
    page('settlementconfiguration', 'routes.administration.settlementConfiguration', {
      roles: without(ADMIN_ROLES, 'consumer'),
      areas: ['exchange', ...TRANSMISSION_UNIT_COUNTRIES],
    }),
    page('unauthorized', 'routes.unauthorized'),
  ],
};
