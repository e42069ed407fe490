import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ENTITY_KINDS, MESSAGES, type EntityKind } from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { constraintErrorOf } from '../../db/constraints.js';
import { ApiError } from '../../errors.js';
import { DEFAULT_TABLE_READ_LIMITS, type TableReadLimits } from '../../formats/xlsx/table-workbook.js';
import {
  readDomainWorkbook,
  type ReadWorkbookTask,
  type ReadWorkbookResult,
} from '../../workers/read-domain-workbook.js';
import { finishFile, MESSAGE_TYPES, startFile, type MessageStatus } from '../datalog/datalog-service.js';
import { mayWriteKind } from '../domain/policy.js';
import { findHolders } from '../domain/repository.js';
import { overlaps } from '../domain/segments.js';
import { applyPlan, planEntities, type RecordError } from '../domain/service.js';
import type { Executor } from '../domain/sql.js';
import {
  cellMessage,
  invalidValue,
  type SegmentRow,
  type SheetFailure,
  type SheetParseResult,
} from './domain-workbook.js';
import { DERIVED_ATTRIBUTES, sheetLayout } from './entity-columns.js';

/**
 * POST /excel/domain/import: many files, many sheets each. Every file gets a data-log entry with
 * status RUNNING before it is read, and its outcome after. Every file is read and its cells checked
 * off the event loop (options.readWorkbook: a worker thread in the server), its rows mapped to
 * entity records (identity and references by name) and planned through the one entity pipeline
 * (modules/domain planEntities: the kind's schema, uniqueness, overlaps, who may write what), whose
 * refusals come back to the cells; if any sheet of any file has a failure nothing is stored.
 * Otherwise the plan is stored in the same transaction with a handful of set-based statements
 * (unnest arrays), whatever the row count. The data-log entries are written outside that transaction, so a rolled-back import is
 * still logged.
 */
export interface ImportFile {
  fileName: string;
  bytes: Buffer;
  contentType?: string;
}

export interface ImportAnswer {
  success: boolean;
  sheetParseResults: SheetParseResult[];
}

export interface ImportOptions {
  limits?: TableReadLimits;
  /** Reads and checks one workbook; the server passes its worker pool. Default: in this thread. */
  readWorkbook?: (task: ReadWorkbookTask) => Promise<ReadWorkbookResult>;
  /** Only sheets of these kinds are accepted (POST /excel/domain/import-org: organisations). Default: every kind. */
  kinds?: readonly EntityKind[];
  /** The data-log message type of the files. Default: MESSAGE_TYPES.excelDomainImport. */
  messageType?: string;
}

/** A validated row: its entity, resolved attributes and where it came from. */
interface ReadyRow extends SegmentRow {
  fileIndex: number;
  entityUuid: string;
  result: SheetParseResult;
}

