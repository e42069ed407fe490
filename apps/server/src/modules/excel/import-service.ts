import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { buildCpid, ENTITY_KINDS, KIND_ATTRIBUTE_SCHEMAS, MESSAGES, type EntityKind } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { constraintErrorOf } from '../../db/constraints.js';
import { ApiError } from '../../errors.js';
import { DEFAULT_TABLE_READ_LIMITS, type TableReadLimits } from '../../formats/xlsx/table-workbook.js';
import {
  readDomainWorkbook,
  type ReadWorkbookTask,
  type ReadWorkbookResult,
} from '../../workers/read-domain-workbook.js';
import { finishFile, MESSAGE_TYPES, startFile, type MessageStatus } from '../datalog/datalog-service.js';
import { approvalRefusal, mayApprove, mayWriteKind, writesOnlyOwnFleet, type Actor } from '../domain/policy.js';
import { findHolders, loadCurrent, uuidsElsewhere, type SegmentRow as StoredSegment } from '../domain/repository.js';
import { overlaps, stableJson } from '../domain/segments.js';
import { saveEntities } from '../domain/service.js';
import { rows as queryRows, type Executor, type TxExecutor } from '../domain/sql.js';
import {
  cellMessage,
  invalidValue,
  type SegmentRow,
  type SheetFailure,
  type SheetParseResult,
} from './domain-workbook.js';
import { DERIVED_ATTRIBUTES, sheetLayout, type ColumnSpec } from './entity-columns.js';

/**
 * POST /excel/domain/import: many files, many sheets each. Every file gets a data-log entry with
 * status RUNNING before it is read, and its outcome after. Every file is read and its cells checked
 * off the event loop (options.readWorkbook: a worker thread in the server), then validated in full
 * against the area's data (references by name, the kind's schema, uniqueness, overlaps, who may
 * write what); if any sheet of any file has a failure nothing is stored. Otherwise everything is
 * stored in one transaction with a handful of set-based statements (unnest arrays), whatever the
 * row count. The data-log entries are written outside that transaction, so a rolled-back import is
 * still logged.
 */
export interface ImportFile {
  fileName: string;
  bytes: Buffer;
  contentType?: string;
}

export interface ImportContext {
  /** The request's area-bound executor (request.ctx.db): validation reads, the store transaction and the data log. */
  db: TxExecutor;
  tenant: string;
  timeZone: string;
  actor: Actor;
}

export interface ImportAnswer {
  success: boolean;
  sheetParseResults: SheetParseResult[];
}

