import {
  ADMINISTRATION_WRITERS,
  ADMINISTRATOR_ONLY,
  COMPLETENESS_READERS,
  DASHBOARD_READERS,
  DATA_LOG_READERS,
  DATA_LOG_REEXPORTERS,
  DATA_LOG_REIMPORTERS,
  DEAD_LETTER_QUEUE_ADMINS,
  DOMAIN_READERS,
  EXCHANGE_AREA_ADMINISTRATION_WRITERS,
  FLEET_WRITERS,
  INFRASTRUCTURE_WRITERS,
  MOTOR_TYPE_WRITERS,
  PROCESS_READERS,
  PROCESS_RUNNERS,
  PROCESSING_CONFIG_READERS,
  PROCESSING_CONFIG_WRITERS,
  REPORT_ORDERERS,
  REPORT_REORDERERS,
  TIME_SERIES_IMPORTERS,
  USER_ADMINISTRATORS,
  USER_AREA_ADMINISTRATORS,
} from '../access-rules.js';
import type { AreaKind } from '../areas.js';
import type { Role } from '../roles.js';

/**
 * A named access policy: who may make a call. The server's access hook enforces it (config.access),
 * the web route table and menu show a page only to roles its policy admits, and the access tests
 * try a role outside it. The lists come from access-rules.ts; nothing here lists roles of its own.
 */
export interface AccessPolicy {
  readonly name: string;
  /** Roles held in the current area (or anywhere, for `tenant: false`); 'any' = any signed-in user. */
  readonly roles: readonly Role[] | 'any';
  /** Whether the call acts in an area (the current-tenant-id header). */
  readonly tenant: boolean;
  /** Per-area replacement of `roles` (Administration in the exchange area: the administrator only). */
  readonly areaRoles?: Partial<Record<AreaKind, readonly Role[]>>;
}

const union = (...lists: (readonly Role[])[]): readonly Role[] => [...new Set(lists.flat())];