interface FileState {
  file: ImportFile;
  /** Its data-log entry (status RUNNING until the outcome is known). */
  logId: number;
  results: SheetParseResult[];
  rows: (SegmentRow & { result: SheetParseResult })[];
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const lower = (s: string) => s.toLowerCase();
const refKey = (kind: string, name: string) => `${kind}\u0000${lower(name)}`;

/** Validation loops give the event loop a turn after this many rows, so other requests keep answering. */
const ROWS_PER_TURN = 2_000;

export async function importDomainFiles(
  ctx: ServiceContext,
  files: readonly ImportFile[],
  options: ImportOptions = {},
): Promise<ImportAnswer> {
  // 0. Every file is in the data log (RUNNING, with its bytes) before anything reads it.
  const states: FileState[] = [];
  for (const file of files) {
    const logId = await startFile(ctx.db, {
      tenant: ctx.tenant.uuid,
      username: ctx.actor.username,
      messageType: options.messageType ?? MESSAGE_TYPES.excelDomainImport,
      fileName: file.fileName,
      bytes: file.bytes,
      contentType: file.contentType ?? XLSX_TYPE,
    });
    states.push({ file, logId, results: [], rows: [] });
  }
  try {
    return await importLogged(ctx, states, options);
  } catch (error) {
    // Whatever went wrong, no entry stays RUNNING (ApiError refusals are logged where they arise).
    if (!(error instanceof ApiError)) {
      await logFiles(ctx, states, () => ({ status: 'ERROR', text: 'Failed to store the upload' })).catch(
        () => undefined,
      );
    }
    throw error;
  }
}

async function importLogged(ctx: ServiceContext, states: FileState[], options: ImportOptions): Promise<ImportAnswer> {
  const limits = options.limits ?? DEFAULT_TABLE_READ_LIMITS;
  const read = options.readWorkbook ?? readDomainWorkbook;

  // 1. Read every file. A file that is not a safe workbook rejects the upload (400).
  for (const state of states) {
    const answer = await read({ bytes: state.file.bytes, timeZone: ctx.tenant.timeZone, limits });
    if (!answer.ok) {
      const message = `${state.file.fileName}: ${answer.reason}`;
      await logFiles(ctx, states, () => ({ status: 'REJECTED', text: message }));
      throw ApiError.badRequest('invalid_input', `Something is wrong with uploaded data. ${message}`);
    }
    for (const parsed of answer.sheets) {
      state.results.push(parsed.result);
      if (parsed.layout && options.kinds && !options.kinds.includes(parsed.layout.kind)) {
        parsed.result.failures.push({
          errorMessage: `Something is wrong with data of type: ${parsed.result.type}. Only ${options.kinds
            .map((k) => ENTITY_KINDS[k])
            .join(', ')} sheets can be imported here`,
          type: parsed.result.type,
        });
        continue;
      }
      if (parsed.layout && !mayWriteKind(ctx.actor, parsed.layout.kind)) {
        parsed.result.failures.push({
          errorMessage: `Not authorized to change data of type: ${parsed.result.type}`,
          type: parsed.result.type,
        });
        continue;
      }
      for (const row of parsed.rows) state.rows.push({ ...row, result: parsed.result });
    }
    if (answer.sheets.length === 0) {
      state.results.push({
        sheetName: state.file.fileName,
        type: 'File',
        rowsRead: 0,
        failures: [{ errorMessage: 'Something is wrong with uploaded data. The workbook has no sheets', type: 'File' }],
      });
    }
  }

  // 2. Validate across files against the tenant's data.
  const ready = await mapRows(ctx.db, ctx, states);
  const allResults = states.flatMap((s) => s.results);
  const failed = allResults.some((r) => r.failures.length > 0);

  if (failed) {
    await logFiles(ctx, states, (state) => {
      const failures = state.results.flatMap((r) => r.failures);
      return failures.length > 0
        ? { status: 'REJECTED', text: summarise(failures) }
        : { status: 'REJECTED', text: 'Not stored: another file of the same upload has failures' };
    });
    return { success: false, sheetParseResults: allResults };
  }

  // 3. Plan and store all files in one transaction.
  let outcome: StoreOutcome;
  try {
    outcome = await ctx.db.transaction((tx) => store(tx, ctx, ready));
  } catch (error) {
    if (!(error instanceof PlanRefused)) {
      // A concurrent writer's row can still trip a constraint: its message from the one constraint table.
      const message = error instanceof ApiError ? error.message : storeFailureMessage(error);
      if (!message) throw error;
      allResults[0]?.failures.push({ errorMessage: message, type: allResults[0].type });
    }
    await logFiles(ctx, states, (state) => ({
      status: 'REJECTED',
      text:
        summarise(state.results.flatMap((r) => r.failures)) ||
        'Not stored: another file of the same upload has failures',
    }));
    return { success: false, sheetParseResults: allResults };
  }
  await logFiles(ctx, states, (state) => ({
    status: 'OK',
    text: `${state.rows.length} rows read; of the upload's ${outcome.stored + outcome.unchanged} rows ${outcome.stored} stored, ${outcome.unchanged} unchanged`,
  }));
  return { success: true, sheetParseResults: allResults };
}

function summarise(failures: readonly SheetFailure[]): string {
  const shown = failures.slice(0, 50).map((f) => f.errorMessage);
  if (failures.length > shown.length) shown.push(`... and ${failures.length - shown.length} more`);
  return shown.join('\n');
}

/** The outcome of every file of the upload, on the entries startFile made. */
async function logFiles(
  ctx: ServiceContext,
  states: readonly FileState[],
  outcome: (state: FileState) => { status: Exclude<MessageStatus, 'RUNNING'>; text: string },
): Promise<void> {
  for (const state of states) await finishFile(ctx.db, ctx.tenant.uuid, state.logId, outcome(state));
}

/**
 * Constraint violations that slipped past validation (a concurrent writer) become a failure, with
 * the message of the one constraint table (db/constraints.ts).
 */
function storeFailureMessage(error: unknown): string | undefined {
  return constraintErrorOf(error)?.message;
}

// -------------------------------------------------------------------------------------------------
// Validation

/**
 * Rows to records: each row's entity (its uuid, else the entity of that name in this upload or the
 * area) and its references by name resolved to uuids. That is all the import checks itself, with the
 * rows of one entity that overlap each other; every domain rule is the entity pipeline's
 * (modules/domain planEntities), whose errors come back to the cells in `store`.
 */
async function mapRows(ex: Executor, ctx: ServiceContext, states: readonly FileState[]): Promise<ReadyRow[]> {
  const all = states.flatMap((state, fileIndex) => state.rows.map((row) => ({ ...row, fileIndex })));
  const fail = (row: { rowNumber: number; result: SheetParseResult }, column: string, message: string) =>
    row.result.failures.push({ errorMessage: cellMessage(row.rowNumber, column, message), type: row.result.type });

  // Names (and EVNs) held in the area, for every kind a row or a reference names.
  const wanted = new Map<EntityKind, Set<string>>();
  const want = (kind: EntityKind, name: string) => {
    let set = wanted.get(kind);
    if (!set) wanted.set(kind, (set = new Set()));
    set.add(name);
  };
  for (const row of all) {
    want(row.kind, row.name);
    for (const spec of sheetLayout(row.kind).attributes) {
      if (spec.kind !== 'ref' && spec.kind !== 'refList') continue;
      const value = row.attributes[spec.field];
      for (const name of Array.isArray(value) ? value : value ? [value] : []) want(spec.target, String(name));
    }
  }
  const dbNames = new Map<string, string[]>();
  const dbRefs = new Map<string, string[]>();
  const add = (target: Map<string, string[]>, kind: EntityKind, holders: { entityUuid: string; value: string }[]) => {
    for (const h of holders) {
      const key = refKey(kind, h.value);
      const list = target.get(key) ?? [];
      if (!list.includes(h.entityUuid)) list.push(h.entityUuid);
      target.set(key, list);
    }
  };
  await Promise.all(
    [...wanted].flatMap(([kind, names]) => [
      findHolders(ex, ctx.tenant.uuid, kind, 'name', [...names]).then((h) => {
        add(dbNames, kind, h);
        add(dbRefs, kind, h);
      }),
      // Traction units are also known by their EVN.
      ...(kind === 'tractionunit'
        ? [findHolders(ex, ctx.tenant.uuid, kind, 'evn', [...names]).then((h) => add(dbRefs, kind, h))]
        : []),
    ]),
  );

  // Identity of every row: its uuid, else the entity of that name in this upload or the area.
  const uploadByName = new Map<string, string>();
  for (const row of all) {
    if (row.uuid && !uploadByName.has(refKey(row.kind, row.name)))
      uploadByName.set(refKey(row.kind, row.name), row.uuid);
  }
  const resolve = (kind: EntityKind, name: string): string | undefined => {
    const key = refKey(kind, name);
    return uploadByName.get(key) ?? dbRefs.get(key)?.[0];
  };

  const ready: ReadyRow[] = [];
  for (const [i, row] of all.entries()) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await yieldToEventLoop();
    const key = refKey(row.kind, row.name);
    const entityUuid = row.uuid ?? uploadByName.get(key) ?? dbNames.get(key)?.[0] ?? randomUUID();
    if (!uploadByName.has(key)) uploadByName.set(key, entityUuid);
    const headerOf = (field: string) => row.headers[field] ?? field;
    let ok = true;
    const attributes: Record<string, unknown> = { ...row.attributes };
    for (const spec of sheetLayout(row.kind).attributes) {
      if (spec.kind !== 'ref' && spec.kind !== 'refList') continue;
      const value = attributes[spec.field];
      if (value === undefined) continue;
      const names = Array.isArray(value) ? value.map(String) : [String(value)];
      const uuids: string[] = [];
      for (const name of names) {
        const uuid = resolve(spec.target, name);
        if (!uuid) {
          fail(row, headerOf(spec.field), `${invalidValue(name)}: no ${ENTITY_KINDS[spec.target]} has that name`);
          ok = false;
        } else uuids.push(uuid);
      }
      attributes[spec.field] = spec.kind === 'refList' ? uuids : uuids[0];
    }
    for (const field of DERIVED_ATTRIBUTES[row.kind] ?? []) delete attributes[field];
    if (ok) ready.push({ ...row, entityUuid, attributes });
  }

