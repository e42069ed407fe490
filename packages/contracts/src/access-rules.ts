import { EXCHANGE_ROLE_GROUP, rolesExcept, SETTLEMENT_ROLE_GROUP, type Role } from './roles.js';

/**
 * Who may do what with master data: the role decisions of product.md §6 and the Administration menu,
 * written once. Route access policies (calls), the server's per-entity policy, the web route table,
 * the menu and the tests all read these lists; nothing else lists roles for these concerns.
 */

/** Reading domain data and the fleet: every role except the train-run-data-provider and consumer. */
export const DOMAIN_READERS: readonly Role[] = rolesExcept('train-run-data-provider', 'consumer');

/**
 * Fleet kinds (traction unit, consumption point, traction unit type). The erex-settlement-operator
 * writes units because approval for billing belongs to settlement roles; a vehicle keeper writes only
 * the units of organisations it belongs to (OWN_FLEET_ONLY).
 */
export const FLEET_WRITERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
  'cp-admin',
  'exchange-operator',
  'vehicle-keeper',
];

/** Writers restricted to their own organisations' fleet. */
export const OWN_FLEET_ONLY: readonly Role[] = ['vehicle-keeper'];

/** Motor types: fleet writers that act for more than their own organisation. */
export const MOTOR_TYPE_WRITERS: readonly Role[] = FLEET_WRITERS.filter((r) => !OWN_FLEET_ONLY.includes(r));

/**
 * Approval of traction units for billing: settlement roles, not the vehicle keeper that owns the
 * unit (issue 6, item 4). A save by anyone else keeps the stored approval unchanged.
 */
export const UNIT_APPROVERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
];

/** product.md §6: approval (and unapproval, retiring an approved one) of traction unit types. */
export const TYPE_APPROVERS: readonly Role[] = ['erex-administrator'];

/**
 * Organisations and administration kinds: the roles that have the Administration section in the
 * area and may write (audit roles and consumers only read). In the exchange area only the
 * erex-administrator has the section (EXCHANGE_AREA_ADMINISTRATION_WRITERS).
 */
export const ADMINISTRATION_WRITERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
];
export const EXCHANGE_AREA_ADMINISTRATION_WRITERS: readonly Role[] = ['erex-administrator'];

/**
 * Infrastructure entity kinds (supply and fixed metering points, crossings, tracks, payload points
 * ...): the roles of the Infrastructure section (the menu table: erex-administrator, both area
 * responsibles, the settlement operators, exchange-operator, cp-admin, consumer) without the
 * read-only audit roles and the consumer (view access). The web's INFRA_WRITE is the same list.
 */
export const INFRASTRUCTURE_WRITERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
  'exchange-operator',
  'cp-admin',
];

/** product.md §6: export limitations, interface configuration and other erex-administrator pages. */
export const ADMINISTRATOR_ONLY: readonly Role[] = ['erex-administrator'];

/** Roles that act for the whole area: for them "own data" in fleet search is every unit of the area. */
export const AREA_WIDE_ROLES: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
];

/**
 * User management (product.md §6 "erex-administrator only: user registration and overview across
 * areas"): the administrator everywhere; a settlement-area responsible lists, creates and edits the
 * users of its own area only (the user service narrows it to the current tenant).
 */
export const USER_ADMINISTRATORS: readonly Role[] = ADMINISTRATOR_ONLY;
export const USER_AREA_ADMINISTRATORS: readonly Role[] = ['erex-administrator', 'settlement-area-responsible'];

/**
 * Time-series intake (issue 8): uploading CEBD, UTILTS, sdv, Excel, CSV and train-run files. The
 * settlement roles that write (not the audit roles) and the train-run data provider, who sends
 * train runs and sees their outcome in the data log.
 */
export const TIME_SERIES_IMPORTERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
  'train-run-data-provider',
];

/** The settlement data log (product.md §2 Monitor: data log): the settlement role group and the exchange operator. */
export const DATA_LOG_READERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
  'train-run-data-provider',
  'consumer',
  'exchange-operator',
];

/**
 * The data log's files of the area (intake, prices, master data, exports and reports: entries that
 * name no organisation) are read by the data-log readers that work with the area's files. A consumer
 * reads only the files of its own organisations (its metered-energy aggregations), as it reads only
 * their settlement figures (issue 17 item 3; product.md §2 sends a consumer from the data log to the
 * event monitor).
 */
