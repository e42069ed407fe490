import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../db/client.js';

/** The embedded provider's secrets, generated once and kept in identity_secret so they survive restarts. */
export interface IdentitySecrets {
  /** RS256 private key as JWK, with kid, alg and use. */
  signingKey: JWK & { kid: string };
  /** Keys that sign the provider's cookies (session, interaction). */
  cookieKeys: string[];
}

async function loadOrCreate<T>(database: Database, name: string, create: () => Promise<T>): Promise<T> {
  const [existing] = await database.query<{ value: T }>('SELECT value FROM identity_secret WHERE name = $1', [name]);
  if (existing) return existing.value;
  const value = await create();
  // Two processes starting together: the first insert wins, and both read the winner back.
  await database.query('INSERT INTO identity_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(value),
  ]);
  const [stored] = await database.query<{ value: T }>('SELECT value FROM identity_secret WHERE name = $1', [name]);
  if (!stored) throw new Error(`identity secret ${name} not stored`);
  return stored.value;
}

export async function loadIdentitySecrets(database: Database): Promise<IdentitySecrets> {
  const signingKey = await loadOrCreate(database, 'signing_key', async () => {
    const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(privateKey);
    return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
  });
  const cookieKeys = await loadOrCreate(database, 'cookie_keys', async () => [randomBytes(32).toString('base64url')]);
  return { signingKey, cookieKeys };
}

/** The public half of a private JWK (what the JWKS endpoint publishes). */
export function publicJwk(jwk: JWK & { kid: string }): JWK & { kid: string } {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg, use } as JWK & { kid: string };
}
