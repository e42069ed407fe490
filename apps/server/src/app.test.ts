import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientConfigSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig, testConfig, type AppConfig } from './config.js';
import { createTestApp, type TestApp } from './test/app.js';

describe('app shell', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'railwatt-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Railwatt SPA</title>');
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(webDist, 'silent-renew.html'), '<!doctype html>renew');
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('GET /health answers ok without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /config.json tells the web app where the API and the identity provider are', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/config.json' });
    expect(clientConfigSchema.parse(response.json())).toEqual({
      apiBase: '/api',
      authority: 'http://localhost:8080/auth',
      clientId: 'frontend',
      embeddedIdentityProvider: true,
    });
  });

  it('serves index.html for client-side routes, without caching', async () => {
    for (const url of ['/', '/fleet/overview', '/settlementandverification?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Railwatt SPA');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves files, hashed assets with a long cache', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const renew = await t.app.inject({ method: 'GET', url: '/silent-renew.html' });
    expect(renew.body).toContain('renew');
    expect(renew.headers['cache-control']).toBe('no-cache');
  });

  it('does not answer server paths with the web app', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/unknown' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/auth/unknown' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/somewhere' })).statusCode).toBe(404);
  });

  it('echoes the request id and sets security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers['x-request-id']).toBe('abc-123');
    const fresh = await t.app.inject({ method: 'GET', url: '/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' http://localhost:8080");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('publishes OpenAPI at /api/docs with the user calls', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const spec = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(Object.keys(spec.json().paths)).toEqual(
      expect.arrayContaining(['/api/user/me', '/api/user/settlementareas']),
    );
  });
});

describe('caching, HSTS and forwarded headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The same app and database under another configuration, with a route that shows what Fastify believed. */
  const appWith = async (config: Partial<AppConfig>) => {
    const app = await buildApp({ config: testConfig(config), database: t.database, logger: false });
    app.get('/test/client', async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
    await app.ready();
    return app;
  };
  const forwarded = {
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'railwatt.example',
  };

  it('marks every API answer no-store, success and error alike', async () => {
    const me = await t.callAs('consumer', { method: 'GET', url: '/api/user/me' });
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-type']).toContain('application/json');
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/user/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    // The web app's own files keep their caching.
    expect((await t.app.inject({ method: 'GET', url: '/config.json' })).headers['cache-control']).toBe('no-cache');
  });

  it('sends Strict-Transport-Security only when PUBLIC_URL is https', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/health' })).headers['strict-transport-security'],
    ).toBeUndefined();
    const https = await appWith({ publicUrl: 'https://railwatt.example' });
    try {
      const response = await https.inject({ method: 'GET', url: '/health' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await https.close();
    }
  });

  it('ignores X-Forwarded-* unless TRUST_PROXY names the proxy (inject comes from 127.0.0.1)', async () => {
    const cases: [Partial<AppConfig>, boolean][] = [
      [{}, false],
      [{ trustProxy: ['10.0.0.1'] }, false],
      [{ trustProxy: ['127.0.0.1'] }, true],
      [{ trustProxy: ['loopback'] }, true],
      [{ trustProxy: 1 }, true],
      [{ trustProxy: true }, true],
    ];
    for (const [config, trusted] of cases) {
      const app = await appWith(config);
      try {
        const seen = (await app.inject({ method: 'GET', url: '/test/client', headers: forwarded })).json();
        expect(seen, JSON.stringify(config)).toEqual(
          trusted
            ? { ip: '203.0.113.7', protocol: 'https', host: 'railwatt.example' }
            : { ip: '127.0.0.1', protocol: 'http', host: 'localhost:80' },
        );
      } finally {
        await app.close();
      }
    }
  });
});

describe('without a built web app', () => {
  it('answers client-side routes with 503 and how to build', async () => {
    const t = await createTestApp({ config: { webDist: join(tmpdir(), 'railwatt-no-such-dist') } });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/fleet' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });
});

describe('config', () => {
  it('derives the embedded issuer from PUBLIC_URL and recognises an external one', () => {
    const embedded = loadConfig({ PORT: '9000' });
    expect(embedded).toMatchObject({
      port: 9000,
      publicUrl: 'http://localhost:9000',
      oidcIssuer: 'http://localhost:9000/auth',
      embeddedIdentityProvider: true,
      oidcAudience: 'railwatt-api',
      oidcClientId: 'frontend',
      seedDemo: true,
    });
    const keycloak = loadConfig({ OIDC_ISSUER: 'https://sso.example/realms/railwatt/', SEED_DEMO: 'false' });
    expect(keycloak).toMatchObject({
      oidcIssuer: 'https://sso.example/realms/railwatt',
      embeddedIdentityProvider: false,
      seedDemo: false,
    });
  });
});
