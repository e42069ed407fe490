import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedUuid } from '../../seed/fleet.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { keycloakDirectory, marketFunctionsAttribute, type KeycloakAdminConfig } from './keycloak-admin.js';

/**
 * A stand-in for Keycloak, which cannot run here: a local HTTP server that implements the few admin
 * REST endpoints the directory client uses (client-credentials token, GET/POST users, PUT user,
 * PUT reset-password) the way Keycloak answers them (201 with Location on create, 204 on update,
 * 401 without a valid bearer token, 409 for a taken username).
 */
interface FakeUser {
  id: string;
  username: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  enabled: boolean;
  attributes: Record<string, string[]>;
  password?: { value: string; temporary: boolean };
}

function fakeKeycloak(realm: string, clientId: string, clientSecret: string) {
  const users = new Map<string, FakeUser>();
  const requests: string[] = [];
  let issued = 0;
  let refuseNext = false;
  const bodyOf = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk: Buffer) => (data += chunk.toString()));
      req.on('end', () => resolve(data));
    });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = await bodyOf(req);
      requests.push(`${req.method} ${url.pathname}`);
      const json = (status: number, value?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { ...(value === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
        res.end(value === undefined ? undefined : JSON.stringify(value));
      };
      if (req.method === 'POST' && url.pathname === `/realms/${realm}/protocol/openid-connect/token`) {
        const form = new URLSearchParams(body);
        if (
          form.get('grant_type') !== 'client_credentials' ||
          form.get('client_id') !== clientId ||
          form.get('client_secret') !== clientSecret
        ) {
          return json(401, { error: 'unauthorized_client' });
        }
        return json(200, { access_token: `token-${++issued}`, expires_in: 300, token_type: 'Bearer' });
      }
      const prefix = `/admin/realms/${realm}/users`;
      if (!url.pathname.startsWith(prefix)) return json(404, { error: 'not found' });
      if (!/^Bearer token-\d+$/.test(req.headers.authorization ?? '')) return json(401, { error: 'HTTP 401' });
      if (refuseNext) {
        refuseNext = false;
        return json(500, { error: 'unknown_error' });
      }
      const rest = url.pathname.slice(prefix.length).split('/').filter(Boolean);
      if (req.method === 'GET' && rest.length === 0) {
        const name = url.searchParams.get('username') ?? '';
        return json(
          200,
          [...users.values()].filter((u) => u.username === name.toLowerCase()),
        );
      }
      if (req.method === 'POST' && rest.length === 0) {
        const rep = JSON.parse(body) as FakeUser;
        const username = rep.username.toLowerCase();
        if ([...users.values()].some((u) => u.username === username)) return json(409, { errorMessage: 'exists' });
        const id = `kc-${users.size + 1}`;
        users.set(id, { ...rep, id, username, attributes: rep.attributes ?? {} });
        return json(201, undefined, { location: `http://x${prefix}/${id}` });
      }
      const user = users.get(rest[0] ?? '');
      if (!user) return json(404, { error: 'User not found' });
      if (req.method === 'PUT' && rest.length === 1) {
        const rep = JSON.parse(body) as Partial<FakeUser>;
        Object.assign(user, rep, { id: user.id, username: user.username });
        return json(204);
      }
      if (req.method === 'PUT' && rest[1] === 'reset-password') {
        const cred = JSON.parse(body) as { type: string; value: string; temporary: boolean };
        user.password = { value: cred.value, temporary: cred.temporary };
        return json(204);
      }
      return json(405, { error: 'method not allowed' });
    })();
  });
  return {
    server,
    users,
    requests,
    refuseNext: () => {
      refuseNext = true;
    },
    byName: (name: string) => [...users.values()].find((u) => u.username === name.toLowerCase()),
  };
}

const REALM = 'railwatt';
const CLIENT_ID = 'railwatt-admin';
const CLIENT_SECRET = 'stand-in-secret';
const ADMIN = 'erex-administrator';

