import { z } from 'zod';
import {
  checkBackupPath,
  CREDENTIALS_KINDS,
  DEFAULT_SFTP_PORT,
  INTERFACE_ROUTE_FIELDS,
  INTERFACE_ROUTE_MESSAGES,
  looksLikePrivateKey,
  type InterfaceCredentials,
  type InterfaceRoute,
  type InterfaceRouteUpdate,
} from '@railwatt/contracts';

/**
 * The registration form: the contract's route fields and rules (contracts domain/interface-route.ts:
 * paths forced to start with '/', empty description and comment as null, backupPath only for
 * INTERNAL + IN, the pinned host key as SHA256:... or empty), with the credentials as flat fields a
 * form can hold: which kind, the password, or the private key and its passphrase. When editing,
 * credentials are only sent if replaced.
 */
export const interfaceFormSchema = z
  .object({
    ...INTERFACE_ROUTE_FIELDS,
    // A select holds '' until chosen; the contract's enum then names the field as required.
    interfaceType: z.union([INTERFACE_ROUTE_FIELDS.interfaceType, z.literal('')]).refine((v) => v !== '', {
      message: 'required',
    }),
    credentialsKind: z.enum(CREDENTIALS_KINDS),
    /** Editing: keep the stored credentials unless the user chooses to replace them. */
    replaceCredentials: z.boolean(),
    password: z.string(),
    privateKey: z.string(),
    passphrase: z.string(),
  })
  .superRefine(checkBackupPath)
  .superRefine((values, ctx) => {
    if (!values.replaceCredentials) return;
    if (values.credentialsKind === 'password' && values.password === '') {
      ctx.addIssue({ code: 'custom', path: ['password'], message: INTERFACE_ROUTE_MESSAGES.credentialsRequired });
    }
    if (values.credentialsKind === 'privateKey' && !looksLikePrivateKey(values.privateKey.trim())) {
      ctx.addIssue({ code: 'custom', path: ['privateKey'], message: INTERFACE_ROUTE_MESSAGES.privateKeyFormat });
    }
  });

export type InterfaceFormInput = z.input<typeof interfaceFormSchema>;
export type InterfaceFormOutput = z.output<typeof interfaceFormSchema>;

export function emptyInterfaceForm(): InterfaceFormInput {
  return {
    routeId: '',
    description: '',
    interfaceType: '',
    direction: 'IN',
    folder: '',
    serverType: 'EXTERNAL',
    username: '',
    path: '',
    backupPath: '',
    hostname: '',
    port: DEFAULT_SFTP_PORT,
    enabled: true,
    changeComment: '',
    subFolders: [],
    hostKeyFingerprint: '',
    credentialsKind: 'password',
    replaceCredentials: true,
    password: '',
    privateKey: '',
    passphrase: '',
  };
}

/** The form values of a stored route: its credentials stay stored unless replaced. */
export function toInterfaceForm(route: InterfaceRoute): InterfaceFormInput {
  return {
    ...emptyInterfaceForm(),
    routeId: route.routeId,
    description: route.description ?? '',
    interfaceType: route.interfaceType,
    direction: route.direction,
    folder: route.folder ?? '',
    serverType: route.serverType,
    username: route.username,
    path: route.path,
    backupPath: route.backupPath ?? '',
    hostname: route.hostname,
    port: route.port,
    enabled: route.enabled,
    // A change comment describes one change; the next one starts empty.
    changeComment: '',
    subFolders: route.subFolders,
    hostKeyFingerprint: route.hostKeyFingerprint ?? '',
    credentialsKind: route.credentialsKind,
    replaceCredentials: false,
  };
}

/** The credentials the form holds, or undefined when the stored ones stay. */
export function credentialsOf(values: InterfaceFormOutput): InterfaceCredentials | undefined {
  if (!values.replaceCredentials) return undefined;
  return values.credentialsKind === 'password'
    ? { password: values.password }
    : { privateKey: values.privateKey.trim(), passphrase: values.passphrase };
}

/**
 * The route body of create-route / update-route / test-connection. The host key is always sent: the
 * form shows the stored pin, so an empty field (null after the contract's transform) clears it.
 */
export function toRouteBody(values: InterfaceFormOutput): InterfaceRouteUpdate {
  const {
    credentialsKind: _kind,
    replaceCredentials: _replace,
    password: _password,
    privateKey: _key,
    passphrase: _passphrase,
    interfaceType,
    ...route
  } = values;
  const credentials = credentialsOf(values);
  return {
    ...route,
    interfaceType: interfaceType as InterfaceRouteUpdate['interfaceType'],
    ...(credentials ? { credentials } : {}),
  };
}

/** One server is one hostname (any case, as DNS reads it) and port: another one has its own host key. */
export function sameServer(
  a: { hostname: string; port?: number | undefined },
  b: { hostname: string; port?: number | undefined },
): boolean {
  return a.hostname.trim().toLowerCase() === b.hostname.trim().toLowerCase() && a.port === b.port;
}

/** The i18n key (under interfaces.rules) of a contract rule message, if it is one. */
export function ruleKeyOf(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const found = Object.entries(INTERFACE_ROUTE_MESSAGES).find(([, text]) => text === message);
  return found?.[0];
}
