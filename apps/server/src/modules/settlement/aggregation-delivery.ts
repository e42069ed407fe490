import { posix } from 'node:path';
import { MESSAGE_TYPES, stripAggregationPrefix, type MessageStatus } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { storableFileName, storableText } from '../../db/storable-text.js';
import { recordFile, recordFileTimeSeries } from '../datalog/datalog-service.js';
import { copyFileBytes, readFileBytes, storedFileSize } from '../datalog/file-store.js';
import type { DataLogActionList } from '../datalog/registry.js';
import type { StoredEntry } from '../datalog/repository.js';
import { rows, type Executor } from '../domain/sql.js';
import type { AllowedHosts } from '../interface/allowed-hosts.js';
import { decryptCredentials, interfaceCredentialsKey, type CredentialsKeySource } from '../interface/credentials.js';
import { pinRouteHostKey } from '../interface/service.js';
import { uploadFiles } from '../interface/sftp-upload.js';
import { aggregationExportKey, AWAITING_DELIVERY } from './metered-energy-aggregation.js';

/**
 * How a metered-energy-aggregation file travels (issue 10 item 4, calls.md §4 and §7):
 *
 * 1. The procedure's chunk writes one data-log entry per file, PENDING ("awaiting delivery"), in its
 *    transaction. Once that has committed, it queues the `metered-energy-delivery` job with the
 *    entries' ids (jobs/metered-energy-delivery.ts): no network inside the transaction, and a crash
 *    before the upload leaves a pg-boss job to retry, not a lost delivery.
 *
 * 2. The job uploads each PENDING entry's bytes over SFTP to every enabled OUT route of interface
 *    type METERED_ENERGY_AGGREGATION serving the entry's area, under a folder named by the receiving
 *    organisation's id (the key in the file name; `TPA` for the Netherlands' TPA file):
 *      - a route with sub folders serves the areas they name (area keys, as on IN routes):
 *        <path>/<area>/<organisation id>/<file>
 *      - a route without sub folders serves the area its `folder` names: <path>/<organisation id>/<file>
 *      - a route with neither serves every area: <path>/<area>/<organisation id>/<file>
 *    So one route per receiving party's server, each organisation finding its files in its own
 *    folder. The entry becomes OK ("delivered to <route>:<path>"), ERROR with the reason when an
 *    upload failed (any role may then re-export it), or OK with "not delivered: no ... route" when
 *    no route serves the area: the file is made and downloadable, there is just nowhere to send it.
 *
 * 3. Re-export (calls.md §4: any role, on a REJECTED or ERROR aggregation) copies the entry as a new
 *    PENDING entry with the same file, queues its delivery like a run's, and marks the original
 *    RETRIED ("Re-exported by <user> as entry <id>"; a RETRIED aggregation stays downloadable).
 *
 * 4. The receiver answers with a response file named RES_<file name> (e.g.
 *    RES_MEA_RU1_2026-10-01_SECOND.csv), placed in the area's folder of an IN route of interface type
 *    METERED_ENERGY_AGGREGATION (<path>/<area>/ as every IN route), UTF-8 text whose first non-empty
 *    line is the verdict:
 *      ACCEPTED
 *      REJECTED;<reason>
 *    Further lines are free text (details per consumption point, say) and are kept with the file.
 *    The SFTP intake fetches it (modules/interface/intake-run.ts) and attachAggregationResponse stores
 *    it on the newest entry of that file name as its response (data_log.response_*: POST
 *    /eventlog/datalog/download with response=true gives it as RES_<name>) and sets the entry
 *    ACCEPTED or REJECTED with the reason. A response that is neither makes the entry ERROR with a
 *    text naming the parse error: calls.md §4 still offers its response for download then.
 */

export const DELIVERY_INTERFACE_TYPE = 'METERED_ENERGY_AGGREGATION';

/** Queues the delivery job for entries (the app registers the job runner's, app.ts). */
export type DeliveryQueue = (ctx: ServiceContext, dataLogIds: number[]) => Promise<string>;

let registered: DeliveryQueue | undefined;

/** Registers the app's delivery queue; answers the undo (tests). */
export function registerAggregationDelivery(queue: DeliveryQueue): () => void {
  registered = queue;
  return () => {
    if (registered === queue) registered = undefined;
  };
}