export const POLICIES = {
  /** Any signed-in user, before an area is chosen (who am I, which areas may I pick). */
  signedIn: { name: 'signedIn', roles: 'any', tenant: false },
  /** Option and name lookups (pickers) any role in the area meets; fleet kinds are narrowed in the handler. */
  domainLookup: { name: 'domainLookup', roles: 'any', tenant: true },
  /** Reading domain data and the fleet (Fleet screens, exports). */
  domainRead: { name: 'domainRead', roles: DOMAIN_READERS, tenant: true },
  /** Traction units with their type and consumption points. */
  fleetWrite: { name: 'fleetWrite', roles: FLEET_WRITERS, tenant: true },
  /** Motor types. */
  motorTypeWrite: { name: 'motorTypeWrite', roles: MOTOR_TYPE_WRITERS, tenant: true },
  /**
   * Saving or changing the status of any entity kind: every writer of some kind; which kinds each
   * may write is the per-entity policy's (apps/server/src/modules/domain/policy.ts).
   */
  entityWrite: {
    name: 'entityWrite',
    roles: union(FLEET_WRITERS, ADMINISTRATION_WRITERS, INFRASTRUCTURE_WRITERS, ADMINISTRATOR_ONLY),
    tenant: true,
  },
  /** Domain workbook upload: the same writers; each sheet's kind is checked per entity. */
  excelImport: {
    name: 'excelImport',
    roles: union(FLEET_WRITERS, ADMINISTRATION_WRITERS, INFRASTRUCTURE_WRITERS, ADMINISTRATOR_ONLY),
    tenant: true,
  },
  /** Organisations (types, export credentials): the roles with the Administration section in the area. */
  organisationWrite: {
    name: 'organisationWrite',
    roles: ADMINISTRATION_WRITERS,
    tenant: true,
    areaRoles: { exchange: EXCHANGE_AREA_ADMINISTRATION_WRITERS },
  },
  /** Administration kinds and pages (the Administration section). */
  administrationWrite: {
    name: 'administrationWrite',
    roles: ADMINISTRATION_WRITERS,
    tenant: true,
    areaRoles: { exchange: EXCHANGE_AREA_ADMINISTRATION_WRITERS },
  },
  /** product.md §6: erex-administrator pages and calls. */
  administratorOnly: { name: 'administratorOnly', roles: ADMINISTRATOR_ONLY, tenant: true },
  /** Time-series and train-run uploads (CEBD, UTILTS, sdv, Excel, CSV, train runs). */
  timeSeriesImport: { name: 'timeSeriesImport', roles: TIME_SERIES_IMPORTERS, tenant: true },
  /** The settlement data log and the time-series types it filters on. */
  dataLogRead: { name: 'dataLogRead', roles: DATA_LOG_READERS, tenant: true },
  /** Re-importing a data-log entry (the administrator, product.md §6); which entries is datalog-actions.ts's. */
  dataLogReimport: { name: 'dataLogReimport', roles: DATA_LOG_REIMPORTERS, tenant: true },
  /** Re-exporting a data-log entry (the administrator, product.md §6); which entries is datalog-actions.ts's. */
  dataLogReexport: { name: 'dataLogReexport', roles: DATA_LOG_REEXPORTERS, tenant: true },
  /** Re-ordering a report of the data log (calls.md §4): administrator and settlement operator. */
  dataLogReorder: { name: 'dataLogReorder', roles: REPORT_REORDERERS, tenant: true },
  /** Running and re-running processes (issue 9): not the audit roles. */
  processingRun: { name: 'processingRun', roles: PROCESS_RUNNERS, tenant: true },
  /** Reports (issue 20): the reports a user may order, ordering one, and its file. */
  reportOrder: { name: 'reportOrder', roles: REPORT_ORDERERS, tenant: true },
  /**
   * Report schedules (issue 20 item 4): the roles that order reports; which report each may schedule
   * is the report's own rule (who may order it), and a schedule shows to its owner and the area-wide roles.
   */
  reportSchedule: { name: 'reportSchedule', roles: REPORT_ORDERERS, tenant: true },
  /**
   * POST /processing/tasks/{procedure}: a procedure's task (processingRun's roles) or a report order
   * (reportOrder's) on one path; the route holds each reading to its own roles.
   */
  processingTaskOrReport: {
    name: 'processingTaskOrReport',
    roles: union(PROCESS_RUNNERS, REPORT_ORDERERS),
    tenant: true,
  },
  /** Dead letter queues (issue 9), the administration page and combine's dead letter page: the administrator. */
  deadLetterQueues: { name: 'deadLetterQueues', roles: DEAD_LETTER_QUEUE_ADMINS, tenant: true },
  /** Process logs, procedure results and processing events: the runners, the audit roles, the consumer. */
  processingRead: { name: 'processingRead', roles: PROCESS_READERS, tenant: true },
  /** Users of the current area: the administrator, and a settlement-area responsible for its own area. */
  userAreaAdmin: { name: 'userAreaAdmin', roles: USER_AREA_ADMINISTRATORS, tenant: true },
  /** Users across areas, enabling and passwords: the administrator only. */
  userAdmin: { name: 'userAdmin', roles: USER_ADMINISTRATORS, tenant: true },
  /** Processing configurations (calls.md §7): settlement staff read, audit roles and the consumer included. */
  processingConfigRead: { name: 'processingConfigRead', roles: PROCESSING_CONFIG_READERS, tenant: true },
  /** Changing a processing configuration from a date: the roles that run processes; never an audit role. */
  processingConfigWrite: { name: 'processingConfigWrite', roles: PROCESSING_CONFIG_WRITERS, tenant: true },
  /** The dashboard home's statistics (queue sizes, CEBD days, offset lag, delivery info): its route's roles. */
  statisticsRead: { name: 'statisticsRead', roles: DASHBOARD_READERS, tenant: true },
  /** Completeness verification by traction unit (settlement role group) and by consumption point (exchange group). */
  completenessRead: { name: 'completenessRead', roles: COMPLETENESS_READERS, tenant: true },
} as const satisfies Record<string, AccessPolicy>;

export type PolicyName = keyof typeof POLICIES;

/** The roles a policy admits in an area (a per-area list replaces the general one). */
export function policyRoles(policy: AccessPolicy, area: AreaKind | null): readonly Role[] | 'any' {
  return (area ? policy.areaRoles?.[area] : undefined) ?? policy.roles;
}

/** Does a user holding `roles` (in `area`) pass the policy? */
export function policyAdmits(policy: AccessPolicy, held: readonly Role[], area: AreaKind | null): boolean {
  const allowed = policyRoles(policy, area);
  if (allowed === 'any') return held.length > 0;
  return held.some((r) => allowed.includes(r));
}
