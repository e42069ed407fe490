import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from '../limits.js';
import { pageQuerySchema } from '../paging.js';

/**
 * Interface routes (calls.md §3 "Interface route", product.md §5 "Route registration"): the SFTP
 * servers files arrive from (direction IN) and leave to (OUT). A route is system-wide configuration
 * of the platform, not data of one area. The rules below are shared by the registration form and
 * the server, so the form refuses what the server would refuse, with the same message.
 */

/** What files travel on a route (DOMAIN.md "Files in and out", "Exchange"). */
export const INTERFACE_TYPES = [
  'CEBD',
  'READING_BLOCK',
  'UTILTS',
  'SDV',
  'NORDPOOL',
  'TRAIN_RUN',
  'DEGREE_DAYS',
  'SUPPLY',
  'METERED_ENERGY_AGGREGATION',
  'REPORT',
  'MASTER_DATA',
] as const;
export const interfaceTypeSchema = z.enum(INTERFACE_TYPES);
export type InterfaceType = z.infer<typeof interfaceTypeSchema>;

export const INTERFACE_DIRECTIONS = ['IN', 'OUT'] as const;
export const interfaceDirectionSchema = z.enum(INTERFACE_DIRECTIONS);
export type InterfaceDirection = z.infer<typeof interfaceDirectionSchema>;

export const INTERFACE_SERVER_TYPES = ['INTERNAL', 'EXTERNAL'] as const;
export const interfaceServerTypeSchema = z.enum(INTERFACE_SERVER_TYPES);
export type InterfaceServerType = z.infer<typeof interfaceServerTypeSchema>;

export const CREDENTIALS_KINDS = ['password', 'privateKey'] as const;
export type CredentialsKind = (typeof CREDENTIALS_KINDS)[number];

export const DEFAULT_SFTP_PORT = 22;

/** Messages of the route rules (English; the web shows them through interfaces.rules.<key>). */
export const INTERFACE_ROUTE_MESSAGES = {
  backupPathNotAllowed: 'Backup path is only allowed for INTERNAL servers with direction IN',
  routeIdFormat: 'The route id may only contain letters, digits, dot, dash and underscore',
  privateKeyFormat: 'The private key must be PEM text (-----BEGIN ... PRIVATE KEY-----)',
  hostnameFormat: 'The hostname must not contain spaces or slashes',
  subFolderFormat: 'A sub folder must be a name without "..", spaces at either end or a leading slash',
  routeNotFound: 'No interface route with this route id',
  routeIdExists: 'An interface route with this route id already exists',
  credentialsRequired: 'Credentials are required: a password, or a private key with its passphrase',
  testTarget: 'Give the route id of a saved route, or the route to test',
  hostKeyFormat: 'The host key fingerprint must be SHA256: and 43 base64 characters, as ssh-keygen -l prints it',
  pathFormat: 'A path or folder must not contain ".." segments or control characters',
  usernameFormat: 'The username must not contain control characters',
  hostNotAllowed: 'The hostname is not among the hosts this platform allows (INTERFACE_ALLOWED_HOSTS)',
} as const;

/**
 * The server's host key as OpenSSH prints it (`ssh-keygen -lf key.pub`, `ssh-keyscan host | ssh-keygen
 * -lf -`): SHA256: and the unpadded base64 of the key's SHA-256. A route pins the key it was first
 * reached with (or the one its administrator entered); every later connection must meet the same key.
 */
export const HOST_KEY_FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
/** Empty is no pin (the next connection pins the key it meets); null clears one; undefined keeps the stored one. */
const hostKeyFingerprintSchema = text(TEXT_LIMITS.code)
  .trim()
  .refine((v) => v === '' || HOST_KEY_FINGERPRINT.test(v), INTERFACE_ROUTE_MESSAGES.hostKeyFormat)
  .nullish()
  .transform((v) => (v === undefined ? undefined : emptyToNull(v)));

/** The route's name: also the key of its history, so kept to characters that read well in a file name. */
export const routeIdSchema = text(TEXT_LIMITS.identifier)
  .trim()
  .min(1)
  .regex(/^[A-Za-z0-9._-]+$/, INTERFACE_ROUTE_MESSAGES.routeIdFormat);

/** product.md §5: "paths are forced to start with a slash" (normalised, not refused). */
export const withLeadingSlash = (value: string): string => (value.startsWith('/') ? value : `/${value}`);