/** Queues the delivery of a run's files (after its chunk committed). Without a queue, says so on the entries. */
export async function queueAggregationDelivery(ctx: ServiceContext, dataLogIds: number[]): Promise<void> {
  if (dataLogIds.length === 0) return;
  if (!registered) {
    ctx.log.warn({ dataLogIds }, 'metered-energy-aggregation: no delivery queue registered, files not delivered');
    await setOutcome(ctx.db, ctx.tenant.uuid, dataLogIds, 'OK', 'not delivered: no delivery queue in this process');
    return;
  }
  await registered(ctx, dataLogIds);
}

/** The new status, and the outcome replacing "awaiting delivery" in (or added to) the entry's text. */
async function setOutcome(
  ex: Executor,
  tenant: string,
  ids: readonly number[],
  status: MessageStatus,
  outcome: string,
): Promise<void> {
  const text = storableText(outcome);
  await ex.execute(
    sql`UPDATE data_log
           SET message_status = ${status}::text,
               message_text = left(CASE WHEN strpos(coalesce(message_text, ''), ${AWAITING_DELIVERY}::text) > 0
                                        THEN replace(message_text, ${AWAITING_DELIVERY}::text, ${text}::text)
                                        ELSE concat_ws('; ', message_text, ${text}::text) END, 4000)
         WHERE tenant = ${tenant}::uuid AND id = ANY(${sql.param([...ids])}::bigint[])`,
  );
}

interface OutRoute {
  routeId: string;
  hostname: string;
  port: number;
  username: string;
  path: string;
  folder: string | null;
  subFolders: string[];
  hostKeyFingerprint: string | null;
  encrypted: string;
}

/** Where a route puts an area's file for `key` (see the header), or null when it does not serve the area. */
export function deliveryFolder(
  route: Pick<OutRoute, 'path' | 'folder' | 'subFolders'>,
  area: string,
  key: string,
): string | null {
  const areaKey = area.toLowerCase();
  if (route.subFolders.length > 0) {
    const sub = route.subFolders.find((s) => s.toLowerCase() === areaKey);
    return sub ? posix.join(route.path, sub, key) : null;
  }
  if (route.folder) return route.folder.toLowerCase() === areaKey ? posix.join(route.path, key) : null;
  return posix.join(route.path, areaKey, key);
}

/** What a delivery needs of the configuration: the credentials key and INTERFACE_ALLOWED_HOSTS. */
export interface DeliverySettings {
  credentialsKey: CredentialsKeySource;
  /** A route naming a host the list does not admit fails its files with the reason. */
  allowedHosts: AllowedHosts | undefined;
}

export interface DeliverySummary {
  delivered: number;
  failed: number;
  notDelivered: number;
}

/**
 * The `metered-energy-delivery` job's work: uploads the entries still PENDING (a retried job skips
 * those an earlier attempt finished) and records each one's outcome.
 */