export interface ImportOptions {
  limits?: TableReadLimits;
  /** Reads and checks one workbook; the server passes its worker pool. Default: in this thread. */
  readWorkbook?: (task: ReadWorkbookTask) => Promise<ReadWorkbookResult>;
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

/** Unique properties (besides the name) that the database enforces per kind. */
const UNIQUE_PROPERTY: Partial<Record<EntityKind, 'evn' | 'orgId' | 'cpid'>> = {
  tractionunit: 'evn',
  organisation: 'orgId',
  consumptionpoint: 'cpid',
};

export async function importDomainFiles(
  ctx: ImportContext,
  files: readonly ImportFile[],
  options: ImportOptions = {},
): Promise<ImportAnswer> {
  // 0. Every file is in the data log (RUNNING, with its bytes) before anything reads it.
  const states: FileState[] = [];
  for (const file of files) {
    const logId = await startFile(ctx.db, {
      tenant: ctx.tenant,
      username: ctx.actor.username,
      messageType: MESSAGE_TYPES.excelDomainImport,
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

async function importLogged(ctx: ImportContext, states: FileState[], options: ImportOptions): Promise<ImportAnswer> {
  const limits = options.limits ?? DEFAULT_TABLE_READ_LIMITS;
  const read = options.readWorkbook ?? readDomainWorkbook;

  // 1. Read every file. A file that is not a safe workbook rejects the upload (400).
  for (const state of states) {
    const answer = await read({ bytes: state.file.bytes, timeZone: ctx.timeZone, limits });
    if (!answer.ok) {
      const message = `${state.file.fileName}: ${answer.reason}`;
      await logFiles(ctx, states, () => ({ status: 'REJECTED', text: message }));
      throw ApiError.badRequest('invalid_input', `Something is wrong with uploaded data. ${message}`);
    }
    for (const parsed of answer.sheets) {
      state.results.push(parsed.result);
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
  const ready = await validate(ctx.db, ctx, states);
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

  // 3. Store all files in one transaction.
  let outcome: StoreOutcome;
  let changed: ReadyRow[] = [];
  try {
    outcome = await ctx.db.transaction(async (tx) => {
      const result = await store(tx, ctx, ready);
      changed = result.changed;
      return result;
    });
  } catch (error) {
    if (error instanceof ApiError) failuresFromDomain(error, changed, allResults);
    else {
      const message = storeFailureMessage(error);
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
  ctx: ImportContext,
  states: readonly FileState[],
  outcome: (state: FileState) => { status: Exclude<MessageStatus, 'RUNNING'>; text: string },
): Promise<void> {
  for (const state of states) await finishFile(ctx.db, ctx.tenant, state.logId, outcome(state));
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

async function validate(ex: Executor, ctx: ImportContext, states: readonly FileState[]): Promise<ReadyRow[]> {
  const all = states.flatMap((state, fileIndex) => state.rows.map((row) => ({ ...row, fileIndex })));
  const fail = (row: { rowNumber: number; result: SheetParseResult }, column: string, message: string) =>
    row.result.failures.push({ errorMessage: cellMessage(row.rowNumber, column, message), type: row.result.type });

  // Entities named by uuid: which exist here, which belong to another tenant or kind.
  const givenUuids = [...new Set(all.flatMap((r) => (r.uuid ? [r.uuid] : [])))];
  const [elsewhere, existing] = await Promise.all([
    uuidsElsewhere(ex, ctx.tenant, givenUuids),
    entityTypes(ex, ctx.tenant, givenUuids),
  ]);
  const foreign = new Set(elsewhere);

  // Names (and EVNs) held in the database, for every kind a row or a reference names.
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
  // Names held in the database (identity and uniqueness) and, for references, EVNs too.
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
      findHolders(ex, ctx.tenant, kind, 'name', [...names]).then((h) => {
        add(dbNames, kind, h);
        add(dbRefs, kind, h);
      }),
      // Traction units are also known by their EVN.
      ...(kind === 'tractionunit'
        ? [findHolders(ex, ctx.tenant, kind, 'evn', [...names]).then((h) => add(dbRefs, kind, h))]
        : []),
    ]),
  );

  // Identity of every row: its uuid, else the entity of that name in this upload or the database.
  const usable = (row: (typeof all)[number]) =>
    !row.uuid || (!foreign.has(row.uuid) && (existing.get(row.uuid) ?? row.kind) === row.kind);
  const uploadByName = new Map<string, string>();
  for (const row of all) {
    if (!row.uuid) continue;
    if (!usable(row)) fail(row, row.headers.uuid ?? 'uuid', `${invalidValue(row.uuid)}: it belongs to another entity`);
    else if (!uploadByName.has(refKey(row.kind, row.name))) uploadByName.set(refKey(row.kind, row.name), row.uuid);
  }
  const rowsWithIdentity: ((typeof all)[number] & { entityUuid: string })[] = [];
  for (const row of all) {
    if (!usable(row)) continue;
    const key = refKey(row.kind, row.name);
    const dbHolders = dbNames.get(key) ?? [];
    const entityUuid = row.uuid ?? uploadByName.get(key) ?? dbHolders[0] ?? randomUUID();
    if (!uploadByName.has(key)) uploadByName.set(key, entityUuid);
    // The name must not belong to another entity, in the upload or in the database.
    const holders = new Set([...dbHolders, uploadByName.get(key)!]);
    holders.delete(entityUuid);
    if (holders.size > 0) fail(row, row.headers.name ?? 'name', MESSAGES.nameNotUnique);
    else rowsWithIdentity.push({ ...row, entityUuid });
  }

  const resolve = (kind: EntityKind, name: string): string | undefined => {
    const key = refKey(kind, name);
    return uploadByName.get(key) ?? dbRefs.get(key)?.[0];
  };

  // Attributes: references by name -> uuid, then the kind's schema.
  const ready: ReadyRow[] = [];
  const ownOrganisations = writesOnlyOwnFleet(ctx.actor) ? await organisationsOf(ex, ctx) : undefined;
  for (const [i, row] of rowsWithIdentity.entries()) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await yieldToEventLoop();
    const layout = sheetLayout(row.kind);
    const headerOf = (field: string) => row.headers[field] ?? field;
    let ok = true;
    const attributes: Record<string, unknown> = { ...row.attributes };
    for (const spec of layout.attributes) {
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
    if (!ok) continue;
    const parsed = KIND_ATTRIBUTE_SCHEMAS[row.kind].safeParse(attributes);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'name');
        fail(
          row,
          headerOf(field),
          issueMessage(
            issue,
            field,
            layout.attributes.find((a) => a.field === field),
          ),
        );
      }
      continue;
    }
    const values = parsed.data as Record<string, unknown>;
    if (row.kind === 'consumptionpoint') {
      const cp = values as { nvr: string; vkm: string; evn: string; emsId: string };
      values.cpid = buildCpid(cp);
    }
    if (row.state === 'APPROVED_FOR_BILLING' && !mayApprove(ctx.actor, row.kind)) {
      fail(row, headerOf('state'), `Not authorized: ${approvalRefusal(row.kind)}`);
      continue;
    }
    if (ownOrganisations && row.kind === 'tractionunit' && !ownOrganisations.has(String(values.owner))) {
      fail(
        row,
        headerOf('owner'),
        'Not authorized: a vehicle keeper changes only traction units of its own organisations',
      );
      continue;
    }
    ready.push({ ...row, attributes: values });
  }

  // Rows of one entity must not overlap each other.
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

  await checkUniqueProperties(ex, ctx, ready, fail);
  return ready;
}

/** EVN, orgId and CPID belong to one entity per tenant (in the upload and in the database). */
async function checkUniqueProperties(
  ex: Executor,
  ctx: ImportContext,
  ready: readonly ReadyRow[],
  fail: (row: ReadyRow, column: string, message: string) => void,
): Promise<void> {
  const byKind = new Map<EntityKind, ReadyRow[]>();
  for (const row of ready) {
    if (!UNIQUE_PROPERTY[row.kind]) continue;
    // Appended in place: copying the list per row made 50,000 rows of one kind quadratic.
    const list = byKind.get(row.kind);
    if (list) list.push(row);
    else byKind.set(row.kind, [row]);
  }
  await Promise.all(
    [...byKind].map(async ([kind, rows]) => {
      const property = UNIQUE_PROPERTY[kind]!;
      const valueOf = (row: ReadyRow) => String(row.attributes[property] ?? '');
      const holders = new Map<string, Set<string>>();
      const add = (value: string, uuid: string) => holders.set(value, (holders.get(value) ?? new Set()).add(uuid));
      for (const h of await findHolders(ex, ctx.tenant, kind, property, [...new Set(rows.map(valueOf))])) {
        add(h.value, h.entityUuid);
      }
      for (const row of rows) add(valueOf(row), row.entityUuid);
      for (const row of rows) {
        if (holders.get(valueOf(row))!.size > 1) {
          fail(
            row,
            row.headers[property] ?? property,
            `Property must be unique: ${valueOf(row)} belongs to another ${ENTITY_KINDS[kind]}`,
          );
        }
      }
    }),
  );
}

function issueMessage(
  issue: { code: string; message: string; input?: unknown },
  field: string,
  spec: ColumnSpec | undefined,
): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `The ${field} field is required`;
  if (issue.code === 'invalid_value' || issue.code === 'invalid_type' || issue.code === 'invalid_format') {
    if (!issue.message.startsWith('Invalid')) return issue.message;
    const shown = spec?.kind === 'enum' ? ` (one of ${spec.values.join(', ')})` : '';
    return `${issue.message}${shown}`;
  }
  return issue.message;
}

async function entityTypes(ex: Executor, tenant: string, uuids: readonly string[]): Promise<Map<string, string>> {
  if (uuids.length === 0) return new Map();
  const found = await queryRows<{ uuid: string; type: string }>(
    ex,
    sql`SELECT uuid, type FROM entity WHERE tenant = ${tenant}::uuid AND uuid = ANY(${sql.param([...uuids])}::uuid[])`,
  );
  return new Map(found.map((r) => [r.uuid, r.type]));
}

async function organisationsOf(ex: Executor, ctx: ImportContext): Promise<Set<string>> {
  const found = await queryRows<{ uuid: string }>(
    ex,
    sql`SELECT organisation_uuid AS uuid FROM user_organisation WHERE tenant = ${ctx.tenant}::uuid AND username = ${ctx.actor.username}`,
  );
  return new Set(found.map((r) => r.uuid));
}

// -------------------------------------------------------------------------------------------------
// Storing

/** Content equality that ignores absent-versus-null and absent-versus-empty attributes. */
function normalised(attributes: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return stableJson(out);
}

/** Whether a row says exactly what one stored segment holds over exactly its range. */
function unchanged(stored: readonly StoredSegment[] | undefined, row: ReadyRow): boolean {
  return (stored ?? []).some(
    (s) =>
      Date.parse(s.start) === Date.parse(row.validFrom) &&
      Date.parse(s.end) === Date.parse(row.validTo) &&
      s.name === row.name &&
      s.active === row.active &&
      s.state === row.state &&
      (s.comments ?? null) === (row.comments ?? null) &&
      normalised(s.attributes) === normalised(row.attributes),
  );
}

/**
 * Stores the rows through the domain service (modules/domain saveEntities: the one place that
 * applies segments, checks the domain rules and writes set-based), in the caller's transaction.
 * Rows equal to what is stored are left out first, so an exported file imported again changes
 * nothing even where stored attributes spell an empty value differently (null, absent, []).
 */
async function store(tx: Executor, ctx: ImportContext, ready: readonly ReadyRow[]): Promise<StoreOutcome> {
  const current = await loadCurrent(tx, ctx.tenant, [...new Set(ready.map((r) => r.entityUuid))]);
  const changed = ready
    .filter((row) => !unchanged(current.get(row.entityUuid)?.segments, row))
    // Rows of one entity apply in time order.
    .sort((a, b) =>
      a.entityUuid === b.entityUuid
        ? Date.parse(a.validFrom) - Date.parse(b.validFrom)
        : a.entityUuid < b.entityUuid
          ? -1
          : 1,
    );
  const records = changed.map((row) => ({
    ...row.attributes,
    uuid: row.entityUuid,
    type: row.kind,
    name: row.name,
    timeRange: { start: row.validFrom, end: row.validTo },
    active: row.active,
    state: row.state,
    comments: row.comments,
  }));
  await saveEntities(tx, ctx.tenant, ctx.actor, records);
  return { stored: changed.length, unchanged: ready.length - changed.length, changed };
}

interface StoreOutcome {
  stored: number;
  unchanged: number;
  changed: ReadyRow[];
}

/** The domain service's refusal as row failures: its errors name records by position ('#3: evn: ...'). */
function failuresFromDomain(error: ApiError, changed: readonly ReadyRow[], results: readonly SheetParseResult[]): void {
  const entries = error.errors?.length ? error.errors : [{ message: error.message, field: undefined }];
  for (const entry of entries) {
    const match = /^#(\d+): (.*)$/s.exec(entry.message);
    const row = match ? changed[Number(match[1]) - 1] : undefined;
    const text = match ? match[2]! : entry.message;
    if (row) {
      const field = entry.field ?? 'name';
      const message = text.startsWith(`${field}: `) ? text.slice(field.length + 2) : text;
      row.result.failures.push({
        errorMessage: cellMessage(row.rowNumber, row.headers[field] ?? field, message),
        type: row.result.type,
      });
    } else {
      const target = changed[0]?.result ?? results[0];
      target?.failures.push({
        errorMessage:
          error.status === 403
            ? `Not authorized: ${text}`
            : `Something is wrong with data of type: ${target.type}. ${text}`,
        type: target.type,
      });
    }
  }
}
