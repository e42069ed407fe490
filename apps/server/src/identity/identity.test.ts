import { createHash, randomBytes } from 'node:crypto';
import { MARKET_FUNCTIONS_CLAIM, parseMarketFunctions } from '@railwatt/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig, VITE_DEV_ORIGIN } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { INVALID_CREDENTIALS } from './plugin.js';

const REDIRECT_URI = 'http://localhost:8080/';
const ISSUER = 'http://localhost:8080/auth';

/** Just enough of a browser: keeps cookies and follows the identity provider's redirects by hand. */
class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly t: TestApp) {}

  private keep(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      if (cookie.expires && cookie.expires.getTime() < Date.now()) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  private get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string) {
    const response = await this.t.app.inject({
      method: 'GET',
      url: pathOf(url),
      headers: { cookie: this.cookieHeader },
    });
    this.keep(response);
    return response;
  }

  async postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await this.t.app.inject({
      method: 'POST',
      url: pathOf(url),
      headers: { ...headers, cookie: this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    this.keep(response);
    return response;
  }

  /** Follows redirects on this server until one leaves for the client (the redirect_uri). */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse | URL> {
    let current = response;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.location;
      if (current.statusCode < 300 || current.statusCode >= 400 || typeof location !== 'string') return current;
      const target = new URL(location, 'http://localhost');
      if (!target.pathname.startsWith('/auth')) return target;
      current = await this.get(target.pathname + target.search);
    }
    throw new Error('too many redirects');
  }
}

const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return parsed.pathname + parsed.search;
};

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

const authorizeUrl = (challenge: string, state: string, redirectUri = REDIRECT_URI) =>
  `/auth/auth?${new URLSearchParams({
    client_id: 'frontend',
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  })}`;