/** Control characters (C0, DEL, C1): nothing a path, folder or username on an SFTP server needs. */
const CONTROL_CHARACTERS = /\p{Cc}/u;
/**
 * A remote path or folder the intake and deliveries may use: no ".." segment (a route's files stay
 * below the folders it names; "\" counts as a separator too, as on a Windows SFTP server) and no
 * control characters. Refused, not normalised: the administrator sees what was wrong.
 */
export const safeRemotePath = (value: string): boolean =>
  !CONTROL_CHARACTERS.test(value) && !value.split(/[\\/]/).includes('..');
const remotePathSchema = text(TEXT_LIMITS.address)
  .trim()
  .min(1)
  .refine(safeRemotePath, INTERFACE_ROUTE_MESSAGES.pathFormat)
  .transform(withLeadingSlash);

/** product.md §5: "empty description or comment is sent as null". */
export const emptyToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};
const optionalText = (max: number) => text(max).nullish().transform(emptyToNull);

/** An empty backup path is no backup path; a given one starts with a slash like the path. */
const backupPathSchema = text(TEXT_LIMITS.address)
  .refine(safeRemotePath, INTERFACE_ROUTE_MESSAGES.pathFormat)
  .nullish()
  .transform((v) => {
    const value = emptyToNull(v);
    return value === null ? null : withLeadingSlash(value);
  });

const PEM_PRIVATE_KEY = /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----[\s\S]+-----END ([A-Z0-9]+ )*PRIVATE KEY-----/;
/** True for PEM text holding a private key (OpenSSH, PKCS#1 or PKCS#8). */
export const looksLikePrivateKey = (value: string): boolean => PEM_PRIVATE_KEY.test(value);

/**
 * product.md §5: "credentials are a password or a private key with passphrase". The passphrase may be
 * empty for a key stored without one. Stored encrypted by the server; no answer ever carries them.
 */
export const interfacePasswordCredentialsSchema = z.object({ password: text(TEXT_LIMITS.secret).min(1) }).strict();
export const interfaceKeyCredentialsSchema = z
  .object({
    privateKey: text(TEXT_LIMITS.secret)
      .trim()
      .min(1)
      .refine(looksLikePrivateKey, INTERFACE_ROUTE_MESSAGES.privateKeyFormat),
    passphrase: text(TEXT_LIMITS.secret).default(''),
  })
  .strict();
export const interfaceCredentialsSchema = z.union([interfacePasswordCredentialsSchema, interfaceKeyCredentialsSchema]);
export type InterfaceCredentials = z.infer<typeof interfaceCredentialsSchema>;

export const credentialsKindOf = (credentials: InterfaceCredentials): CredentialsKind =>
  'password' in credentials ? 'password' : 'privateKey';

const subFolderSchema = text(TEXT_LIMITS.name)
  .trim()
  .min(1)
  .refine((v) => !v.startsWith('/') && !v.split(/[\\/]/).includes('..'), INTERFACE_ROUTE_MESSAGES.subFolderFormat)
  .refine((v) => !CONTROL_CHARACTERS.test(v), INTERFACE_ROUTE_MESSAGES.pathFormat);

/** The fields of a route as entered (create, update, test); credentials are added per call. */
export const INTERFACE_ROUTE_FIELDS = {
  routeId: routeIdSchema,
  description: optionalText(TEXT_LIMITS.comment),
  interfaceType: interfaceTypeSchema,
  direction: interfaceDirectionSchema,
  /** The platform's own folder the route's files are read from or written to. */
  folder: text(TEXT_LIMITS.address)
    .refine(safeRemotePath, INTERFACE_ROUTE_MESSAGES.pathFormat)
    .nullish()
    .transform(emptyToNull),
  serverType: interfaceServerTypeSchema,
  username: text(TEXT_LIMITS.identifier)
    .trim()
    .min(1)
    .refine((v) => !CONTROL_CHARACTERS.test(v), INTERFACE_ROUTE_MESSAGES.usernameFormat),
  path: remotePathSchema,
  backupPath: backupPathSchema,
  hostname: text(TEXT_LIMITS.address)
    .trim()
    .min(1)
    .regex(/^[^\s/]+$/, INTERFACE_ROUTE_MESSAGES.hostnameFormat),
  port: z.number().int().min(1).max(65535).default(DEFAULT_SFTP_PORT),
  enabled: z.boolean().default(true),
  changeComment: optionalText(TEXT_LIMITS.comment),
  subFolders: list(subFolderSchema, LIST_LIMITS.small).default([]),
  /**
   * The pinned host key (our addition: the spec's route has none). On update, left out keeps the
   * stored pin unless hostname or port change (a new server has another key); empty or null clears it.
   */
  hostKeyFingerprint: hostKeyFingerprintSchema,
};

