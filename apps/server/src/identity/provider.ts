import { randomBytes } from 'node:crypto';
import { formatMarketFunction } from '@railwatt/contracts';
import { createLocalJWKSet, importJWK, SignJWT, type JWTVerifyGetKey } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { findMarketFunctions, findUser } from '../modules/user/repository.js';
import { createPgAdapter, purgeExpired } from './adapter.js';
import { loadIdentitySecrets, publicJwk } from './keys.js';
import { errorPage, logoutPage } from './pages.js';

/** Where the provider is mounted on this server; the issuer is PUBLIC_URL + this. */
export const IDENTITY_MOUNT = '/auth';
/** Interactions (login page) are served by our own Fastify routes under this path. */
export const INTERACTION_PATH = `${IDENTITY_MOUNT}/interaction`;

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const API_SCOPE = 'openid profile email';
const OIDC_SCOPES = 'openid profile email offline_access';

export interface MintOptions {
  expiresInSeconds?: number;
  audience?: string;
  issuer?: string;
}

export interface Identity {
  provider: Provider;
  issuer: string;
  /** Verification keys of this provider (no HTTP round trip to ourselves). */
  keys: JWTVerifyGetKey;
  /** The frontend client's redirect origins (CORS, CSP form-action). */
  clientOrigins: string[];
  /** An access token in exactly the form the token endpoint issues (tests, scripts). */
  mintAccessToken(username: string, options?: MintOptions): Promise<string>;
}

/** The claims our access tokens carry besides the registered ones (same names as Keycloak's mappers). */
export async function userTokenClaims(database: Database, username: string): Promise<Record<string, unknown>> {
  const user = await findUser(database, username);
  if (!user) return {};
  const functions = await findMarketFunctions(database, user.username);
  return {
    preferred_username: user.username,
    given_name: user.firstName ?? undefined,
    family_name: user.lastName ?? undefined,
    name: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username,
    email: user.email ?? undefined,
    market_functions: functions.map(formatMarketFunction),
  };
}

/** A resource indicator must be an absolute URI; a plain audience like 'railwatt-api' gets a urn. */
const resourceIndicatorFor = (audience: string): string =>
  URL.canParse(audience) ? audience : `urn:railwatt:${audience}`;

export async function createIdentity(config: AppConfig, database: Database): Promise<Identity> {
  const issuer = `${config.publicUrl}${IDENTITY_MOUNT}`;
  const { signingKey, cookieKeys } = await loadIdentitySecrets(database);
  await purgeExpired(database);
  const resource = resourceIndicatorFor(config.oidcAudience);
  const clientId = config.oidcClientId;
  // The Vite dev server only in development (config.devWebOrigin): elsewhere a redirect there would hand
  // an authorization code to whatever listens on a user's port 5173.
  const origins = [...new Set([config.publicUrl, ...(config.devWebOrigin ? [config.devWebOrigin] : [])])];
  const originOf = (url: string) => new URL(url).origin;

  const configuration: Configuration = {
    adapter: createPgAdapter(database),
    jwks: { keys: [signingKey] },
    cookies: { keys: cookieKeys },
    clients: [
      {
        client_id: clientId,
        client_name: 'Railwatt',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: origins.flatMap((o) => [`${o}/`, `${o}/silent-renew.html`]),
        post_logout_redirect_uris: origins.map((o) => `${o}/`),
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'given_name', 'family_name', 'name'],
      email: ['email', 'email_verified'],
    },
    // Profile claims in the ID token too (as Keycloak does): the web reads the name from it.
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      const user = await findUser(database, sub);
      if (!user?.enabled) return undefined;
      return {
        accountId: user.username,
        async claims() {
          const claims = await userTokenClaims(database, user.username);
          return { sub: user.username, ...claims, email_verified: Boolean(user.email) };
        },
      };
    },
    async extraTokenClaims(_ctx, token) {
      return 'accountId' in token && token.accountId ? userTokenClaims(database, token.accountId) : undefined;
    },
    interactions: {
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    // The frontend is our own client: consent is implied, so a grant is created on first sign-in.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId =
        (result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (client.clientId !== clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(OIDC_SCOPES);
      grant.addResourceScope(resource, API_SCOPE);
      await grant.save();
      return grant;
    },
    // Refresh tokens for the web app whether or not it asked for offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      RefreshToken: 8 * 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
    },
    // The web app runs on Vite's port in development: allow the client's own redirect origins.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => originOf(uri) === origin) ?? false,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: config.oidcAudience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = errorPage('You are signed out.');
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(out.error_description ?? out.error);
    },
  };

  const provider = new Provider(issuer, configuration);
  // Behind a TLS-terminating proxy the provider must see https to set secure cookies. It reads
  // X-Forwarded-*, which identityPlugin rewrites from what Fastify's TRUST_PROXY check concluded.
  provider.proxy = true;

  const publicKey = publicJwk(signingKey);
  const keys = createLocalJWKSet({ keys: [publicKey] });
  const privateKey = await importJWK(signingKey, 'RS256');

  return {
    provider,
    issuer,
    keys,
    clientOrigins: origins,
    async mintAccessToken(username, options = {}) {
      const claims = await userTokenClaims(database, username);
      return new SignJWT({
        ...claims,
        scope: API_SCOPE,
        client_id: clientId,
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signingKey.kid })
        .setJti(randomBytes(16).toString('base64url'))
        .setSubject(username)
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? config.oidcAudience)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? ACCESS_TOKEN_TTL_SECONDS))
        .sign(privateKey);
    },
  };
}