describe('embedded OpenID Connect provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    // As in development (NODE_ENV=development): the Vite dev server is one of the client's origins.
    t = await createTestApp({ config: { devWebOrigin: VITE_DEV_ORIGIN } });
  });
  afterAll(() => t.close());

  it('publishes discovery and keys under /auth', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/auth/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(200);
    const document = discovery.json();
    expect(document.issuer).toBe(ISSUER);
    expect(document.code_challenge_methods_supported).toContain('S256');
    expect(document.end_session_endpoint).toMatch(/\/auth\/session\/end$/);
    const jwks = await t.app.inject({ method: 'GET', url: pathOf(document.jwks_uri) });
    expect(jwks.json().keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.json().keys[0].d).toBeUndefined();
  });

  it('signs in with code + PKCE, issues a JWT access token with market functions, and refreshes it', async () => {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const start = await browser.get(authorizeUrl(challenge, 'state-1'));
    expect(start.statusCode).toBe(303);
    const loginUrl = String(start.headers.location);
    expect(loginUrl).toMatch(/^\/auth\/interaction\/[\w-]+$/);

    const page = await browser.get(loginUrl);
    expect(page.statusCode).toBe(200);
    for (const id of [
      'id="username"',
      'id="password"',
      'id="kc-login"',
      'name="username"',
      'name="password"',
      'type="password"',
    ]) {
      expect(page.body).toContain(id);
    }
    const action = /action="([^"]+)"/.exec(page.body)?.[1];
    expect(action).toBe(`${loginUrl}/login`);

    const wrong = await browser.postForm(action ?? '', { username: 'consumer', password: 'nope' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toContain(INVALID_CREDENTIALS);
    expect(wrong.body).toContain('value="consumer"');

    const signedIn = await browser.postForm(action ?? '', { username: 'consumer-provider', password: 'demo' });
    expect(signedIn.statusCode).toBe(303);
    const back = await browser.follow(signedIn);
    expect(back).toBeInstanceOf(URL);
    const callback = back as URL;
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('state-1');
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const tokenResponse = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:5173' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code ?? '',
        redirect_uri: REDIRECT_URI,
        client_id: 'frontend',
        code_verifier: verifier,
      }).toString(),
    });
    expect(tokenResponse.statusCode).toBe(200);
    // The Vite dev origin is one of the client's redirect origins, so CORS allows it.
    expect(tokenResponse.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const tokens = tokenResponse.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.id_token).toEqual(expect.any(String));

    const { payload } = await jwtVerify(tokens.access_token, t.app.identity!.keys, {
      issuer: ISSUER,
      audience: 'railwatt-api',
    });
    expect(payload).toMatchObject({
      sub: 'consumer-provider',
      preferred_username: 'consumer-provider',
      given_name: 'Conrad',
      family_name: 'Provider',
      name: 'Conrad Provider',
      client_id: 'frontend',
    });
    const functions = parseMarketFunctions(payload[MARKET_FUNCTIONS_CLAIM]);
    expect(functions).toHaveLength(19);
    expect(functions).toContainEqual({ role: 'consumer', areaId: t.areaUuid('exchange') });

    // The minted test token has the same form as the real one.
    const minted = await t.tokenFor('consumer-provider');
    expect(decodeProtectedHeader(minted)).toEqual(decodeProtectedHeader(tokens.access_token));
    const { payload: mintedPayload } = await jwtVerify(minted, t.app.identity!.keys, {
      issuer: ISSUER,
      audience: 'railwatt-api',
    });
    expect(Object.keys(mintedPayload).sort()).toEqual(Object.keys(payload).sort());

    // The API accepts the provider's token.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'consumer-provider', displayName: 'Conrad Provider' });

    const { payload: idToken } = await jwtVerify(tokens.id_token, t.app.identity!.keys, {
      issuer: ISSUER,
      audience: 'frontend',
    });
    expect(idToken).toMatchObject({
      preferred_username: 'consumer-provider',
      given_name: 'Conrad',
      family_name: 'Provider',
    });

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: 'frontend',
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json();
    const { payload: renewedPayload } = await jwtVerify(renewed.access_token, t.app.identity!.keys, {
      issuer: ISSUER,
      audience: 'railwatt-api',
    });
    expect(renewedPayload.market_functions).toEqual(payload.market_functions);

    // A second authorization in the same browser session needs no login.
    const again = pkce();
    const silent = await browser.follow(await browser.get(`${authorizeUrl(again.challenge, 'state-2')}&prompt=none`));
    expect(silent).toBeInstanceOf(URL);
    expect((silent as URL).searchParams.get('code')).toBeTruthy();

    // Logout: the end-session page submits itself and returns to the app.
    const logout = await browser.get(
      `/auth/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: REDIRECT_URI })}`,
    );
    expect(logout.statusCode).toBe(200);
    expect(logout.body).toContain('name="logout" value="yes"');
    expect(logout.body).toContain("document.getElementById('op.logoutForm').submit()");
    const form = /<form[^>]*action="([^"]+)"[\s\S]*?name="xsrf" value="([^"]+)"/.exec(logout.body);
    expect(form).toBeTruthy();
    const confirmed = await browser.postForm(form?.[1] ?? '', { xsrf: form?.[2] ?? '', logout: 'yes' });
    const after = await browser.follow(confirmed);
    expect(after).toBeInstanceOf(URL);
    expect((after as URL).href).toBe(REDIRECT_URI);

    // Signed out: the next authorization asks for the login again.
    const third = pkce();
    const relogin = await browser.get(authorizeUrl(third.challenge, 'state-3'));
    expect(String(relogin.headers.location)).toMatch(/^\/auth\/interaction\//);
  });

  it('refuses an authorization request without PKCE', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/auth/auth?${new URLSearchParams({ client_id: 'frontend', response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI })}`,
    });
    expect(response.statusCode).toBe(303);
    expect(String(response.headers.location)).toContain('error=invalid_request');
  });
});

/** Opens a login page in a fresh browser and returns the browser and the form's action. */
async function loginForm(t: TestApp) {
  const browser = new Browser(t);
  const start = await browser.get(authorizeUrl(pkce().challenge, 'state'));
  const page = await browser.get(String(start.headers.location));
  const action = /action="([^"]+)"/.exec(page.body)?.[1];
  if (!action) throw new Error(`no login form: ${page.statusCode} ${page.body}`);
  return { browser, action };
}

describe('sign-in protection of the embedded provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses the Vite dev server as redirect outside development', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: authorizeUrl(pkce().challenge, 'state', 'http://localhost:5173/'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('redirect_uri');
    // Nor may a page on that origin call the token endpoint (the check runs once the client is known).
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: VITE_DEV_ORIGIN },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: 'frontend',
      }).toString(),
    });
    expect(token.statusCode).toBe(400);
    expect(token.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('makes a username wait after 5 failures, even with the right password, and lets it in when the wait is over', async () => {
    const { browser, action } = await loginForm(t);
    for (let i = 0; i < 5; i++) {
      const wrong = await browser.postForm(action, { username: 'cp-admin', password: `guess-${i}` });
      expect(wrong.body).toContain(INVALID_CREDENTIALS);
    }
    const refused = await browser.postForm(action, { username: 'cp-admin', password: 'demo' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toContain('Too many sign-in attempts. Try again in 1 minute.');
    expect(refused.body).toContain('id="kc-form-login"');
    // Another user at the same address is not held up.
    const other = await loginForm(t);
    expect((await other.browser.postForm(other.action, { username: 'consumer', password: 'demo' })).statusCode).toBe(
      303,
    );

    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    const afterWait = await browser.postForm(action, { username: 'cp-admin', password: 'demo' });
    expect(afterWait.statusCode).toBe(303);
  });

  it('counts failures per client address, and a forged X-Forwarded-For does not reset the count', async () => {
    // A fresh app (and so a fresh count) on the same database: the test above failed from this address too.
    const app = await buildApp({ config: testConfig(), database: t.database, logger: false });
    await app.ready();
    onTestFinished(() => app.close());
    const fresh: TestApp = { ...t, app };
    for (let i = 0; i < 20; i++) {
      const { browser, action } = await loginForm(fresh);
      const wrong = await browser.postForm(
        action,
        { username: `nobody-${i}`, password: 'x' },
        { 'x-forwarded-for': `198.51.100.${i}` },
      );
      expect(wrong.statusCode).toBe(200);
    }
    const { browser, action } = await loginForm(fresh);
    const refused = await browser.postForm(
      action,
      { username: 'erex-administrator', password: 'demo' },
      { 'x-forwarded-for': '198.51.100.200' },
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Too many sign-in attempts.');
  });
});
