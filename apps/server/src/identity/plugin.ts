import type { IncomingMessage, ServerResponse } from 'node:http';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { findUser } from '../modules/user/repository.js';
import { verifyPassword } from '../modules/user/passwords.js';
import { LoginThrottle, tooManyAttemptsMessage } from './login-throttle.js';
import { IDENTITY_MOUNT, INTERACTION_PATH, type Identity } from './provider.js';
import { errorPage, loginPage } from './pages.js';

/** Keycloak's wording, so users and browser journeys see the same message with either provider. */
export const INVALID_CREDENTIALS = 'Invalid username or password.';

const loginBody = z.object({ username: z.string().default(''), password: z.string().default('') });

export interface IdentityPluginOptions {
  identity: Identity;
  database: Database;
  /** Failed-login bookkeeping (default: 5 per username, 20 per address in 15 minutes). */
  loginThrottle?: LoginThrottle;
}

/**
 * Mounts the embedded OpenID Connect provider under /auth. The provider (a Koa app) answers every
 * /auth path except the interaction pages, which are ordinary Fastify routes rendering our login page.
 */
export async function identityPlugin(
  app: FastifyInstance,
  { identity, database, loginThrottle = new LoginThrottle() }: IdentityPluginOptions,
) {
  const { provider } = identity;
  const callback = provider.callback();

  // Hand the raw request to the provider before Fastify reads the body: the provider parses it
  // itself. The provider routes on the path below its mount, as Express-style mounting would give it.
  const toProvider = (request: FastifyRequest, reply: FastifyReply): void => {
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? '/';
    raw.originalUrl = url;
    raw.url = url.slice(IDENTITY_MOUNT.length) || '/';
    if (!raw.url.startsWith('/')) raw.url = `/${raw.url}`;
    // The provider (Koa, proxy = true) believes X-Forwarded-*; give it Fastify's verdict, which trusts
    // them only from the proxies TRUST_PROXY names, instead of whatever the client sent.
    raw.headers['x-forwarded-proto'] = request.protocol;
    raw.headers['x-forwarded-host'] = request.host;
    raw.headers['x-forwarded-for'] = request.ip;
    reply.hijack();
    void callback(raw, reply.raw as ServerResponse);
  };
  for (const url of [IDENTITY_MOUNT, `${IDENTITY_MOUNT}/*`]) {
    app.route({
      method: ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT', 'HEAD'],
      url,
      exposeHeadRoute: false,
      schema: { hide: true },
      // Not calling done(): the provider owns the response from here on.
      onRequest: (request, reply, _done) => toProvider(request, reply),
      handler: async () => undefined,
    });
  }

  await app.register(formbody);

  const details = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      return undefined;
    }
  };

  const expired = (reply: FastifyReply) =>
    reply
      .code(400)
      .type('text/html')
      .send(errorPage('Your sign-in has expired. Please go back to Railwatt and sign in again.'));

  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<typeof provider.interactionResult>[2],
  ) => {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(returnTo, 303);
  };

  app.get<{ Params: { uid: string } }>(
    `${INTERACTION_PATH}/:uid`,
    { schema: { hide: true }, config: { access: { public: true } } },
    async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction || interaction.uid !== request.params.uid) return expired(reply);
      if (interaction.prompt.name === 'login') {
        return reply
          .type('text/html')
          .header('cache-control', 'no-store')
          .send(loginPage({ action: `${INTERACTION_PATH}/${interaction.uid}/login` }));
      }
      // Consent for our own client is implied (the grant comes from loadExistingGrant); anything
      // else still missing is granted here so the flow never stops at a consent page.
      const { session, params, prompt } = interaction;
      if (!session?.accountId || typeof params.client_id !== 'string') return expired(reply);
      const grant = interaction.grantId
        ? ((await provider.Grant.find(interaction.grantId)) ??
          new provider.Grant({ accountId: session.accountId, clientId: params.client_id }))
        : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      const grantId = await grant.save();
      return finish(request, reply, { consent: { grantId } });
    },
  );

  app.post<{ Params: { uid: string } }>(
    `${INTERACTION_PATH}/:uid/login`,
    { schema: { hide: true }, config: { access: { public: true } } },
    async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction || interaction.uid !== request.params.uid || interaction.prompt.name !== 'login') {
        return expired(reply);
      }
      const { username, password } = loginBody.parse(request.body ?? {});
      const action = `${INTERACTION_PATH}/${interaction.uid}/login`;
      // request.ip is the proxy's client address only when TRUST_PROXY trusts that proxy.
      const wait = loginThrottle.retryAfter(username, request.ip);
      if (wait > 0) {
        // Refused before the password is checked, and not counted: a guesser learns nothing meanwhile.
        return reply
          .code(429)
          .type('text/html')
          .header('cache-control', 'no-store')
          .header('retry-after', String(Math.ceil(wait / 1000)))
          .send(loginPage({ action, username, error: tooManyAttemptsMessage(wait) }));
      }
      const user = username ? await findUser(database, username.trim()) : undefined;
      const valid = user?.enabled ? await verifyPassword(password, user.passwordHash) : false;
      if (!user || !valid) {
        loginThrottle.recordFailure(username, request.ip);
        return reply
          .code(200)
          .type('text/html')
          .header('cache-control', 'no-store')
          .send(loginPage({ action, username, error: INVALID_CREDENTIALS }));
      }
      loginThrottle.recordSuccess(username);
      return finish(request, reply, { login: { accountId: user.username, remember: true } });
    },
  );
}