/** product.md §5: "backupPath only for internal servers with direction IN". */
export const backupPathAllowed = (route: { serverType: string; direction: string }): boolean =>
  route.serverType === 'INTERNAL' && route.direction === 'IN';

/** The rule as a zod check, so form and server refuse the same route with the same message on backupPath. */
export const checkBackupPath = (
  route: { serverType: string; direction: string; backupPath?: string | null },
  ctx: z.RefinementCtx,
): void => {
  if (route.backupPath && route.backupPath.trim() !== '' && !backupPathAllowed(route)) {
    ctx.addIssue({ code: 'custom', path: ['backupPath'], message: INTERFACE_ROUTE_MESSAGES.backupPathNotAllowed });
  }
};

/** POST /sftpintegration/interface-configuration/create-route */
export const interfaceRouteCreateSchema = z
  .object({ ...INTERFACE_ROUTE_FIELDS, credentials: interfaceCredentialsSchema })
  .superRefine(checkBackupPath);
export type InterfaceRouteCreate = z.infer<typeof interfaceRouteCreateSchema>;
export type InterfaceRouteCreateInput = z.input<typeof interfaceRouteCreateSchema>;

/** POST /sftpintegration/interface-configuration/update-route: without credentials the stored ones stay. */
export const interfaceRouteUpdateSchema = z
  .object({ ...INTERFACE_ROUTE_FIELDS, credentials: interfaceCredentialsSchema.optional() })
  .superRefine(checkBackupPath);
export type InterfaceRouteUpdate = z.infer<typeof interfaceRouteUpdateSchema>;
export type InterfaceRouteUpdateInput = z.input<typeof interfaceRouteUpdateSchema>;

/** A stored route as answered: which kind of credentials is set, never the credentials. */
export const interfaceRouteSchema = z.object({
  routeId: text(TEXT_LIMITS.identifier),
  description: text(TEXT_LIMITS.comment).nullable(),
  interfaceType: interfaceTypeSchema,
  direction: interfaceDirectionSchema,
  folder: text(TEXT_LIMITS.address).nullable(),
  serverType: interfaceServerTypeSchema,
  username: text(TEXT_LIMITS.identifier),
  path: text(TEXT_LIMITS.address),
  backupPath: text(TEXT_LIMITS.address).nullable(),
  hostname: text(TEXT_LIMITS.address),
  port: z.number().int(),
  enabled: z.boolean(),
  changeComment: text(TEXT_LIMITS.comment).nullable(),
  subFolders: list(text(TEXT_LIMITS.name), LIST_LIMITS.small),
  /** The pinned host key, null until the first connection pins it. */
  hostKeyFingerprint: text(TEXT_LIMITS.code).nullable(),
  credentialsKind: z.enum(CREDENTIALS_KINDS),
  createdAt: text(TEXT_LIMITS.code),
  createdBy: text(TEXT_LIMITS.identifier),
  updatedAt: text(TEXT_LIMITS.code),
  updatedBy: text(TEXT_LIMITS.identifier),
});
export type InterfaceRoute = z.infer<typeof interfaceRouteSchema>;

/** GET .../filtered-routes: the overview's filters (all optional) and the one paging contract. */
export const interfaceRouteFilterSchema = z.object({
  interfaceType: interfaceTypeSchema.optional(),
  direction: interfaceDirectionSchema.optional(),
  serverType: interfaceServerTypeSchema.optional(),
  enabled: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  /** Case-insensitive contains on route id, description, hostname, username and path. */
  search: text(TEXT_LIMITS.search).optional(),
});
export type InterfaceRouteFilter = z.infer<typeof interfaceRouteFilterSchema>;
export type InterfaceRouteFilterInput = z.input<typeof interfaceRouteFilterSchema>;

