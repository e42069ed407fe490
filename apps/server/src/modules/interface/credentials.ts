import type { InterfaceCredentials } from '@railwatt/contracts';
import type { Executor } from '../domain/sql.js';
import { decryptSecret, encryptSecret, storedSecretKey } from '../secrets/secret-box.js';

/**
 * Credentials of SFTP interface routes, encrypted at rest with AES-256-GCM (the format of
 * secret box of modules/secrets: v1.<iv>.<tag>.<ciphertext>). The platform has to present them to the
 * remote server, so they are encrypted, not hashed.
 *
 * The key: INTERFACE_CREDENTIALS_KEY when set (config.interfaceCredentialsKey), else one generated
 * on first use and kept in identity_secret (the table of server secrets, beside the token signing
 * key). What this protects: a dump or backup of the route tables, a log of their rows, an answer
 * that selects too much; none of them shows a password or key. With the key in the environment, a
 * copy of the whole database does not reveal them either. What it does not protect against: anyone
 * who has both the database and the key (with the generated key, the database alone suffices), or
 * who controls the running server, which decrypts them to connect. The route id is the additional
 * authenticated data, so a ciphertext copied onto another route does not decrypt.
 */
const KEY_NAME = 'interface_credentials_key';

export type CredentialsKeySource = Buffer | undefined;

/** The configured key, or the stored one (generated once; two processes at once agree on the first). */
export async function interfaceCredentialsKey(ex: Executor, configured: CredentialsKeySource): Promise<Buffer> {
  return configured ?? storedSecretKey(ex, KEY_NAME);
}

const aadOf = (routeId: string) => Buffer.from(`interface_route:${routeId.toLowerCase()}`);

export function encryptCredentials(key: Buffer, routeId: string, credentials: InterfaceCredentials): string {
  const secret =
    'password' in credentials
      ? { password: credentials.password }
      : { privateKey: credentials.privateKey, passphrase: credentials.passphrase };
  return encryptSecret(key, JSON.stringify(secret), aadOf(routeId));
}

/** For the connection only (test connection, file transfer); never for an HTTP answer. */
export function decryptCredentials(key: Buffer, routeId: string, stored: string): InterfaceCredentials {
  const secret = JSON.parse(decryptSecret(key, stored, aadOf(routeId))) as Record<string, string | undefined>;
  return typeof secret.password === 'string'
    ? { password: secret.password }
    : { privateKey: secret.privateKey ?? '', passphrase: secret.passphrase ?? '' };
}
