import type { ServiceContext } from '../../context.js';
import type { StoredEntry } from './repository.js';

/**
 * What the data log's re-import, re-export and re-order calls run, per message type. The intake,
 * the exporters and the report jobs register their functions at start-up; the data log owns the
 * rules (who, which entries: contracts datalog-actions.ts), they own the work. A type without a
 * registered function is answered 400 ('Could not reimport timeseries' and its siblings).
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

type Kind = 'reimport' | 'reexport' | 'reorder';
const registries: Record<Kind, Map<string, Repeater>> = {
  reimport: new Map(),
  reexport: new Map(),
  reorder: new Map(),
};

function register(kind: Kind, messageType: string, fn: Repeater): () => void {
  registries[kind].set(messageType, fn);
  return () => {
    if (registries[kind].get(messageType) === fn) registries[kind].delete(messageType);
  };
}

/** Registers the re-import of a message type; returns the function that removes it (tests). */
export const registerReimporter = (messageType: string, fn: Reimporter): (() => void) =>
  register('reimport', messageType, fn);
export const registerReexporter = (messageType: string, fn: Repeater): (() => void) =>
  register('reexport', messageType, fn);
export const registerReorderer = (messageType: string, fn: Repeater): (() => void) =>
  register('reorder', messageType, fn);

export const registeredAction = (kind: Kind, messageType: string): Repeater | undefined =>
  registries[kind].get(messageType);
