import type {
  CredentialsKind,
  InterfaceRoute,
  InterfaceRouteFilter,
  InterfaceRouteHistoryEntry,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/** SQL of the interface route tables (migration 0080); system-wide rows, no tenant. */

/** The route's columns as the contract names them; the encrypted credentials are never selected here. */
const ROUTE_COLUMNS = sql`route_id AS "routeId", description, interface_type AS "interfaceType", direction,
  folder, server_type AS "serverType", username, path, backup_path AS "backupPath", hostname, port, enabled,
  change_comment AS "changeComment", sub_folders AS "subFolders", host_key_fingerprint AS "hostKeyFingerprint",
  credentials_kind AS "credentialsKind",
  rw_iso(created_at) AS "createdAt", created_by AS "createdBy", rw_iso(updated_at) AS "updatedAt",
  updated_by AS "updatedBy"`;

/** The stored fields of a route (what create and update write). */
export interface RouteRecord {
  routeId: string;
  description: string | null;
  interfaceType: string;
  direction: string;
  folder: string | null;
  serverType: string;
  username: string;
  path: string;
  backupPath: string | null;
  hostname: string;
  port: number;
  enabled: boolean;
  changeComment: string | null;
  subFolders: string[];
  hostKeyFingerprint: string | null;
}

export async function findRoute(ex: Executor, routeId: string, forUpdate = false): Promise<InterfaceRoute | undefined> {
  const lock = forUpdate ? sql` FOR UPDATE` : sql``;
  const [row] = await rows<InterfaceRoute>(
    ex,
    sql`SELECT ${ROUTE_COLUMNS} FROM interface_route WHERE lower(route_id) = lower(${routeId})${lock}`,
  );
  return row;
}

/** The encrypted credentials of a route, for the connection only. */
export async function findEncryptedCredentials(
  ex: Executor,
  routeId: string,
): Promise<{ routeId: string; encrypted: string } | undefined> {
  const [row] = await rows<{ routeId: string; encrypted: string }>(
    ex,
    sql`SELECT route_id AS "routeId", credentials_encrypted AS encrypted
          FROM interface_route WHERE lower(route_id) = lower(${routeId})`,
  );
  return row;
}

export async function insertRoute(
  ex: Executor,
  route: RouteRecord,
  credentials: { kind: CredentialsKind; encrypted: string },
  actor: string,
): Promise<InterfaceRoute> {
  const [row] = await rows<InterfaceRoute>(
    ex,
    sql`INSERT INTO interface_route (route_id, description, interface_type, direction, folder, server_type, username,
          path, backup_path, hostname, port, enabled, change_comment, sub_folders, host_key_fingerprint, credentials_kind,
          credentials_encrypted, created_by, updated_by)
        VALUES (${route.routeId}, ${route.description}, ${route.interfaceType}, ${route.direction}, ${route.folder},
          ${route.serverType}, ${route.username}, ${route.path}, ${route.backupPath}, ${route.hostname}, ${route.port},
          ${route.enabled}, ${route.changeComment}, ${sql.param(route.subFolders)}::text[], ${route.hostKeyFingerprint},
          ${credentials.kind},
          ${credentials.encrypted}, ${actor}, ${actor})
        RETURNING ${ROUTE_COLUMNS}`,
  );
  return row!;
}

export async function updateRoute(
  ex: Executor,
  route: RouteRecord,
  credentials: { kind: CredentialsKind; encrypted: string } | undefined,
  actor: string,
): Promise<InterfaceRoute> {
  const credentialsSet = credentials
    ? sql`, credentials_kind = ${credentials.kind}, credentials_encrypted = ${credentials.encrypted}`
    : sql``;
  const [row] = await rows<InterfaceRoute>(
    ex,
    sql`UPDATE interface_route SET description = ${route.description}, interface_type = ${route.interfaceType},
          direction = ${route.direction}, folder = ${route.folder}, server_type = ${route.serverType},
          username = ${route.username}, path = ${route.path}, backup_path = ${route.backupPath},
          hostname = ${route.hostname}, port = ${route.port}, enabled = ${route.enabled},
          change_comment = ${route.changeComment}, sub_folders = ${sql.param(route.subFolders)}::text[],
          host_key_fingerprint = ${route.hostKeyFingerprint}, updated_at = now(), updated_by = ${actor}${credentialsSet}
        WHERE route_id = ${route.routeId}
        RETURNING ${ROUTE_COLUMNS}`,
  );
  return row!;
}

/**
 * Pins the host key a connection met on a route that had none (accept-new); answers the route when
 * this call pinned it, undefined when the route already had a key (then the connection was checked
 * against it) or is gone.
 */
export async function pinHostKey(
  ex: Executor,
  routeId: string,
  fingerprint: string,
  actor: string,
): Promise<InterfaceRoute | undefined> {
  const [row] = await rows<InterfaceRoute>(
    ex,
    sql`UPDATE interface_route SET host_key_fingerprint = ${fingerprint}, updated_at = now(), updated_by = ${actor}
        WHERE lower(route_id) = lower(${routeId}) AND host_key_fingerprint IS NULL
        RETURNING ${ROUTE_COLUMNS}`,
  );
  return row;
}

/** Sets `enabled` on the given routes that differ; answers the routes it changed. */
export async function setEnabled(
  ex: Executor,
  routeIds: readonly string[],
  enabled: boolean,
  changeComment: string | null,
  actor: string,
): Promise<InterfaceRoute[]> {
  return rows<InterfaceRoute>(
    ex,
    sql`UPDATE interface_route SET enabled = ${enabled}, change_comment = ${changeComment}, updated_at = now(),
          updated_by = ${actor}
        WHERE lower(route_id) = ANY(SELECT lower(r) FROM unnest(${sql.param([...routeIds])}::text[]) AS r)
          AND enabled <> ${enabled}
        RETURNING ${ROUTE_COLUMNS}`,
  );
}

export async function insertHistory(
  ex: Executor,
  entries: readonly {
    route: InterfaceRoute;
    change: InterfaceRouteHistoryEntry['change'];
    changedFields: readonly string[];
    credentialsChanged: boolean;
  }[],
  actor: string,
): Promise<void> {
  if (entries.length === 0) return;
  const snapshot = (route: InterfaceRoute) => {
    const { createdAt: _c, createdBy: _cb, updatedAt: _u, updatedBy: _ub, ...rest } = route;
    return JSON.stringify(rest);
  };
  const col = <T>(f: (e: (typeof entries)[number]) => T) => sql.param(entries.map(f));
  // changed_fields travel as one comma-joined text per entry (field names hold no commas).
  await ex.execute(
    sql`INSERT INTO interface_route_history (route_id, change, changed_fields, credentials_changed, change_comment,
          changed_by, route)
        SELECT r, c, coalesce(string_to_array(nullif(f, ''), ','), '{}'), cc, cm, ${actor}, s::jsonb
          FROM unnest(${col((e) => e.route.routeId)}::text[], ${col((e) => e.change)}::text[],
                      ${col((e) => e.changedFields.join(','))}::text[], ${col((e) => e.credentialsChanged)}::boolean[],
                      ${col((e) => e.route.changeComment)}::text[], ${col((e) => snapshot(e.route))}::text[])
               AS x(r, c, f, cc, cm, s)`,
  );
}

export async function listHistory(ex: Executor, routeId: string): Promise<InterfaceRouteHistoryEntry[]> {
  return rows<InterfaceRouteHistoryEntry>(
    ex,
    sql`SELECT id::int AS id, route_id AS "routeId", change, coalesce(changed_fields, '{}') AS "changedFields",
          credentials_changed AS "credentialsChanged", change_comment AS "changeComment", changed_by AS "changedBy",
          rw_iso(changed_at) AS "changedAt", route
        FROM interface_route_history WHERE lower(route_id) = lower(${routeId})
        ORDER BY id DESC`,
  );
}

export async function listRouteIds(ex: Executor): Promise<string[]> {
  const found = await rows<{ routeId: string }>(
    ex,
    sql`SELECT route_id AS "routeId" FROM interface_route ORDER BY lower(route_id)`,
  );
  return found.map((r) => r.routeId);
}

const SORT_COLUMNS: Record<string, SQL> = {
  routeId: sql`lower(route_id)`,
  interfaceType: sql`interface_type`,
  direction: sql`direction`,
  serverType: sql`server_type`,
  hostname: sql`lower(hostname)`,
  path: sql`path`,
  enabled: sql`enabled`,
  updatedAt: sql`updated_at`,
};

function whereOf(filter: InterfaceRouteFilter & { routeIds?: readonly string[] | undefined }): SQL {
  const clauses: SQL[] = [sql`true`];
  if (filter.interfaceType) clauses.push(sql`interface_type = ${filter.interfaceType}`);
  if (filter.direction) clauses.push(sql`direction = ${filter.direction}`);
  if (filter.serverType) clauses.push(sql`server_type = ${filter.serverType}`);
  if (filter.enabled !== undefined) clauses.push(sql`enabled = ${filter.enabled}`);
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    // A contains match without LIKE, so % and _ in the search are plain characters.
    clauses.push(
      sql`strpos(lower(concat_ws(' ', route_id, description, hostname, username, path, folder)), ${search}) > 0`,
    );
  }
  if (filter.routeIds && filter.routeIds.length > 0) {
    clauses.push(
      sql`lower(route_id) = ANY(SELECT lower(r) FROM unnest(${sql.param([...filter.routeIds])}::text[]) AS r)`,
    );
  }
  return sql.join(clauses, sql` AND `);
}

export async function listRoutes(
  ex: Executor,
  filter: InterfaceRouteFilter & { routeIds?: readonly string[] | undefined },
  paging: { page: number; size: number; sortBy: string; descendingOrder: boolean },
): Promise<{ content: InterfaceRoute[]; totalElements: number }> {
  const where = whereOf(filter);
  const order = SORT_COLUMNS[paging.sortBy] ?? SORT_COLUMNS.routeId!;
  const direction = paging.descendingOrder ? sql`DESC` : sql`ASC`;
  const [count] = await rows<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM interface_route WHERE ${where}`);
  const content = await rows<InterfaceRoute>(
    ex,
    sql`SELECT ${ROUTE_COLUMNS} FROM interface_route WHERE ${where}
        ORDER BY ${order} ${direction}, lower(route_id) ASC
        LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`,
  );
  return { content, totalElements: count?.n ?? 0 };
}
