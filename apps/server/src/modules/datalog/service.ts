import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  actionVerdict,
  aggregationFileName,
  AREA_FILE_READERS,
  MASTER_DATA_MESSAGE_TYPES,
  MASTER_DATA_STATUSES,
  MASTER_DATA_TRANSFER_TYPES,
  MESSAGE_STATUSES,
  MESSAGE_TYPE_VALUES,
  MESSAGE_TYPES,
  REPORT_MESSAGE_TYPES,
  masterDataDownloadType,
  type DataLogAction,
  type DataLogFilter,
  type DataLogMessageRef,
  type DataLogPage,
  type MarketFunction,
  type MasterDataDownloadType,
  type MasterDataLogPage,
  type MasterDataLogQuery,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ReadContext, ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { Executor } from '../domain/sql.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import { bufferFile, openStoredFile, readFileBytes, storedFileSize, type StoredFile } from './file-store.js';
import type { DataLogActionKind, DataLogActions } from './registry.js';
import {
  distinctValues,
  findDataLogPage,
  findEntry,
  findMasterDataFile,
  findMasterDataPage,
  responseBytes,
  updateOutcome,
  type StoredEntry,
} from './repository.js';

/**
 * The settlement data log and the master-data data log (calls.md §7): reading, the actions of §4
 * and the downloads. The rules are contracts' datalog-actions.ts; this module applies them.
 */

export const NOT_AUTHORIZED = 'Not authorized';
/** calls.md §8 "Other": the re-import failure. */
export const COULD_NOT_REIMPORT = 'Could not reimport timeseries';
export const COULD_NOT_REEXPORT = 'Could not reexport';
export const COULD_NOT_REORDER = 'Could not reorder report';

/** gunzip on zlib's thread pool (a master-data transfer decompressed for download). */
const gunzipAsync = promisify(gunzip);
const pages = (total: number, size: number) => Math.ceil(total / size);

/**
 * The entries the actor may see, as a clause on `d` (issue 17 item 3): every entry for an area-wide
 * role; else an entry that names organisations when all of them are the actor's
 * (organisation/visibility.ts), and the area's files (no organisation named) when the actor holds
 * a role that reads them (AREA_FILE_READERS: not a consumer). An entry outside it is answered as
 * absent (404), like another area's.
 */
async function visibleEntries(ctx: ServiceContext): Promise<SQL> {
  const visible = await visibleOrganisations(ctx);
  if (visible === null) return sql`TRUE`;
  const areaFiles = ctx.actor.roles.some((r) => AREA_FILE_READERS.includes(r));
  return sql`(CASE WHEN d.organisation_uuids IS NULL THEN ${areaFiles}
                   ELSE d.organisation_uuids <@ ${sql.param([...visible])}::uuid[] END)`;
}

export async function listDataLog(ctx: ServiceContext, filter: DataLogFilter): Promise<DataLogPage> {
  const { total, content } = await findDataLogPage(ctx.db, ctx.tenant.uuid, filter, await visibleEntries(ctx));
  return { content, totalPages: pages(total, filter.size), totalElements: total };
}

const union = (known: readonly string[], found: readonly string[]) => [...new Set([...known, ...found])].sort();

/** The filter's options: every known type (status) and any other the area's log holds. */
export async function dataLogTypes(ctx: ReadContext): Promise<string[]> {
  return union(MESSAGE_TYPE_VALUES, await distinctValues(ctx.db, ctx.tenant.uuid, 'type'));
}
export async function dataLogStatuses(ctx: ReadContext): Promise<string[]> {
  return union(MESSAGE_STATUSES, await distinctValues(ctx.db, ctx.tenant.uuid, 'status'));
}

/** The entry an action names, checked against the rules: 404, 403 'Not authorized' or 400. */
async function entryFor(ctx: ServiceContext, id: number, action: DataLogAction, messageType?: string) {
  const entry = await findEntry(ctx.db, ctx.tenant.uuid, id, await visibleEntries(ctx));
  if (!entry) throw ApiError.notFound('No such data-log entry');
  if (messageType !== undefined && messageType !== entry.messageType)
    throw ApiError.badRequest('invalid_input', 'The message type does not match the data-log entry');
  const verdict = actionVerdict(action, entry, ctx.actor.roles, ctx.tenant.kind);
  if (verdict === 'role') throw ApiError.forbidden(NOT_AUTHORIZED);
  if (verdict === 'entry')
    throw ApiError.badRequest(
      'invalid_input',
      `The action ${action} is not allowed for a ${entry.messageType} message with status ${entry.messageStatus}`,
    );
  return entry;
}

