import {
  credentialsKindOf,
  INTERFACE_ROUTE_MESSAGES,
  INTERFACE_TYPES,
  type InterfaceCredentials,
  type InterfaceExportRequest,
  type InterfaceRoute,
  type InterfaceRouteCreate,
  type InterfaceRouteEnable,
  type InterfaceRouteHistoryEntry,
  type InterfaceRoutePageQuery,
  type InterfaceRouteTest,
  type InterfaceRouteTestResult,
  type InterfaceRouteUpdate,
  type InterfaceType,
} from '@railwatt/contracts';
import { ApiError } from '../../errors.js';
import type { TxExecutor } from '../domain/sql.js';
import { hostAllowed, type AllowedHosts } from './allowed-hosts.js';
import {
  decryptCredentials,
  encryptCredentials,
  interfaceCredentialsKey,
  type CredentialsKeySource,
} from './credentials.js';
import {
  findEncryptedCredentials,
  findRoute,
  insertHistory,
  insertRoute,
  listHistory,
  listRouteIds,
  listRoutes,
  pinHostKey,
  setEnabled,
  updateRoute,
  type RouteRecord,
} from './repository.js';
import { testSftpConnection, type SftpTarget } from './sftp-connection.js';

/**
 * SFTP interface routes (calls.md §7 "/sftpintegration/interface-configuration"). Every write runs
 * in one transaction with its history entry. Routes are system-wide configuration, so the area the
 * request's executor is bound to does not narrow them (the tables have no row-level security).
 */
export interface InterfaceContext {
  db: TxExecutor;
  username: string;
  /** INTERFACE_CREDENTIALS_KEY, or undefined for the key stored in the database. */
  credentialsKey: CredentialsKeySource;
  /** INTERFACE_ALLOWED_HOSTS: the hosts a route may name (undefined: any). */
  allowedHosts: AllowedHosts | undefined;
}

/** The fields a history entry compares (credentials are compared apart and never shown). */
const COMPARED_FIELDS = [
  'description',
  'interfaceType',
  'direction',
  'folder',
  'serverType',
  'username',
  'path',
  'backupPath',
  'hostname',
  'port',
  'enabled',
  'subFolders',
  'hostKeyFingerprint',
] as const satisfies readonly (keyof RouteRecord)[];

const toRecord = (route: InterfaceRouteCreate | InterfaceRouteUpdate): RouteRecord => ({
  routeId: route.routeId,
  description: route.description,
  interfaceType: route.interfaceType,
  direction: route.direction,
  folder: route.folder,
  serverType: route.serverType,
  username: route.username,
  path: route.path,
  backupPath: route.backupPath,
  hostname: route.hostname,
  port: route.port,
  enabled: route.enabled,
  changeComment: route.changeComment,
  subFolders: route.subFolders,
  hostKeyFingerprint: route.hostKeyFingerprint ?? null,
});

const notFound = () => ApiError.notFound(INTERFACE_ROUTE_MESSAGES.routeNotFound);

/** On save: 400 naming the hostname when INTERFACE_ALLOWED_HOSTS does not admit it. */
function checkHostAllowed(ctx: InterfaceContext, hostname: string): void {
  if (hostAllowed(ctx.allowedHosts, hostname)) return;
  throw ApiError.badRequestMany([
    { code: 'invalid_input', field: 'hostname', message: INTERFACE_ROUTE_MESSAGES.hostNotAllowed },
  ]);
}

export async function createInterfaceRoute(
  ctx: InterfaceContext,
  input: InterfaceRouteCreate,
): Promise<InterfaceRoute> {
  checkHostAllowed(ctx, input.hostname);
  return ctx.db.transaction(async (tx) => {
    if (await findRoute(tx, input.routeId)) {
      throw new ApiError(400, INTERFACE_ROUTE_MESSAGES.routeIdExists, {
        code: 'uniquename',
        errors: [{ code: 'uniquename', field: 'routeId', message: INTERFACE_ROUTE_MESSAGES.routeIdExists }],
      });
    }
    const key = await interfaceCredentialsKey(tx, ctx.credentialsKey);
    const route = await insertRoute(
      tx,
      toRecord(input),
      {
        kind: credentialsKindOf(input.credentials),
        encrypted: encryptCredentials(key, input.routeId, input.credentials),
      },
      ctx.username,
    );
    await insertHistory(
      tx,
      [{ route, change: 'CREATED', changedFields: [...COMPARED_FIELDS], credentialsChanged: true }],
      ctx.username,
    );
    return route;
  });
}

