import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import { isAreaKind, type InterfaceType } from '@railwatt/contracts';
import type { ServiceContext, TenantContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { allAreasExecutor, tenantExecutor } from '../../db/tenant.js';
import type { FormatName } from '../../formats/timeseries/format.js';
import { extensionOf, FORMAT_EXTENSIONS } from '../../formats/timeseries/registry.js';
import { messageTypeOf, type ImportQueue } from '../timeseries/accept.js';
import { finishFile, startFile } from '../datalog/datalog-service.js';
import { writeFileBytes } from '../datalog/file-store.js';
import { rows } from '../domain/sql.js';
import { attachAggregationResponse } from '../settlement/aggregation-delivery.js';
import type { AllowedHosts } from './allowed-hosts.js';
import { decryptCredentials, interfaceCredentialsKey } from './credentials.js';
import { pinRouteHostKey } from './service.js';
import {
  fetchRouteFiles,
  FileTooLargeError,
  type FetchedFile,
  type FetchOutcome,
  type IntakeRoute,
} from './sftp-intake.js';

/**
 * Automatic intake over every enabled IN route (the `sftp-intake` job, on a schedule; and
 * GET /integration/prices/import-prices for the NORDPOOL routes of one area). Each fetched file gets
 * its data-log entry in the area of its folder (the route in `destination`) and is queued for the
 * import job like an upload, acting as `sftp:<route id>`. A METERED_ENERGY_AGGREGATION route
 * carries responses to our aggregation exports instead: each is attached to its export's entry.
 */

/** The format of a route's files by interface type; types whose files are not time series are not read. */
export function formatFor(interfaceType: string, fileName: string): FormatName | null {
  const ext = extensionOf(fileName);
  const by: Partial<Record<InterfaceType, FormatName[]>> = {
    CEBD: ['cebd'],
    READING_BLOCK: ['cebd'],
    UTILTS: ['utilts'],
    SDV: ['sdv'],
    NORDPOOL: ['nordpool'],
    TRAIN_RUN: ['trainrun'],
    // Substation (supply) and degree-day files come as UTILTS, sdv or time-series tables.
    SUPPLY: ['utilts', 'sdv', 'xlsx', 'csv'],
    DEGREE_DAYS: ['xlsx', 'csv'],
  };
  return by[interfaceType as InterfaceType]?.find((f) => FORMAT_EXTENSIONS[f].includes(ext)) ?? null;
}

/**
 * Runs of this process that read the same route take turns: the schedule and import-prices may
 * meet on a NORDPOOL route, and two readers of one directory would both fetch (and import) a file
 * before either moved it. Nothing serialises readers in different server processes yet: they could
 * fetch a file twice, which the data log then shows twice (see sftp-intake.ts on why that beats losing it).
 */
const routeTurns = new Map<string, Promise<unknown>>();

async function inTurn<T>(routeId: string, work: () => Promise<T>): Promise<T> {
  const mine = (routeTurns.get(routeId) ?? Promise.resolve()).then(work, work);
  const settled = mine.catch(() => undefined);
  routeTurns.set(routeId, settled);
  try {
    return await mine;
  } finally {
    if (routeTurns.get(routeId) === settled) routeTurns.delete(routeId);
  }
}

/**
 * Stores a fetched time-series file as an upload is stored (routes/upload.ts): its RUNNING entry
 * first, then the bytes part by part as they arrive from the server (file-store.ts), so memory holds
 * a chunk and a part whatever the file's size; the caller queues the import only after, when the
 * entry's file_size is set. A file not stored whole keeps its entry without bytes, REJECTED when it
 * grew past the limit while read, ERROR when reading or storing failed, and the error is rethrown:
 * the file stays on the server (fetchRouteFiles moves it only after this succeeded).
 */
async function storeFetchedFile(
  ctx: ServiceContext,
  routeId: string,
  messageType: string,
  file: FetchedFile,
): Promise<number> {
  const tenant = ctx.tenant.uuid;
  const id = await startFile(ctx.db, {
    tenant,
    username: ctx.actor.username,
    messageType,
    fileName: file.fileName,
    destination: routeId,
  });
  try {
    await writeFileBytes(ctx.db, tenant, id, file.read());
  } catch (error) {
    // writeFileBytes has removed what it wrote (parts a failed removal leaves behind go at the
    // next start: file-store.ts removeIncompleteFiles).
    await finishFile(
      ctx.db,
      tenant,
      id,
      error instanceof FileTooLargeError
        ? { status: 'REJECTED', text: `The file is ${error.message}; it stays on the server` }
        : { status: 'ERROR', text: 'Failed to store the file; it stays on the server and is fetched again' },
    ).catch(() => undefined);
    throw error;
  }
  return id;
}

export interface SftpIntakeDeps {
  database: Database;
  credentialsKey: Buffer | undefined;
  /** INTERFACE_ALLOWED_HOSTS: a route naming another host is not read (its error says so). */
  allowedHosts: AllowedHosts | undefined;
  queue: ImportQueue;
  maxFileBytes: number;
  log: ServiceContext['log'];
}

export interface SftpIntakeSummary {
  routes: { routeId: string; outcome: FetchOutcome }[];
  dataLogIds: number[];
  jobIds: string[];
}

export interface SftpIntakeFilter {
  interfaceTypes?: readonly string[];
  /** Only these areas' folders (area kinds, lower case). */
  areas?: readonly string[];
  /**
   * Files this run fetches at most, over all routes (default: 100 per route, no total). A caller
   * that answers with one id per file (import-prices) stays within its answer's list; the rest wait
   * on the server for the next run.
   */
  maxFiles?: number;
}

/** Files one route hands over per run unless the caller asks for fewer. */
const MAX_FILES_PER_ROUTE = 100;

export async function runSftpIntake(deps: SftpIntakeDeps, filter: SftpIntakeFilter = {}): Promise<SftpIntakeSummary> {
  // Interface routes are system-wide configuration (no tenant); areas are read across the board.
  const all = allAreasExecutor(deps.database, 'SFTP intake reads every route and area');
  const routes = await rows<
    Omit<IntakeRoute, 'credentials' | 'allowedHosts'> & { interfaceType: string; encrypted: string }
  >(
    all,
    sql`SELECT route_id AS "routeId", interface_type AS "interfaceType", hostname, port, username, path,
               backup_path AS "backupPath", folder, sub_folders AS "subFolders",
               host_key_fingerprint AS "hostKeyFingerprint", credentials_encrypted AS encrypted
          FROM interface_route
         WHERE enabled AND direction = 'IN'
           AND (${!filter.interfaceTypes} OR interface_type = ANY(${sql.param([...(filter.interfaceTypes ?? [])])}::text[]))
         ORDER BY route_id`,
  );
  const areas = await rows<TenantContext>(
    all,
    sql`SELECT uuid, name, kind, time_zone AS "timeZone" FROM settlement_area`,
  );
  const areaByKey = new Map(areas.filter((a) => isAreaKind(a.kind)).map((a) => [a.kind.toLowerCase(), a]));
  const key = await interfaceCredentialsKey(all, deps.credentialsKey);
  const summary: SftpIntakeSummary = { routes: [], dataLogIds: [], jobIds: [] };
  for (const route of routes) {
    const left = filter.maxFiles === undefined ? MAX_FILES_PER_ROUTE : filter.maxFiles - summary.dataLogIds.length;
    if (left <= 0) break;
    const credentials = decryptCredentials(key, route.routeId, route.encrypted);
    const outcome = await inTurn(route.routeId, () =>
      fetchRouteFiles(
        {
          ...route,
          credentials,
          allowedHosts: deps.allowedHosts,
          onNewHostKey: (fingerprint) => pinRouteHostKey(all, route.routeId, fingerprint, `sftp:${route.routeId}`),
        },
        async (file) => {
          const area = areaByKey.get(file.area.toLowerCase());
          if (!area) throw new Error(`The folder ${file.area} names no area`);
          const ctx: ServiceContext = {
            db: tenantExecutor(deps.database, area.uuid),
            tenant: area,
            actor: { username: `sftp:${route.routeId}`, roles: [], areaKind: area.kind },
            log: deps.log,
          };
          // Responses to metered energy aggregation exports (RES_<file>) answer an entry already in
          // the log: stored on it, nothing to import (settlement/aggregation-delivery.ts).
          // They are small (a status line or a short report): read whole, bounded by the limit.
          if (route.interfaceType === 'METERED_ENERGY_AGGREGATION') {
            summary.dataLogIds.push(
              await attachAggregationResponse(ctx, {
                fileName: file.fileName,
                bytes: await buffer(file.read()),
                routeId: route.routeId,
              }),
            );
            return;
          }
          const format = formatFor(route.interfaceType, file.fileName);
          if (!format) throw new Error(`No ${route.interfaceType} reader for ${file.fileName}`);
          const id = await storeFetchedFile(ctx, route.routeId, messageTypeOf(format), file);
          summary.dataLogIds.push(id);
          summary.jobIds.push(await deps.queue.enqueueImport(ctx, { dataLogId: id, format }));
        },
        { maxFileBytes: deps.maxFileBytes, areas: filter.areas, maxFiles: Math.min(MAX_FILES_PER_ROUTE, left) },
      ),
    );
    if (outcome.error)
      deps.log.warn({ routeId: route.routeId, error: outcome.error }, 'SFTP intake could not read a route');
    for (const skipped of outcome.skipped)
      deps.log.warn({ routeId: route.routeId, ...skipped }, 'SFTP intake left a file');
    summary.routes.push({ routeId: route.routeId, outcome });
  }
  return summary;
}