describe('Keycloak admin client (against a local stand-in for Keycloak)', () => {
  const kc = fakeKeycloak(REALM, CLIENT_ID, CLIENT_SECRET);
  let config: KeycloakAdminConfig;
  let t: TestApp;

  beforeAll(async () => {
    await new Promise<void>((resolve) => kc.server.listen(0, '127.0.0.1', resolve));
    const { port } = kc.server.address() as AddressInfo;
    config = { url: `http://127.0.0.1:${port}/`, realm: REALM, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
    // The app as it runs with Keycloak configured: users are written to app_user and to the realm.
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'], config: { keycloakAdmin: config } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => kc.server.close(resolve));
  });
  afterEach(() => {
    kc.requests.length = 0;
  });

  it('creates, updates, enables and sets the password of a user through the admin API', async () => {
    const directory = keycloakDirectory(config);
    const user = {
      username: 'Kari.Direct',
      firstName: 'Kari',
      lastName: 'Direct',
      email: 'kari@example.org',
      enabled: true,
      attributes: { title: 'Engineer', description: null },
      areas: [{ areaId: t.areaUuid('norway'), marketFunctions: ['consumer' as const], organisations: [] }],
      globalMarketFunctions: [],
    };
    await directory.upsert(user);
    const created = kc.byName('kari.direct')!;
    expect(created).toMatchObject({
      firstName: 'Kari',
      email: 'kari@example.org',
      enabled: true,
      attributes: { title: ['Engineer'], market_functions: [`marketfunction=consumer:${t.areaUuid('norway')}`] },
    });
    expect(created.attributes.description).toBeUndefined();

    await directory.upsert({ ...user, lastName: 'Changed' });
    expect(kc.users.size).toBe(1);
    expect(kc.byName('kari.direct')!.lastName).toBe('Changed');

    await directory.setEnabled(['Kari.Direct'], false);
    expect(kc.byName('kari.direct')!.enabled).toBe(false);
    await directory.setPassword('kari.direct', 'a-new-Pa55word', true);
    expect(kc.byName('kari.direct')!.password).toEqual({ value: 'a-new-Pa55word', temporary: true });
    // One service-account token for all of it.
    expect(kc.requests.filter((r) => r.endsWith('/token'))).toHaveLength(1);
    await expect(directory.setEnabled(['nobody-there'], true)).rejects.toThrow(/does not know the user/);
  });

  it('fails loudly when the admin client is refused', async () => {
    const wrong = keycloakDirectory({ ...config, clientSecret: 'wrong' });
    await expect(wrong.setEnabled(['kari.direct'], true)).rejects.toThrow(/refused the admin client \(401\)/);
  });

  it('writes the market functions as the realm token mapper reads them', () => {
    expect(
      marketFunctionsAttribute({
        username: 'x',
        firstName: null,
        lastName: null,
        email: null,
        enabled: true,
        attributes: {},
        areas: [{ areaId: 'a-1', marketFunctions: ['consumer', 'cp-admin'], organisations: [] }],
        globalMarketFunctions: ['vehicle-keeper'],
      }),
    ).toEqual(['marketfunction=vehicle-keeper', 'marketfunction=consumer:a-1', 'marketfunction=cp-admin:a-1']);
  });

  it('user registration, edit-all and resetPassword reach Keycloak; a refusal there stores nothing', async () => {
    const norway = t.areaUuid('norway');
    const save = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: {
        username: 'ola.keycloak',
        firstName: 'Ola',
        lastName: 'Keycloak',
        email: 'ola@example.org',
        attributes: { title: 'Planner', description: 'Night shift' },
        areas: [
          {
            areaId: norway,
            marketFunctions: ['consumer'],
            organisations: [seedUuid('norway:org:vy'), seedUuid('norway:org:banenor')],
          },
        ],
        password: 'initial-Pa55',
      },
    });
    expect(save.statusCode).toBe(200);
    expect(kc.byName('ola.keycloak')).toMatchObject({
      firstName: 'Ola',
      enabled: true,
      attributes: {
        title: ['Planner'],
        description: ['Night shift'],
        market_functions: [`marketfunction=consumer:${norway}`],
      },
      password: { value: 'initial-Pa55', temporary: false },
    });
    // The password lives in Keycloak only; app_user keeps no hash nobody verifies.
    const [row] = await t.allAreas.query<{ password_hash: string | null }>(
      `SELECT password_hash FROM app_user WHERE username = 'ola.keycloak'`,
    );
    expect(row?.password_hash).toBeNull();

    const disable = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit-all',
      payload: { usernames: ['ola.keycloak'], enabled: false },
    });
    expect(disable.statusCode).toBe(200);
    expect(kc.byName('ola.keycloak')!.enabled).toBe(false);

    const reset = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/resetPassword',
      payload: { username: 'ola.keycloak' },
    });
    expect(reset.statusCode).toBe(200);
    expect(kc.byName('ola.keycloak')!.password).toEqual({ value: reset.json().password, temporary: true });

    // Keycloak fails: the app answers 500 and app_user holds no new user.
    kc.refuseNext();
    const refused = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'not.stored', areas: [] },
    });
    expect(refused.statusCode).toBe(500);
    const stored = await t.allAreas.query(`SELECT 1 FROM app_user WHERE username = 'not.stored'`);
    expect(stored).toHaveLength(0);
  });
});
