import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientConfigSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
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