export const AREA_FILE_READERS: readonly Role[] = DATA_LOG_READERS.filter((r) => r !== 'consumer');

/**
 * Re-import and re-export of data-log entries: the erex-administrator alone (product.md §6
 * "erex-administrator only: ... re-import and re-export of data log entries"). calls.md §4 gives a
 * role list per action (re-import by the uploading roles, re-export of an aggregation by any reader)
 * and, beside it, "another reading says only the erex administrator"; product.md §6 states that
 * reading as the rule, and calls.md §5 sends both actions back to §4. We follow product.md (issue 17
 * item 9): a repeat reprocesses or resends a file for the whole area, which is the administrator's
 * work like the dead letter queues beside it. calls.md §4's conditions on the entry still hold.
 */
export const DATA_LOG_REIMPORTERS: readonly Role[] = ADMINISTRATOR_ONLY;
export const DATA_LOG_REEXPORTERS: readonly Role[] = ADMINISTRATOR_ONLY;

/**
 * Dead letter queues, the administration page and a process's dead letter page (combine's): the
 * erex-administrator alone (product.md §6 "dead letter queue admin", calls.md §5 "Administrator
 * alone: ... dead letter queue admin"). Both pages rerun jobs of the whole area.
 */
export const DEAD_LETTER_QUEUE_ADMINS: readonly Role[] = ADMINISTRATOR_ONLY;

/** Re-order of an ERROR report (calls.md §4, product.md §6): the administrator and the settlement operator. */
export const REPORT_REORDERERS: readonly Role[] = ['erex-administrator', 'erex-settlement-operator'];

/**
 * Ordering reports (issue 20; product.md §2 "Reports"): the settlement role group without the
 * train-run data provider (whose pages are the data log and completeness), and the exchange roles
 * that receive figures: cp-admin and vehicle keeper (product.md §2: users holding only those reaching
 * the data log go to Reports). The exchange operator moves files and orders none. Which of these may
 * order which report is each report's definition (apps/server/src/modules/reports); what a role
 * other than the area-wide ones sees in it is its own organisations (organisation/visibility.ts).
 */
export const REPORT_ORDERERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
  'consumer',
  'cp-admin',
  'vehicle-keeper',
];

/**
 * Running and re-running processes (issue 9: "Area responsibles edit and run; audit roles only
 * look"): the administrator, the settlement-area responsible and the settlement operator, the roles
 * that write in the settlement area (ADMINISTRATION_WRITERS).
 */
export const PROCESS_RUNNERS: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'erex-settlement-operator',
];

/**
 * Reading process logs, results and events: the runners, their audit twins (who see the same
 * without run or edit) and the consumer. Our reading of product.md §2: a consumer opening a process
 * log is sent to that process's configuration view, so it reads processes; the other roles of the
 * Monitor menu (exchange operator, cp-admin, train-run data provider) have no process pages.
 */
export const PROCESS_READERS: readonly Role[] = [
  ...PROCESS_RUNNERS,
  'audit-settlement-area-responsible',
  'audit-erex-settlement-operator',
  'consumer',
];

/**
 * Processing configurations (calls.md §7, issue 9 item 2): read and written by the same roles as
 * the processes they configure. Read by the settlement role group without the train-run-data
 * provider (the Monitor configuration views and the Settlement section exclude it, product.md §2);
 * written by those that run processes, never an audit role.
 */
export const PROCESSING_CONFIG_READERS: readonly Role[] = PROCESS_READERS;
export const PROCESSING_CONFIG_WRITERS: readonly Role[] = PROCESS_RUNNERS;

/**
 * The dashboard home and its statistics (issue 9 item 6): the roles of the dashboard route, every
 * role except the train-run-data provider (product.md §2 "/ is the dashboard home (not for
 * train-run-data providers)").
 */
export const DASHBOARD_READERS: readonly Role[] = rolesExcept('train-run-data-provider');

/**
 * Completeness verification (product.md §2): the settlement role group reads it by traction unit
 * (the train-run data provider among them, product.md §6 "data log and completeness verification"),
 * the exchange role group by consumption point. One call serves both screens.
 */
export const COMPLETENESS_READERS: readonly Role[] = [...new Set([...SETTLEMENT_ROLE_GROUP, ...EXCHANGE_ROLE_GROUP])];