export async function deliverAggregationFiles(
  ctx: ServiceContext,
  settings: DeliverySettings,
  dataLogIds: readonly number[],
): Promise<DeliverySummary> {
  const tenant = ctx.tenant.uuid;
  const listed = await rows<{ id: number; fileName: string | null }>(
    ctx.db,
    sql`SELECT id::int AS id, file_name AS "fileName" FROM data_log
         WHERE tenant = ${tenant}::uuid AND id = ANY(${sql.param([...dataLogIds])}::bigint[])
           AND message_type = ${MESSAGE_TYPES.meteredEnergyAggregation} AND message_status = 'PENDING'
         ORDER BY id`,
  );
  // Through the data log's file store; read whole, as the SFTP upload sends a buffer: one day's
  // aggregation file is a few kB.
  const entries = await Promise.all(
    listed.map(async (e) => ({ ...e, bytes: await readFileBytes(ctx.db, tenant, e.id) })),
  );
  const summary: DeliverySummary = { delivered: 0, failed: 0, notDelivered: 0 };
  if (entries.length === 0) return summary;
  // Interface routes are system-wide configuration (no row-level security): the area's executor reads them.
  const routes = await rows<OutRoute>(
    ctx.db,
    sql`SELECT route_id AS "routeId", hostname, port, username, path, folder, sub_folders AS "subFolders",
               host_key_fingerprint AS "hostKeyFingerprint", credentials_encrypted AS encrypted
          FROM interface_route
         WHERE enabled AND direction = 'OUT' AND interface_type = ${DELIVERY_INTERFACE_TYPE}
         ORDER BY route_id`,
  );
  const area = ctx.tenant.kind;
  const serving = routes.filter((r) => deliveryFolder(r, area, 'x') !== null);
  if (serving.length === 0) {
    await setOutcome(
      ctx.db,
      tenant,
      entries.map((e) => e.id),
      'OK',
      `not delivered: no enabled ${DELIVERY_INTERFACE_TYPE} OUT route serves ${area}`,
    );
    summary.notDelivered = entries.length;
    return summary;
  }
  const key = await interfaceCredentialsKey(ctx.db, settings.credentialsKey);
  const delivered = new Map<number, string[]>(entries.map((e) => [e.id, []]));
  const failures = new Map<number, string[]>(entries.map((e) => [e.id, []]));
  for (const route of serving) {
    const files = entries.map((e) => ({
      id: e.id,
      dir: deliveryFolder(route, area, aggregationExportKey(e.fileName ?? '') ?? 'unknown')!,
      fileName: e.fileName ?? `datalog-${e.id}.csv`,
      bytes: e.bytes ?? Buffer.alloc(0),
    }));
    let outcomes;
    try {
      const credentials = decryptCredentials(key, route.routeId, route.encrypted);
      outcomes = await uploadFiles(
        {
          ...route,
          credentials,
          allowedHosts: settings.allowedHosts,
          onNewHostKey: (fingerprint) => pinRouteHostKey(ctx.db, route.routeId, fingerprint, `sftp:${route.routeId}`),
        },
        files,
      );
    } catch (error) {
      // Credentials that no longer decrypt (the key changed): every file fails on this route.
      const reason = `the credentials could not be read (${error instanceof Error ? error.message : String(error)})`;
      outcomes = files.map((f) => ({ ok: false as const, remotePath: posix.join(f.dir, f.fileName), error: reason }));
    }
    outcomes.forEach((outcome, i) => {
      const id = files[i]!.id;
      if (outcome.ok) delivered.get(id)!.push(`${route.routeId}:${outcome.remotePath}`);
      else failures.get(id)!.push(`${route.routeId}: ${outcome.error}`);
    });
  }
  for (const entry of entries) {
    const failed = failures.get(entry.id)!;
    if (failed.length > 0) {
      summary.failed++;
      const done = delivered.get(entry.id)!;
      await setOutcome(
        ctx.db,
        tenant,
        [entry.id],
        'ERROR',
        `delivery failed: ${failed.join('; ')}${done.length ? `; delivered to ${done.join(', ')}` : ''}`,
      );
    } else {
      summary.delivered++;
      await setOutcome(ctx.db, tenant, [entry.id], 'OK', `delivered to ${delivered.get(entry.id)!.join(', ')}`);
    }
  }
  return summary;
}

/**
 * Re-export (the data log's actions, app.ts): the entry's file again as a new PENDING entry (with its
 * time series), its delivery queued; the original becomes RETRIED naming the new entry.
 */
async function reexportAggregation(ctx: ServiceContext, entry: StoredEntry) {
  if ((await storedFileSize(ctx.db, ctx.tenant.uuid, entry.id)) === null)
    throw new Error(`Data-log entry ${entry.id} has no file to re-export`);
  const [original] = await rows<{ destination: string | null; organisations: string[] | null }>(
    ctx.db,
    sql`SELECT destination, organisation_uuids AS organisations
          FROM data_log WHERE tenant = ${ctx.tenant.uuid}::uuid AND id = ${entry.id}`,
  );
  // The original's first clause names the aggregation and day ("Second aggregation of 2026-10-01: 4 hourly values").
  const what =
    (entry.messageText ?? '').split('; ')[0]!.replace(/^(Re-export of entry \d+: )+/, '') || (entry.fileName ?? '');
  const id = await recordFile(ctx.db, {
    tenant: ctx.tenant.uuid,
    messageType: MESSAGE_TYPES.meteredEnergyAggregation,
    status: 'PENDING',
    text: `Re-export of entry ${entry.id}: ${what}; ${AWAITING_DELIVERY}`,
    fileName: entry.fileName,
    username: ctx.actor.username,
    destination: original?.destination ?? null,
    contentType: entry.contentType,
    organisations: original?.organisations ?? null,
  });
  const series = await rows<{
    startTime: string | null;
    endTime: string | null;
    timeSeriesType: string | null;
    entityIdentifier: string | null;
    valuesCount: number | null;
  }>(
    ctx.db,
    sql`SELECT rw_iso(start_time) AS "startTime", rw_iso(end_time) AS "endTime", time_series_type AS "timeSeriesType",
               entity_identifier AS "entityIdentifier", values_count AS "valuesCount"
          FROM data_log_time_series WHERE data_log_id = ${entry.id} ORDER BY id`,
  );
  // The same bytes, copied part by part inside the database.
  await copyFileBytes(ctx.db, ctx.tenant.uuid, entry.id, id);
  await recordFileTimeSeries(ctx.db, id, series);
  await queueAggregationDelivery(ctx, [id]);
  return {
    dataLogId: id,
    messageStatus: 'RETRIED',
    messageText: `Re-exported by ${ctx.actor.username} as entry ${id}`,
  };
}