export async function updateInterfaceRoute(
  ctx: InterfaceContext,
  input: InterfaceRouteUpdate,
): Promise<InterfaceRoute> {
  checkHostAllowed(ctx, input.hostname);
  return ctx.db.transaction(async (tx) => {
    const before = await findRoute(tx, input.routeId, true);
    if (!before) throw notFound();
    // The stored spelling of the id stays (ids differ in more than case). A pin left out stays,
    // unless the route now names another server (hostname or port): that one has a key of its own.
    const moved = before.hostname.toLowerCase() !== input.hostname.toLowerCase() || before.port !== input.port;
    const hostKeyFingerprint =
      input.hostKeyFingerprint === undefined ? (moved ? null : before.hostKeyFingerprint) : input.hostKeyFingerprint;
    const record = { ...toRecord(input), routeId: before.routeId, hostKeyFingerprint };
    let credentials: { kind: 'password' | 'privateKey'; encrypted: string } | undefined;
    if (input.credentials) {
      const key = await interfaceCredentialsKey(tx, ctx.credentialsKey);
      credentials = {
        kind: credentialsKindOf(input.credentials),
        encrypted: encryptCredentials(key, before.routeId, input.credentials),
      };
    }
    const route = await updateRoute(tx, record, credentials, ctx.username);
    const changedFields = COMPARED_FIELDS.filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(route[field]),
    );
    await insertHistory(
      tx,
      [{ route, change: 'UPDATED', changedFields, credentialsChanged: Boolean(credentials) }],
      ctx.username,
    );
    return route;
  });
}

/** Enables or disables the selected routes; a route already in that state is answered unchanged. */
export async function enableDisableRoutes(
  ctx: InterfaceContext,
  input: InterfaceRouteEnable,
): Promise<InterfaceRoute[]> {
  return ctx.db.transaction(async (tx) => {
    const existing = await listRoutes(
      tx,
      { routeIds: input.routeIds },
      { page: 0, size: input.routeIds.length, sortBy: 'routeId', descendingOrder: false },
    );
    const known = new Set(existing.content.map((r) => r.routeId.toLowerCase()));
    const unknown = input.routeIds.filter((id) => !known.has(id.toLowerCase()));
    if (unknown.length > 0) {
      throw ApiError.badRequestMany(
        unknown.map((id) => ({
          code: 'invalid_input',
          field: 'routeIds',
          message: `${INTERFACE_ROUTE_MESSAGES.routeNotFound}: ${id}`,
        })),
      );
    }
    const changed = await setEnabled(tx, input.routeIds, input.enabled, input.changeComment, ctx.username);
    await insertHistory(
      tx,
      changed.map((route) => ({
        route,
        change: input.enabled ? ('ENABLED' as const) : ('DISABLED' as const),
        changedFields: ['enabled'],
        credentialsChanged: false,
      })),
      ctx.username,
    );
    const byId = new Map(changed.map((r) => [r.routeId, r]));
    return existing.content.map((r) => byId.get(r.routeId) ?? r);
  });
}

export async function getInterfaceRoute(ctx: InterfaceContext, routeId: string): Promise<InterfaceRoute> {
  const route = await findRoute(ctx.db, routeId);
  if (!route) throw notFound();
  return route;
}

export async function interfaceRouteHistory(
  ctx: InterfaceContext,
  routeId: string,
): Promise<InterfaceRouteHistoryEntry[]> {
  if (!(await findRoute(ctx.db, routeId))) throw notFound();
  return listHistory(ctx.db, routeId);
}

export const interfaceRouteIds = (ctx: InterfaceContext): Promise<string[]> => listRouteIds(ctx.db);

