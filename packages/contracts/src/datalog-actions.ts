import type { AreaKind } from './areas.js';
import {
  DATA_LOG_READERS,
  DATA_LOG_REEXPORTERS,
  DATA_LOG_REIMPORTERS,
  REPORT_REORDERERS,
  ADMINISTRATOR_ONLY,
} from './access-rules.js';
import { MESSAGE_TYPES, REPORT_MESSAGE_TYPES } from './datalog.js';
import type { Role } from './roles.js';

/**
 * "Actions on a message (who and when)", calls.md §4, as one pure module: the server refuses what it
 * does not allow (403 'Not authorized' for the role, 400 for the entry's type or status) and the
 * web shows a button only where it allows. Nothing else decides these.
 */

/** What the rules read of an entry. */
export interface DataLogActionEntry {
  messageType: string;
  messageStatus: string;
  messageText?: string | null;
  fileName?: string | null;
}

export const DATA_LOG_ACTIONS = [
  'reimport',
  'reexport',
  'reorder',
  'setToError',
  'download',
  'downloadResponse',
] as const;
export type DataLogAction = (typeof DATA_LOG_ACTIONS)[number];

/** Why an action is refused: `role` (403) or `entry` (its type, status or file name; 400). */
export type ActionVerdict = 'allowed' | 'role' | 'entry';

export type AllowedActions = Record<DataLogAction, boolean> & { showValuesCount: boolean };

const T = MESSAGE_TYPES;
const TRAIN_RUN_INTAKE: readonly string[] = [T.trainRunInput, T.trainRunCorrection, T.trainRunDelete];
const EXCEL_IMPORTS: readonly string[] = [T.excelDomainImport, T.excelOrganisationImport, T.excelTimeSeriesImport];
/** Imports re-imported after an ERROR (calls.md §4: degree days, substation, fixed installation, Nordpool, CEBD). */
const REIMPORT_ON_ERROR: readonly string[] = [
  T.degreeDaysImport,
  T.substationImport,
  T.fixedInstallationImport,
  T.nordpoolPriceImport,
  T.cebdImport,
];
const REEXPORT_ON_ERROR: readonly string[] = [T.trainRunOutput, T.exportToConsumer];
/** calls.md §4: the time-series count is hidden for Delete Train Run, Ordered and Scheduled report and report types. */
const NO_VALUES_COUNT: readonly string[] = [T.trainRunDelete, ...REPORT_MESSAGE_TYPES];

/**
 * The file name of a CEBD block: a CEBD block message carries it in place of a file of its own, so
 * there is nothing to download (calls.md §4 "needs a file name other than the cebd block file").
 */
export const CEBD_BLOCK_FILE_NAME = 'CEBDBlockFile';

const holds = (roles: readonly Role[], allowed: readonly Role[]) => roles.some((r) => allowed.includes(r));
const isReport = (type: string) => REPORT_MESSAGE_TYPES.includes(type);
const hasFile = (entry: DataLogActionEntry) => Boolean(entry.fileName && entry.fileName.trim() !== '');

/** One action's verdict for a user holding `roles` in `area`. */
export function actionVerdict(
  action: DataLogAction,
  entry: DataLogActionEntry,
  roles: readonly Role[],
  area: AreaKind | null,
): ActionVerdict {
  const type = entry.messageType;
  const status = entry.messageStatus;
  const verdict = (roleOk: boolean, entryOk: boolean): ActionVerdict =>
    !roleOk ? 'role' : entryOk ? 'allowed' : 'entry';
  switch (action) {
    case 'reimport': {
      // The administrator alone (product.md §6; access-rules.ts DATA_LOG_REIMPORTERS says why).
      const entryOk =
        hasFile(entry) &&
        !TRAIN_RUN_INTAKE.includes(type) &&
        type !== T.meteredEnergyAggregation &&
        (((status === 'REJECTED' || status === 'PARTLY_REJECTED') && !EXCEL_IMPORTS.includes(type)) ||
          (status === 'ERROR' && REIMPORT_ON_ERROR.includes(type)));
      return verdict(holds(roles, DATA_LOG_REIMPORTERS), entryOk);
    }
    case 'reexport': {
      // The administrator alone (product.md §6; access-rules.ts DATA_LOG_REEXPORTERS says why): a
      // REJECTED or ERROR metered energy aggregation, an ERROR train-run output or export to consumer.
      const entryOk =
        type === T.meteredEnergyAggregation
          ? status === 'REJECTED' || status === 'ERROR'
          : status === 'ERROR' && REEXPORT_ON_ERROR.includes(type);
      return verdict(holds(roles, DATA_LOG_REEXPORTERS), entryOk);
    }
    case 'reorder':
      return verdict(holds(roles, REPORT_REORDERERS), status === 'ERROR' && isReport(type));
    case 'setToError':
      return verdict(holds(roles, ADMINISTRATOR_ONLY), isReport(type) && status !== 'ERROR' && status !== 'OK');
    case 'download':
      return verdict(
        holds(roles, DATA_LOG_READERS),
        hasFile(entry) &&
          entry.fileName !== CEBD_BLOCK_FILE_NAME &&
          !(status === 'OK' && type === T.cebdValidation) &&
          !(status === 'RETRIED' && type !== T.meteredEnergyAggregation) &&
          !isReport(type),
      );
    case 'downloadResponse':
      // The Netherlands market's aggregation exports: not ERROR, or an ERROR whose text names a parse error.
      return verdict(
        holds(roles, DATA_LOG_READERS),
        area === 'netherlands' &&
          type === T.meteredEnergyAggregation &&
          (status !== 'ERROR' || /parse error/i.test(entry.messageText ?? '')),
      );
  }
}

/** Every action's answer for one entry: the buttons a row shows. */
export function allowedActions(
  entry: DataLogActionEntry,
  roles: readonly Role[],
  area: AreaKind | null,
): AllowedActions {
  const result = Object.fromEntries(
    DATA_LOG_ACTIONS.map((action) => [action, actionVerdict(action, entry, roles, area) === 'allowed']),
  ) as Record<DataLogAction, boolean>;
  return { ...result, showValuesCount: !NO_VALUES_COUNT.includes(entry.messageType) };
}
