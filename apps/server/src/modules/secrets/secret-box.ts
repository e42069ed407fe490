import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/**
 * Secrets the platform must present to someone else (export destinations, SFTP servers) are
 * encrypted, not hashed: AES-256-GCM, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). The
 * additional authenticated data names the row the secret belongs to, so a ciphertext copied onto
 * another row does not decrypt. Keys live in `identity_secret` beside the token signing key (a copy
 * of the business tables alone reveals nothing), unless configuration supplies one.
 */
const VERSION = 'v1';

/** The named 32-byte key of identity_secret, generated on first use (two processes at once agree on the first). */
export async function storedSecretKey(ex: Executor, name: string): Promise<Buffer> {
  const read = async () =>
    (
      await rows<{ value: string }>(ex, sql`SELECT value #>> '{}' AS value FROM identity_secret WHERE name = ${name}`)
    )[0];
  let stored = await read();
  if (!stored) {
    const fresh = JSON.stringify(randomBytes(32).toString('base64url'));
    await ex.execute(
      sql`INSERT INTO identity_secret (name, value) VALUES (${name}, ${fresh}::jsonb) ON CONFLICT (name) DO NOTHING`,
    );
    stored = await read();
  }
  if (!stored) throw new Error(`secret key ${name} not stored`);
  return Buffer.from(stored.value, 'base64url');
}

export function encryptSecret(key: Buffer, plaintext: string, aad: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(key: Buffer, stored: string, aad: Buffer): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
