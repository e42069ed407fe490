import type { ServiceContext } from '../../context.js';
import type { StoredEntry } from './repository.js';

/**
 * What the data log's re-import, re-export and re-order calls run, per message type. The intake,
 * the aggregation's delivery and the reports each export their list (intakeReimporters,
 * AGGREGATION_REEXPORTERS, reportReorderers); the app builds the table once from them (app.ts,
 * dataLogActions) and hands it to the data log's routes. The data log owns the rules (who, which
 * entries: contracts datalog-actions.ts), they own the work. A type without a function is answered
 * 400 ('Could not reimport timeseries' and its siblings).
 */

/** What the work answers: optionally the entry it wrote and the outcome to show on the original. */
export interface DataLogActionOutcome {
  /** The data-log entry the repeated work wrote (a re-import is a new file in the log). */
  dataLogId?: number;
  /** The original's new status and text; default RETRIED with a text naming the new entry. */
  messageStatus?: string;
  messageText?: string | null;
}

/**
 * Re-imports the stored file of `entry` in the request's area (the data log checked that it has
 * one). Its bytes are read or copied through file-store.ts (copyFileBytes keeps them in the
 * database), never handed over whole.
 */
export type Reimporter = (ctx: ServiceContext, entry: StoredEntry) => Promise<DataLogActionOutcome | void>;
/** Re-exports or re-orders what `entry` describes (its stored file, if any, through file-store.ts). */
export type Repeater = (ctx: ServiceContext, entry: StoredEntry) => Promise<DataLogActionOutcome | void>;

export type DataLogActionKind = 'reimport' | 'reexport' | 'reorder';
/** A module's functions for one kind of action: [message type, work]. */
export type DataLogActionList = readonly (readonly [messageType: string, work: Repeater])[];
/** The app's table of actions, per kind and message type. */
export type DataLogActions = Readonly<Record<DataLogActionKind, ReadonlyMap<string, Repeater>>>;

/**
 * The table of the lists given per kind (a type listed twice for one kind is a programming error);
 * `replacing` (a test's own) takes the place of the lists' functions for the types it names.
 */
export function dataLogActions(
  lists: Partial<Record<DataLogActionKind, readonly DataLogActionList[]>>,
  replacing: Partial<Record<DataLogActionKind, DataLogActionList>> = {},
): DataLogActions {
  const table = (kind: DataLogActionKind) => {
    const map = new Map<string, Repeater>();
    for (const [messageType, work] of (lists[kind] ?? []).flat()) {
      if (map.has(messageType)) throw new Error(`Two ${kind} functions for ${messageType}`);
      map.set(messageType, work);
    }
    for (const [messageType, work] of replacing[kind] ?? []) map.set(messageType, work);
    return map;
  };
  return { reimport: table('reimport'), reexport: table('reexport'), reorder: table('reorder') };
}