  // Rows of one entity must not overlap each other (they would overwrite each other's range).
  const byEntity = new Map<string, ReadyRow[]>();
  for (const row of ready) {
    const list = byEntity.get(row.entityUuid);
    if (list) list.push(row);
    else byEntity.set(row.entityUuid, [row]);
  }
  for (const rows of byEntity.values()) {
    rows.sort((a, b) => Date.parse(a.validFrom) - Date.parse(b.validFrom));
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1]!;
      const row = rows[i]!;
      if (overlaps({ start: prev.validFrom, end: prev.validTo }, { start: row.validFrom, end: row.validTo })) {
        fail(
          row,
          row.headers.validFrom ?? 'validFrom',
          `The validity overlaps row ${prev.rowNumber} of the same entity`,
        );
      }
    }
  }
  return ready;
}

// -------------------------------------------------------------------------------------------------
// Storing

/** Thrown inside the store transaction when the plan refuses rows: rolls it back, failures already noted. */
class PlanRefused extends Error {}

/**
 * Plans the rows as records through the entity pipeline (planEntities: the one place that checks the
 * domain rules and applies segments) in the caller's transaction; its refusals become cell failures
 * (row by record position, column by field), else the plan is written set-based. Rows equal to what
 * is stored are unchanged records of the plan: an exported file imported again changes nothing.
 */
