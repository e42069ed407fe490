import { MARKET_FUNCTIONS_CLAIM, parseMarketFunctions } from '@railwatt/contracts';
import type { AuthContext } from '../context.js';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/**
 * Sign-in on the server (STYLE.md §8): verification of bearer tokens against the issuer's keys, and
 * the one function that maps token claims to the signed-in user and their market functions.
 */
export type { AuthContext };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The one mapping from token claims to the user: Keycloak and the embedded provider use the same claims. */
export function authFromClaims(claims: JWTPayload): AuthContext {
  const username = text(claims.preferred_username) ?? text(claims.sub) ?? '';
  const firstName = text(claims.given_name);
  const lastName = text(claims.family_name);
  const displayName = text(claims.name) ?? ([firstName, lastName].filter(Boolean).join(' ') || username);
  return {
    username,
    firstName,
    lastName,
    displayName,
    functions: parseMarketFunctions(claims[MARKET_FUNCTIONS_CLAIM]),
    claims,
  };
}

/**
 * The keys of an external issuer (e.g. Keycloak): its discovery document names jwks_uri, whose keys
 * jose fetches and caches. Discovery runs once, at the first token.
 */
export function remoteIssuerKeys(issuer: string): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`OIDC discovery failed for ${issuer}: ${response.status}`);
    const document = (await response.json()) as { jwks_uri?: unknown };
    if (typeof document.jwks_uri !== 'string') throw new Error(`No jwks_uri at ${issuer}`);
    return createRemoteJWKSet(new URL(document.jwks_uri));
  };
  return async (header, token) => {
    keys ??= discover().catch((error: unknown) => {
      keys = undefined; // try again at the next token
      throw error;
    });
    return (await keys)(header, token);
  };
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
}

export type TokenVerifier = (token: string) => Promise<AuthContext>;

/** Verifies signature, issuer, audience and expiry; rejects (with any error) when the token is not good. */
export function createTokenVerifier({ issuer, audience, keys }: TokenVerifierOptions): TokenVerifier {
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, { issuer, audience, algorithms: ['RS256', 'PS256', 'ES256'] });
    const auth = authFromClaims(payload);
    if (!auth.username) throw new Error('token without a subject');
    return auth;
  };
}
