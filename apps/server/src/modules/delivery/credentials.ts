import type { DeliveryDestination, DeliveryDestinationView, StoredDeliveryDestination } from '@railwatt/contracts';
import type { Executor } from '../domain/sql.js';
import { interfaceCredentialsKey, type CredentialsKeySource } from '../interface/credentials.js';
import { decryptSecret, encryptSecret } from '../secrets/secret-box.js';

/**
 * Passwords of report destinations (FTP, SFTP, a web service's basic authentication), encrypted at
 * rest exactly as the interface routes' credentials are (modules/interface/credentials.ts: AES-256-GCM
 * of modules/secrets, the key INTERFACE_CREDENTIALS_KEY or the one generated and kept in
 * identity_secret). The platform must present them to someone else, so they are encrypted, not
 * hashed; no answer ever carries them (destinationView).
 *
 * `owner` names the row the destination belongs to and is the additional authenticated data, so a
 * ciphertext copied onto another row does not decrypt: a stable id that an edit does not change
 * (a schedule's uuid, say `scheduled_report:<uuid>`), not its name.
 */

/** The key: the same as the interface routes' (one setting, one key for every remote credential). */
export const deliveryCredentialsKey = (ex: Executor, configured: CredentialsKeySource): Promise<Buffer> =>
  interfaceCredentialsKey(ex, configured);

const aadOf = (owner: string) => Buffer.from(`delivery_destination:${owner}`);

export const encryptDestinationPassword = (key: Buffer, owner: string, password: string): string =>
  encryptSecret(key, password, aadOf(owner));

/** For the connection only (the delivery); never for an HTTP answer. Throws when it does not decrypt. */
export const decryptDestinationPassword = (key: Buffer, owner: string, stored: string): string =>
  decryptSecret(key, stored, aadOf(owner));

/** A destination as entered, made storable: its password encrypted for `owner`. */
export function storableDestination(
  key: Buffer,
  owner: string,
  destination: DeliveryDestination,
): StoredDeliveryDestination {
  switch (destination.destinationType) {
    case 'my email':
      return destination;
    case 'webservice': {
      const { password, ...rest } = destination;
      return password === undefined
        ? rest
        : { ...rest, passwordEncrypted: encryptDestinationPassword(key, owner, password) };
    }
    default: {
      const { password, ...rest } = destination;
      return { ...rest, passwordEncrypted: encryptDestinationPassword(key, owner, password) };
    }
  }
}

/** A stored destination as answered: whether a password is set, never the password. */
export function destinationView(stored: StoredDeliveryDestination): DeliveryDestinationView {
  if (stored.destinationType === 'my email') return stored;
  const { passwordEncrypted, ...rest } = stored;
  return { ...rest, hasPassword: passwordEncrypted !== undefined };
}
