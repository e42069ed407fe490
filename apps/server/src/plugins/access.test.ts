import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { expectBadTokensRejected } from '../test/access.js';
import { openTestDatabase } from '../test/database.js';

/** Test-only routes that exercise each kind of access rule. */
function registerFixtures(app: FastifyInstance) {
  app.get('/api/test/admin', { config: { access: { roles: ['erex-administrator'] } } }, async (request) => ({
    tenant: request.tenant,
    roles: request.roles,
  }));
  app.get('/api/test/any-tenant', { config: { access: { roles: 'any' } } }, async (request) => ({
    tenant: request.tenant.kind,
    roles: request.roles,
  }));
  app.get(
    '/api/test/no-tenant',
    { config: { access: { roles: ['exchange-operator'], tenant: false } } },
    async (request) => ({
      username: request.auth.username,
    }),
  );
  app.get('/api/test/public', { config: { access: { public: true } } }, async () => ({ open: true }));
}

describe('route access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ beforeReady: registerFixtures });
  });
  afterAll(() => t.close());

  const get = async (url: string, username: string | undefined, tenant?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        ...(username ? { authorization: `Bearer ${await t.tokenFor(username)}` } : {}),
        ...(tenant ? { 'current-tenant-id': tenant } : {}),
      },
    });

  it('rejects missing, tampered, forged, expired, foreign-audience and foreign-issuer tokens with 401', async () => {
    await expectBadTokensRejected(t, {
      method: 'GET',
      url: '/api/test/admin',
      username: 'erex-administrator',
      tenant: t.areaUuid('norway'),
    });
    await expectBadTokensRejected(t, { method: 'GET', url: '/api/test/no-tenant', username: 'exchange-operator' });
  });

  it('lets an allowed role in, with tenant and roles held in that area', async () => {
    const response = await get('/api/test/admin', 'erex-administrator', t.areaUuid('sweden'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      tenant: { uuid: t.areaUuid('sweden'), name: 'Sweden', kind: 'sweden', timeZone: 'Europe/Stockholm' },
      roles: ['erex-administrator'],
    });
  });

  it('answers 403 for a role that the route does not allow', async () => {
    const response = await get('/api/test/admin', 'consumer', t.areaUuid('norway'));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 403, error: 'Forbidden' });
  });

  it('answers 403 for a tenant in which the user holds no function', async () => {
    // exchange-operator holds its function only in the exchange area.
    expect((await get('/api/test/any-tenant', 'exchange-operator', t.areaUuid('exchange'))).statusCode).toBe(200);
    expect((await get('/api/test/any-tenant', 'exchange-operator', t.areaUuid('norway'))).statusCode).toBe(403);
    // the administration area is held by the administrator, not by the operator.
    expect(
      (await get('/api/test/any-tenant', 'erex-settlement-operator', t.areaUuid('administration'))).statusCode,
    ).toBe(403);
  });

  it('answers 403 without a tenant header, with a malformed one and with an unknown area', async () => {
    expect((await get('/api/test/any-tenant', 'consumer')).statusCode).toBe(403);
    expect((await get('/api/test/any-tenant', 'consumer', 'norway')).statusCode).toBe(403);
    expect((await get('/api/test/any-tenant', 'consumer', '00000000-0000-4000-8000-999999999999')).statusCode).toBe(
      403,
    );
  });

  it('uses the roles held in the selected area only', async () => {
    const exchange = await get('/api/test/any-tenant', 'consumer-provider', t.areaUuid('exchange'));
    expect(exchange.json()).toEqual({ tenant: 'exchange', roles: ['consumer'] });
    const norway = await get('/api/test/any-tenant', 'consumer-provider', t.areaUuid('norway'));
    expect(norway.json().roles.sort()).toEqual(['consumer', 'train-run-data-provider']);
  });

  it('checks roles held anywhere when the route needs no tenant', async () => {
    expect((await get('/api/test/no-tenant', 'exchange-operator')).json()).toEqual({ username: 'exchange-operator' });
    expect((await get('/api/test/no-tenant', 'consumer')).statusCode).toBe(403);
  });

  it('lets anyone call a public route', async () => {
    expect((await get('/api/test/public', undefined)).json()).toEqual({ open: true });
  });

  it('refuses (401) the token of a user disabled after it was issued, and takes it again once enabled', async () => {
    const token = await t.tokenFor('consumer');
    const asConsumer = (tenant = t.areaUuid('norway')) =>
      t.app.inject({
        method: 'GET',
        url: '/api/test/any-tenant',
        headers: { authorization: `Bearer ${token}`, 'current-tenant-id': tenant },
      });
    const setEnabled = async (enabled: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/domain/users/edit-all',
        headers: await t.headersFor('erex-administrator'),
        payload: { usernames: ['consumer'], enabled },
      });
    expect((await asConsumer()).statusCode).toBe(200);
    expect((await setEnabled(false)).statusCode).toBe(200);
    try {
      const refused = await asConsumer();
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ status: 401 });
      // Refused as a disabled user before any tenant question (no 403 that would tell areas apart).
      expect((await asConsumer('00000000-0000-4000-8000-999999999999')).statusCode).toBe(401);
    } finally {
      expect((await setEnabled(true)).statusCode).toBe(200);
    }
    expect((await asConsumer()).statusCode).toBe(200);
  });

  it('treats a token for a user that does not exist as a user without functions', async () => {
    // Unknown to app_user (as a Keycloak user not mirrored locally is) is not "disabled": 403, not 401.
    const response = await get('/api/test/any-tenant', 'nobody', t.areaUuid('norway'));
    expect(response.statusCode).toBe(403);
  });
});

describe('start-up check', () => {
  it('refuses to start when an /api route declares no access', async () => {
    const database = await openTestDatabase();
    try {
      const app = await buildApp({ config: testConfig(), database, logger: false });
      expect(() => app.get('/api/test/forgotten', async () => 'open')).toThrow(/has no config.access/);
      await app.close();
      const late = await buildApp({ config: testConfig(), database, logger: false });
      late.register(async (scope) => {
        scope.post('/api/test/in-a-plugin', async () => 'open');
      });
      await expect(late.ready()).rejects.toThrow(/POST \/api\/test\/in-a-plugin has no config.access/);
      await late.close().catch(() => undefined);
    } finally {
      await database.close();
    }
  });

  it('accepts routes outside /api without access', async () => {
    const database = await openTestDatabase();
    try {
      const app = await buildApp({ config: testConfig(), database, logger: false });
      app.get('/outside', async () => 'ok');
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/outside' })).body).toBe('ok');
      await app.close();
    } finally {
      await database.close();
    }
  });
});
