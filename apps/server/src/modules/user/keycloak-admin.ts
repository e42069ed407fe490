import type { User } from '@railwatt/contracts';
import type { KeycloakAdminConfig } from '../../config.js';

export type { KeycloakAdminConfig };

/**
 * Where users sign in, seen from user management. With the embedded provider the app_user table is
 * the directory (its login reads app_user.password_hash), so there is nothing else to tell. With
 * Keycloak (OIDC_ISSUER names a realm and the KEYCLOAK_ADMIN_* variables are set, config.ts) every
 * change is also made in the realm through Keycloak's admin REST API, so the person can sign in
 * there with the same name, enabled flag, password and market functions.
 */
export interface UserDirectory {
  /** Creates or updates the user with everything it holds (names, enabled, attributes, functions). */
  upsert(user: User): Promise<void>;
  setEnabled(usernames: readonly string[], enabled: boolean): Promise<void>;
  /** Sets the password; `temporary` makes the person choose a new one at the next sign-in. */
  setPassword(username: string, password: string, temporary: boolean): Promise<void>;
}

/** Keycloak's user representation, as far as this app fills it. */
interface KeycloakUser {
  id?: string;
  username: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  enabled: boolean;
  attributes: Record<string, string[]>;
}

export class KeycloakAdminError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'KeycloakAdminError';
  }
}

/** The market_functions attribute the realm's protocol mapper puts into the token (deploy/keycloak). */
export function marketFunctionsAttribute(user: User): string[] {
  const values = [
    ...user.globalMarketFunctions.map((role) => `marketfunction=${role}`),
    ...user.areas.flatMap((area) => area.marketFunctions.map((role) => `marketfunction=${role}:${area.areaId}`)),
  ];
  return [...new Set(values)];
}

export function toKeycloakUser(user: User): KeycloakUser {
  const attributes: Record<string, string[]> = { market_functions: marketFunctionsAttribute(user) };
  // product.md §3: title and description travel as attributes (Keycloak keeps attribute values as lists).
  if (user.attributes.title) attributes.title = [user.attributes.title];
  if (user.attributes.description) attributes.description = [user.attributes.description];
  return {
    username: user.username,
    ...(user.firstName ? { firstName: user.firstName } : {}),
    ...(user.lastName ? { lastName: user.lastName } : {}),
    ...(user.email ? { email: user.email } : {}),
    enabled: user.enabled,
    attributes,
  };
}

/** Seconds before a service-account token's expiry at which a new one is fetched. */
const TOKEN_MARGIN_SECONDS = 30;
/**
 * How long one Keycloak request may take. The calls run as the last step of the user save's
 * database transaction, so a Keycloak that never answers must not hold that transaction open.
 */
export const KEYCLOAK_TIMEOUT_MS = 10_000;

/**
 * A client of the few Keycloak admin endpoints user management needs:
 * POST /realms/{realm}/protocol/openid-connect/token (client credentials),
 * GET/POST /admin/realms/{realm}/users, PUT /admin/realms/{realm}/users/{id},
 * PUT /admin/realms/{realm}/users/{id}/reset-password.
 */
export function keycloakDirectory(config: KeycloakAdminConfig, fetchImpl: typeof fetch = fetch): UserDirectory {
  const base = config.url.replace(/\/+$/, '');
  const realm = encodeURIComponent(config.realm);
  const admin = `${base}/admin/realms/${realm}`;
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const res = await fetchImpl(`${base}/realms/${realm}/protocol/openid-connect/token`, {
      method: 'POST',
      signal: AbortSignal.timeout(KEYCLOAK_TIMEOUT_MS),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }).toString(),
    });
    if (!res.ok) throw new KeycloakAdminError(`Keycloak refused the admin client (${res.status})`, res.status);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new KeycloakAdminError('Keycloak answered no access token', res.status);
    token = {
      value: body.access_token,
      expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 60) - TOKEN_MARGIN_SECONDS) * 1000,
    };
    return token.value;
  }

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await fetchImpl(`${admin}${path}`, {
      method,
      signal: AbortSignal.timeout(KEYCLOAK_TIMEOUT_MS),
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) {
      throw new KeycloakAdminError(`Keycloak admin ${method} ${path.split('?')[0]} failed (${res.status})`, res.status);
    }
    return res;
  }

  async function findId(username: string): Promise<string | undefined> {
    const res = await call('GET', `/users?exact=true&username=${encodeURIComponent(username)}`);
    const found = (await res.json()) as KeycloakUser[];
    return found.find((u) => u.username.toLowerCase() === username.toLowerCase())?.id;
  }

  async function requireId(username: string): Promise<string> {
    const id = await findId(username);
    if (!id) throw new KeycloakAdminError(`Keycloak does not know the user ${username}`, 404);
    return id;
  }

  return {
    async upsert(user) {
      const representation = toKeycloakUser(user);
      const id = await findId(user.username);
      if (id) await call('PUT', `/users/${encodeURIComponent(id)}`, representation);
      else await call('POST', '/users', representation);
    },
    async setEnabled(usernames, enabled) {
      for (const username of usernames) {
        const id = await requireId(username);
        await call('PUT', `/users/${encodeURIComponent(id)}`, { enabled });
      }
    },
    async setPassword(username, password, temporary) {
      const id = await requireId(username);
      await call('PUT', `/users/${encodeURIComponent(id)}/reset-password`, {
        type: 'password',
        value: password,
        temporary,
      });
    },
  };
}