async function store(tx: Executor, ctx: ServiceContext, ready: readonly ReadyRow[]): Promise<StoreOutcome> {
  // Rows of one entity apply in time order.
  const rows = [...ready].sort((a, b) =>
    a.entityUuid === b.entityUuid
      ? Date.parse(a.validFrom) - Date.parse(b.validFrom)
      : a.entityUuid < b.entityUuid
        ? -1
        : 1,
  );
  const records = rows.map((row) => ({
    ...row.attributes,
    uuid: row.entityUuid,
    type: row.kind,
    name: row.name,
    timeRange: { start: row.validFrom, end: row.validTo },
    active: row.active,
    state: row.state,
    comments: row.comments,
  }));
  const plan = await planEntities(tx, ctx.tenant.uuid, ctx.actor, records);
  if (plan.errors.length) {
    // In the order of the sheets' rows (records were sorted by entity).
    const rowOf = (e: RecordError) => rows[e.index]!;
    const errors = [...plan.errors].sort(
      (a, b) => rowOf(a).fileIndex - rowOf(b).fileIndex || rowOf(a).rowNumber - rowOf(b).rowNumber,
    );
    for (const error of errors) failRow(rowOf(error), error);
    throw new PlanRefused();
  }
  await applyPlan(tx, plan);
  return { stored: plan.planned.length, unchanged: plan.unchanged.length };
}

interface StoreOutcome {
  stored: number;
  unchanged: number;
}

/** One refusal of the entity pipeline on its row and column, in the words of the upload failures (calls.md §8). */
function failRow(row: ReadyRow, error: RecordError): void {
  const field = error.field?.split('.')[0] || 'name';
  const column = row.headers[field] ?? field;
  let message = error.code === 'uniquename' ? MESSAGES.nameNotUnique : error.message;
  if (message.startsWith(`${error.field}: `)) message = message.slice(`${error.field}: `.length);
  if (error.status === 403) message = `Not authorized: ${message}`;
  // A cell says which value is taken, and by what.
  if (error.code === 'uniqueproperties' || error.code === 'uniqueorgid')
    message = `${message}: ${String(row.attributes[field] ?? '')} belongs to another ${ENTITY_KINDS[row.kind]}`;
  const spec = sheetLayout(row.kind).attributes.find((a) => a.field === field);
  if (spec?.kind === 'enum' && error.code === 'invalid_input')
    message = `${message} (one of ${spec.values.join(', ')})`;
  row.result.failures.push({ errorMessage: cellMessage(row.rowNumber, column, message), type: row.result.type });
}
