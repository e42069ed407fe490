import type { OrganisationCredentials, StoredCredentials } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';
import { decryptSecret, encryptSecret, storedSecretKey } from '../secrets/secret-box.js';

/**
 * Credentials of an organisation's export destination (organisationtype-with-credentials). The
 * export has to send them on to the remote server, so they are encrypted (AES-256-GCM), not hashed.
 * The key is generated once and kept beside the identity provider's signing key (identity_secret):
 * a copy of the organisation tables alone does not reveal a secret. The tenant and organisation are
 * the additional authenticated data, so a ciphertext moved to another row does not decrypt.
 * Answers only ever carry StoredCredentials (username, kind, when, who).
 */
const KEY_NAME = 'organisation_credentials_key';
const credentialsKey = (ex: Executor): Promise<Buffer> => storedSecretKey(ex, KEY_NAME);

const aadOf = (tenant: string, organisationUuid: string) => Buffer.from(`${tenant}:${organisationUuid}`);

interface CredentialRow {
  username: string;
  kind: 'password' | 'privateKey';
  secret_encrypted: string;
  updated_at: string;
  updated_by: string;
}

const toStored = (row: CredentialRow): StoredCredentials => ({
  username: row.username,
  kind: row.kind,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
});

/** Stores (replaces) the credentials of one organisation; answers what may be shown of them. */
export async function storeCredentials(
  ex: Executor,
  tenant: string,
  organisationUuid: string,
  credentials: OrganisationCredentials,
  actor: string,
): Promise<StoredCredentials> {
  const key = await credentialsKey(ex);
  const kind = 'password' in credentials ? 'password' : 'privateKey';
  const secret =
    'password' in credentials
      ? { password: credentials.password }
      : { privateKey: credentials.privateKey, passphrase: credentials.passphrase };
  const encrypted = encryptSecret(key, JSON.stringify(secret), aadOf(tenant, organisationUuid));
  const [row] = await rows<CredentialRow>(
    ex,
    sql`INSERT INTO organisation_credential (tenant, organisation_uuid, username, kind, secret_encrypted, updated_by)
        VALUES (${tenant}::uuid, ${organisationUuid}::uuid, ${credentials.username}, ${kind}, ${encrypted}, ${actor})
        ON CONFLICT (tenant, organisation_uuid) DO UPDATE SET username = EXCLUDED.username, kind = EXCLUDED.kind,
          secret_encrypted = EXCLUDED.secret_encrypted, updated_by = EXCLUDED.updated_by, updated_at = now()
        RETURNING username, kind, secret_encrypted, rw_iso(updated_at) AS updated_at, updated_by`,
  );
  return toStored(row!);
}

/** For the export that sends files on: the decrypted credentials (never for an HTTP answer). */
export async function readCredentials(
  ex: Executor,
  tenant: string,
  organisationUuid: string,
): Promise<OrganisationCredentials | undefined> {
  const [row] = await rows<CredentialRow>(
    ex,
    sql`SELECT username, kind, secret_encrypted, rw_iso(updated_at) AS updated_at, updated_by
          FROM organisation_credential WHERE tenant = ${tenant}::uuid AND organisation_uuid = ${organisationUuid}::uuid`,
  );
  if (!row) return undefined;
  const key = await credentialsKey(ex);
  const secret = JSON.parse(decryptSecret(key, row.secret_encrypted, aadOf(tenant, organisationUuid))) as Record<
    string,
    string
  >;
  return row.kind === 'password'
    ? { username: row.username, password: secret.password ?? '' }
    : { username: row.username, privateKey: secret.privateKey ?? '', passphrase: secret.passphrase ?? '' };
}