/** POST /excel/sftp/integrationconfigurations/download: the overview's filters, or the selected routes. */
export const interfaceExportRequestSchema = interfaceRouteFilterSchema.extend({
  routeIds: list(routeIdSchema, LIST_LIMITS.selection).optional(),
});
export type InterfaceExportRequest = z.infer<typeof interfaceExportRequestSchema>;

export const INTERFACE_ROUTE_SORT_FIELDS = [
  'routeId',
  'interfaceType',
  'direction',
  'serverType',
  'hostname',
  'path',
  'enabled',
  'updatedAt',
] as const;
export const interfaceRoutePageQuerySchema = pageQuerySchema.extend({
  ...interfaceRouteFilterSchema.shape,
  sortBy: z.enum(INTERFACE_ROUTE_SORT_FIELDS).default('routeId'),
  descendingOrder: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});
export type InterfaceRoutePageQuery = z.infer<typeof interfaceRoutePageQuerySchema>;

export const routeIdQuerySchema = z.object({ routeId: routeIdSchema });

/** POST .../enable-disable: the selected routes get `enabled`; each change is a history entry. */
export const interfaceRouteEnableSchema = z.object({
  routeIds: list(routeIdSchema, LIST_LIMITS.selection).min(1),
  enabled: z.boolean(),
  changeComment: optionalText(TEXT_LIMITS.comment),
});
export type InterfaceRouteEnable = z.infer<typeof interfaceRouteEnableSchema>;

export const INTERFACE_ROUTE_CHANGES = ['CREATED', 'UPDATED', 'ENABLED', 'DISABLED'] as const;

/** One change of a route: what it became (without credentials), which fields changed, why, who, when. */
export const interfaceRouteHistoryEntrySchema = z.object({
  id: z.number().int(),
  routeId: text(TEXT_LIMITS.identifier),
  change: z.enum(INTERFACE_ROUTE_CHANGES),
  changedFields: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small),
  /** True when the change replaced the credentials (what they were or became is never shown). */
  credentialsChanged: z.boolean(),
  changeComment: text(TEXT_LIMITS.comment).nullable(),
  changedBy: text(TEXT_LIMITS.identifier),
  changedAt: text(TEXT_LIMITS.code),
  route: interfaceRouteSchema.omit({ createdAt: true, createdBy: true, updatedAt: true, updatedBy: true }),
});
export type InterfaceRouteHistoryEntry = z.infer<typeof interfaceRouteHistoryEntrySchema>;

/**
 * POST .../test-connection (our addition, not in calls.md): connect to a saved route (routeId) or to
 * the route of an unsaved form (route; without credentials, the stored ones of its routeId are used).
 */
export const interfaceRouteTestSchema = z
  .object({
    routeId: routeIdSchema.optional(),
    route: z
      .object({ ...INTERFACE_ROUTE_FIELDS, credentials: interfaceCredentialsSchema.optional() })
      .superRefine(checkBackupPath)
      .optional(),
  })
  .refine((v) => Boolean(v.routeId) !== Boolean(v.route), INTERFACE_ROUTE_MESSAGES.testTarget);
export type InterfaceRouteTest = z.infer<typeof interfaceRouteTestSchema>;

export const INTERFACE_TEST_OUTCOMES = [
  'ok',
  'auth_failed',
  'host_unreachable',
  'path_missing',
  'timeout',
  'host_key_mismatch',
  /** The hostname does not match INTERFACE_ALLOWED_HOSTS: nothing was sent. */
  'host_not_allowed',
  'failed',
] as const;
export const interfaceRouteTestResultSchema = z.object({
  ok: z.boolean(),
  /** Which outcome (the web translates it); `message` is the English text with the details. */
  outcome: z.enum(INTERFACE_TEST_OUTCOMES),
  message: serverText(TEXT_LIMITS.comment),
  /** Names in the route's path (at most 100), when the connection worked. */
  entries: list(serverText(TEXT_LIMITS.name), LIST_LIMITS.small).optional(),
  /** The host key the server presented (SHA256:...), whenever the handshake got that far. */
  hostKeyFingerprint: text(TEXT_LIMITS.code).optional(),
  /** True when this test pinned that key on the saved route (it had none). */
  hostKeyPinned: z.boolean().optional(),
});
export type InterfaceRouteTestResult = z.infer<typeof interfaceRouteTestResultSchema>;
