import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * Production verifies tokens from an external issuer (Keycloak) through its discovery document and
 * published keys. Here one app plays that issuer on a real port, and a second app, configured with
 * OIDC_ISSUER pointing at it, must accept its tokens over HTTP and refuse anything else.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('tokens from an external issuer', () => {
  let issuer: TestApp;
  let api: TestApp;
  let issuerUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    issuerUrl = `${publicUrl}/auth`;
    issuer = await createTestApp({ config: { publicUrl } });
    await issuer.app.listen({ port, host: '127.0.0.1' });
    api = await createTestApp({ config: { oidcIssuer: issuerUrl, embeddedIdentityProvider: false } });
  });

  afterAll(async () => {
    await api?.close();
    await issuer?.close();
  });

  it('runs no identity provider of its own', async () => {
    expect(api.app.identity).toBeNull();
    const discovery = await api.app.inject({ method: 'GET', url: '/auth/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(404);
    const config = (await api.app.inject({ method: 'GET', url: '/config.json' })).json<{ authority: string }>();
    expect(config.authority).toBe(issuerUrl);
  });

  it("accepts the issuer's tokens, verified against the keys it publishes", async () => {
    const token = await issuer.tokenFor('consumer');
    const response = await api.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: 'consumer' });
  });

  it('refuses a tampered token, a token for another audience and an expired one', async () => {
    const good = await issuer.tokenFor('consumer');
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, preferred_username: 'erex-administrator' })).toString(
      'base64url',
    );
    const tokens = [
      `${header}.${forged}.${signature}`,
      await issuer.tokenFor('consumer', { audience: 'another-api' }),
      await issuer.tokenFor('consumer', { expiresInSeconds: -60 }),
    ];
    for (const token of tokens) {
      const response = await api.app.inject({
        method: 'GET',
        url: '/api/user/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
    }
  });
});