/** Re-import, re-export or re-order: the rules, then the work the app's table names, then the original's outcome. */
async function repeat(
  ctx: ServiceContext,
  actions: DataLogActions,
  kind: DataLogActionKind,
  ref: DataLogMessageRef,
  failure: string,
) {
  const entry = await entryFor(ctx, ref.id, kind, ref.messageType);
  const work = actions[kind].get(entry.messageType);
  // The work reads or copies the entry's bytes itself (file-store.ts); a re-import needs them stored.
  const stored = kind === 'reimport' && (await storedFileSize(ctx.db, ctx.tenant.uuid, entry.id)) !== null;
  if (!work || (kind === 'reimport' && !stored)) throw ApiError.badRequest('invalid_input', failure);
  let outcome;
  try {
    outcome = (await work(ctx, entry)) ?? {};
  } catch (error) {
    if (error instanceof ApiError) throw error;
    ctx.log.error({ err: error, dataLogId: entry.id }, `data-log ${kind} failed`);
    throw ApiError.badRequest('invalid_input', failure);
  }
  const messageStatus = outcome.messageStatus ?? 'RETRIED';
  const messageText =
    outcome.messageText !== undefined
      ? outcome.messageText
      : `${kind === 'reimport' ? 'Re-imported' : kind === 'reexport' ? 'Re-exported' : 'Re-ordered'} by ${
          ctx.actor.username
        }${outcome.dataLogId ? ` (entry ${outcome.dataLogId})` : ''}`;
  await updateOutcome(ctx.db, ctx.tenant.uuid, entry.id, { status: messageStatus, text: messageText });
  return { id: entry.id, messageStatus, messageText };
}

export const reimportEntry = (ctx: ServiceContext, actions: DataLogActions, ref: DataLogMessageRef) =>
  repeat(ctx, actions, 'reimport', ref, COULD_NOT_REIMPORT);
export const reexportEntry = (ctx: ServiceContext, actions: DataLogActions, ref: DataLogMessageRef) =>
  repeat(ctx, actions, 'reexport', ref, COULD_NOT_REEXPORT);
export const reorderEntry = (ctx: ServiceContext, actions: DataLogActions, ref: DataLogMessageRef) =>
  repeat(ctx, actions, 'reorder', ref, COULD_NOT_REORDER);

/** POST /processing/tasks/set-to-error/{id}: a report neither ERROR nor OK becomes ERROR. */
export async function setEntryToError(ctx: ServiceContext, id: number) {
  const entry = await entryFor(ctx, id, 'setToError');
  const messageText = `Set to error by ${ctx.actor.username}`;
  await updateOutcome(ctx.db, ctx.tenant.uuid, entry.id, { status: 'ERROR', text: messageText });
  return { messageStatus: 'ERROR', messageText };
}

export interface DownloadedFile {
  fileName: string;
  contentType: string;
  /** A stored file is sent part by part (routes/eventlog/send-file.ts), never read whole. */
  bytes: Buffer | StoredFile;
}

const OCTET = 'application/octet-stream';

/** The stored file of an entry, or with `response` its response file (calls.md §7 download). */
export async function downloadEntry(
  ctx: ServiceContext,
  ref: DataLogMessageRef,
  response: boolean,
): Promise<DownloadedFile> {
  const entry = await entryFor(ctx, ref.id, response ? 'downloadResponse' : 'download', ref.messageType);
  const bytes = response
    ? await responseBytes(ctx.db, ctx.tenant.uuid, entry.id).then((b) => b && bufferFile(b))
    : await openStoredFile(ctx.db, ctx.tenant.uuid, entry.id);
  if (!bytes) throw ApiError.notFound(response ? 'No response file is stored for this entry' : 'No file is stored');
  return { fileName: downloadName(entry, response), contentType: contentType(entry, response), bytes };
}

/**
 * The file of an ordered or scheduled report (issue 20; ours beside calls.md §4, which offers no
 * data-log download for a report): the entry must be a report the actor sees (visibleEntries: a
 * consumer its own organisations' reports) and its file made (OK).
 */