/** A response's verdict (see the header), or why it could not be read. */
export type AggregationResponse =
  { status: 'ACCEPTED' } | { status: 'REJECTED'; reason: string } | { status: 'ERROR'; parseError: string };

export function parseAggregationResponse(bytes: Buffer): AggregationResponse {
  const first = bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (first === undefined) return { status: 'ERROR', parseError: 'the response is empty' };
  const [verdict, ...rest] = first.split(';');
  const word = verdict!.trim().toUpperCase();
  if (word === 'ACCEPTED' && rest.join('').trim() === '') return { status: 'ACCEPTED' };
  if (word === 'REJECTED') return { status: 'REJECTED', reason: rest.join(';').trim() || 'no reason given' };
  return {
    status: 'ERROR',
    parseError: `the first line must be ACCEPTED or REJECTED;<reason>, not "${first.slice(0, 80)}"`,
  };
}

/**
 * Stores a RES_ file fetched from an IN route as the response of the newest aggregation export of
 * that name in the area, and sets the export's status by it. Answers the entry's id; throws (the
 * intake then leaves the file on the server and logs why) for a name that answers no export.
 */
export async function attachAggregationResponse(
  ctx: ServiceContext,
  file: { fileName: string; bytes: Buffer; routeId: string },
): Promise<number> {
  if (!file.fileName.startsWith('RES_'))
    throw new Error(`Only RES_<file name> responses are read on a ${DELIVERY_INTERFACE_TYPE} route`);
  const exported = stripAggregationPrefix(file.fileName);
  const [entry] = await rows<{ id: number }>(
    ctx.db,
    sql`SELECT id::int AS id FROM data_log
         WHERE tenant = ${ctx.tenant.uuid}::uuid AND message_type = ${MESSAGE_TYPES.meteredEnergyAggregation}
           AND file_name = ${exported} AND message_status <> 'RETRIED'
         ORDER BY id DESC LIMIT 1`,
  );
  if (!entry) throw new Error(`No metered energy aggregation export named ${exported} in ${ctx.tenant.kind}`);
  const response = parseAggregationResponse(file.bytes);
  const outcome =
    response.status === 'ACCEPTED'
      ? `accepted (response from ${file.routeId})`
      : response.status === 'REJECTED'
        ? `rejected: ${response.reason} (response from ${file.routeId})`
        : `response parse error: ${response.parseError} (response from ${file.routeId})`;
  // The outcome quotes the response file, whose bytes may hold NUL (db/storable-text.ts).
  await ctx.db.execute(
    sql`UPDATE data_log
           SET response_file_name = ${storableFileName(file.fileName)}, response_bytes = ${file.bytes}::bytea,
               response_content_type = 'text/plain', message_status = ${response.status}::text,
               message_text = left(concat_ws('; ', message_text, ${storableText(outcome)}::text), 4000)
         WHERE tenant = ${ctx.tenant.uuid}::uuid AND id = ${entry.id}`,
  );
  return entry.id;
}

/** The re-export of aggregation files, for the app's table of data-log actions (app.ts). */
export const AGGREGATION_REEXPORTERS: DataLogActionList = [
  [MESSAGE_TYPES.meteredEnergyAggregation, reexportAggregation],
];