export const interfaceTypes = (): InterfaceType[] => [...INTERFACE_TYPES];

export async function filterInterfaceRoutes(ctx: InterfaceContext, query: InterfaceRoutePageQuery) {
  const { page, size, sortBy, descendingOrder, ...filter } = query;
  const { content, totalElements } = await listRoutes(ctx.db, filter, { page, size, sortBy, descendingOrder });
  return { content, totalElements, totalPages: Math.ceil(totalElements / size), number: page, size };
}

/** Every route the export request selects (the overview's filters, or the selected ids), in id order. */
export async function routesForExport(
  ctx: InterfaceContext,
  request: InterfaceExportRequest,
): Promise<InterfaceRoute[]> {
  const { content } = await listRoutes(ctx.db, request, {
    page: 0,
    size: 100_000,
    sortBy: 'routeId',
    descendingOrder: false,
  });
  return content;
}

/** The stored credentials of a route, decrypted for a connection. */
async function storedCredentials(ctx: InterfaceContext, routeId: string): Promise<InterfaceCredentials | undefined> {
  const stored = await findEncryptedCredentials(ctx.db, routeId);
  if (!stored) return undefined;
  const key = await interfaceCredentialsKey(ctx.db, ctx.credentialsKey);
  return decryptCredentials(key, stored.routeId, stored.encrypted);
}

/**
 * Pins the host key a connection met on a route that had none, with a history entry naming the
 * field, in one transaction. The intake, the deliveries and the connection test of a saved route
 * call it; answers whether this call pinned it (false: the route had a key already, or is gone).
 */
export async function pinRouteHostKey(
  db: TxExecutor,
  routeId: string,
  fingerprint: string,
  actor: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const route = await pinHostKey(tx, routeId, fingerprint, actor);
    if (!route) return false;
    await insertHistory(
      tx,
      [
        {
          route: { ...route, changeComment: 'Host key pinned on the first connection' },
          change: 'UPDATED',
          changedFields: ['hostKeyFingerprint'],
          credentialsChanged: false,
        },
      ],
      actor,
    );
    return true;
  });
}

/**
 * POST .../test-connection (our addition): a saved route, or an unsaved one (stored credentials
 * when it has none). Either way the server must present the route's pinned host key; a saved route
 * without one gets the key the test met pinned, an unsaved form gets it in the answer to keep.
 */
export async function testInterfaceConnection(
  ctx: InterfaceContext,
  input: InterfaceRouteTest,
  connect: (target: SftpTarget) => Promise<InterfaceRouteTestResult> = testSftpConnection,
): Promise<InterfaceRouteTestResult> {
  const targetOf = (
    route: Pick<SftpTarget, 'hostname' | 'port' | 'username' | 'path'> & { hostKeyFingerprint?: string | null },
    credentials: InterfaceCredentials,
  ): SftpTarget => ({
    hostname: route.hostname,
    port: route.port,
    username: route.username,
    path: route.path,
    credentials,
    hostKeyFingerprint: route.hostKeyFingerprint ?? null,
    // Checked again when connecting (connectSftp): a saved route the list no longer admits is refused.
    allowedHosts: ctx.allowedHosts,
  });
  let target: SftpTarget;
  let pinned = false;
  if (input.routeId) {
    const route = await getInterfaceRoute(ctx, input.routeId);
    const credentials = await storedCredentials(ctx, route.routeId);
    if (!credentials) throw notFound();
    target = {
      ...targetOf(route, credentials),
      onNewHostKey: async (fingerprint) => {
        pinned = await pinRouteHostKey(ctx.db, route.routeId, fingerprint, ctx.username);
      },
    };
  } else {
    const route = input.route!;
    const credentials = route.credentials ?? (await storedCredentials(ctx, route.routeId));
    if (!credentials) throw ApiError.badRequest('invalid_input', INTERFACE_ROUTE_MESSAGES.credentialsRequired);
    target = targetOf(route, credentials);
  }
  const result = await connect(target);
  return pinned ? { ...result, hostKeyPinned: true } : result;
}