export async function reportFile(ctx: ServiceContext, id: number): Promise<DownloadedFile> {
  const entry = await findEntry(ctx.db, ctx.tenant.uuid, id, await visibleEntries(ctx));
  if (!entry || !REPORT_MESSAGE_TYPES.includes(entry.messageType)) throw ApiError.notFound('No such report');
  const bytes = await openStoredFile(ctx.db, ctx.tenant.uuid, entry.id);
  if (!bytes) throw ApiError.notFound(`The report has no file (${entry.messageStatus})`);
  return { fileName: entry.fileName ?? `report-${entry.id}`, contentType: contentType(entry, false), bytes };
}

function downloadName(entry: StoredEntry, response: boolean): string {
  const name = entry.fileName ?? `datalog-${entry.id}`;
  if (entry.messageType === MESSAGE_TYPES.meteredEnergyAggregation) return aggregationFileName(name, response);
  return response ? (entry.responseFileName ?? `RES_${name}`) : name;
}

const contentType = (entry: StoredEntry, response: boolean) =>
  (response ? entry.responseContentType : entry.contentType) ?? OCTET;

/**
 * The areas master-data mode spans: those where the user holds the erex-administrator function
 * (null: a function held without an area, i.e. every area).
 */
export function administratorAreas(functions: readonly MarketFunction[]): string[] | null {
  const held = functions.filter((f) => f.role === 'erex-administrator');
  if (held.some((f) => f.areaId === null)) return null;
  return held.map((f) => f.areaId!);
}

/** GET /masterdata/datalog on the explicit all-areas executor, narrowed to the administrator's areas. */
export async function listMasterDataLog(
  allAreas: Executor,
  areas: string[] | null,
  query: MasterDataLogQuery,
): Promise<MasterDataLogPage> {
  const { total, content } = await findMasterDataPage(allAreas, areas, query);
  return {
    content,
    page: { totalPages: pages(total, query.size), totalElements: total, number: query.page, size: query.size },
  };
}

export const masterDataTypes = (): string[] => [...MASTER_DATA_TRANSFER_TYPES];
export const masterDataStatuses = (): string[] => [...MASTER_DATA_STATUSES];

/** GET /masterdata/datalog/download: in and out as TRANSFER (or decompressed), internal as INTERNAL. */
export async function downloadMasterData(
  allAreas: Executor,
  areas: string[] | null,
  id: number,
  kind: MasterDataDownloadType,
): Promise<DownloadedFile> {
  const file = await findMasterDataFile(allAreas, areas, id, kind === 'RESPONSE');
  if (!file) throw ApiError.notFound('No such master-data transfer');
  const transfer = MASTER_DATA_MESSAGE_TYPES[file.messageType]!;
  if (
    kind !== 'RESPONSE' &&
    masterDataDownloadType(transfer) !== (kind === 'TRANSFER_DECOMPRESSED' ? 'TRANSFER' : kind)
  )
    throw ApiError.badRequest('invalid_input', `A ${transfer} is not downloaded as ${kind}`);
  // Decompressing needs the whole file (master-data transfers are bounded by the Excel import's
  // limit); every other download is sent part by part.
  const bytes =
    kind === 'RESPONSE'
      ? file.responseBytes
      : kind === 'TRANSFER_DECOMPRESSED'
        ? await readFileBytes(allAreas, file.tenant, id)
        : await openStoredFile(allAreas, file.tenant, id);
  if (!bytes || !file.fileName)
    throw ApiError.notFound(kind === 'RESPONSE' ? 'No response file is stored for this transfer' : 'No file is stored');
  let fileName = file.fileName;
  // A gzip-compressed transfer decompressed; other files (xlsx is itself a zip container) as stored.
  if (Buffer.isBuffer(bytes) && kind === 'TRANSFER_DECOMPRESSED' && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    fileName = fileName.replace(/\.gz$/i, '');
    return {
      fileName,
      contentType: file.contentType ?? OCTET,
      // zlib's thread pool, not the event loop: a transfer may inflate to hundreds of MB.
      bytes: await gunzipAsync(bytes, { maxOutputLength: 512 * 1024 * 1024 }),
    };
  }
  return { fileName, contentType: file.contentType ?? OCTET, bytes };
}
