import type { AreaKind, User, UserPage } from '@railwatt/contracts';
import { createHash, randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS } from '../../identity/plugin.js';
import { findUser } from '../../modules/user/repository.js';
import { verifyPassword } from '../../modules/user/passwords.js';
import { USER_MESSAGES } from '../../modules/user/service.js';
import { seedUuid } from '../../seed/fleet.js';
import { expectBadTokensRejected } from '../../test/access.js';
import { createTestApp, type TestApp } from '../../test/app.js';

/** Starts a code + PKCE sign-in at the embedded provider and posts the login form; answers the form post. */
async function signIn(t: TestApp, username: string, password: string) {
  const cookies = new Map<string, string>();
  const keep = (response: LightMyRequestResponse) => {
    for (const c of response.cookies) cookies.set(c.name, c.value);
    return response;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({
    client_id: 'frontend',
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: 'http://localhost:8080/',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's',
  });
  const start = keep(await t.app.inject({ method: 'GET', url: `/auth/auth?${query}` }));
  const loginUrl = String(start.headers.location);
  keep(await t.app.inject({ method: 'GET', url: loginUrl, headers: { cookie: cookie() } }));
  return t.app.inject({
    method: 'POST',
    url: `${loginUrl}/login`,
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

const ADMIN = 'erex-administrator';
const SAR = 'settlement-area-responsible';
const org = (kind: AreaKind, key: string) => seedUuid(`${kind}:org:${key}`);

/** Every call of calls.md §7 "Users" with a body valid for it. */
const CALLS: { method: InjectOptions['method']; url: string; payload?: InjectOptions['payload'] }[] = [
  { method: 'GET', url: '/api/domain/users/consumer' },
  { method: 'POST', url: '/api/domain/users/save', payload: { username: 'nobody-new' } },
  { method: 'POST', url: '/api/domain/users/edit', payload: { username: 'consumer' } },
  { method: 'POST', url: '/api/domain/users/edit-all', payload: { usernames: ['consumer'], enabled: true } },
  { method: 'POST', url: '/api/domain/users/resetPassword', payload: { username: 'consumer' } },
  { method: 'POST', url: '/api/domain/users/all-in-tenant', payload: {} },
  { method: 'POST', url: '/api/domain/users/all-across-tenants', payload: {} },
];
const ADMIN_ONLY = new Set([
  '/api/domain/users/edit-all',
  '/api/domain/users/resetPassword',
  '/api/domain/users/all-across-tenants',
]);

describe('user calls (/api/domain/users)', () => {
  let t: TestApp;
  const call = (username: string, options: InjectOptions, kind?: AreaKind) => t.callAs(username, options, kind);

  const norwayArea = (extra: Partial<{ marketFunctions: string[]; organisations: string[] }> = {}) => ({
    areaId: t.areaUuid('norway'),
    marketFunctions: ['consumer'],
    organisations: [org('norway', 'vy'), org('norway', 'banenor')],
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'] });
  });
  afterAll(async () => t?.close());

  it('answers 401 without a valid token on every call', async () => {
    for (const c of CALLS) {
      const response = await t.app.inject({ method: c.method, url: c.url, payload: c.payload });
      expect({ url: c.url, status: response.statusCode }).toEqual({ url: c.url, status: 401 });
    }
    await expectBadTokensRejected(t, {
      method: 'POST',
      url: '/api/domain/users/all-across-tenants',
      payload: {},
      username: ADMIN,
      tenant: t.areaUuid('norway'),
    });
  });

  it('answers 403 to roles other than administrator and area responsible, and to a responsible on admin calls', async () => {
    for (const role of [
      'consumer',
      'erex-settlement-operator',
      'audit-settlement-area-responsible',
      'vehicle-keeper',
    ]) {
      for (const c of CALLS) {
        const response = await call(role, c);
        expect({ role, url: c.url, status: response.statusCode }).toEqual({ role, url: c.url, status: 403 });
      }
    }
    for (const c of CALLS.filter((x) => ADMIN_ONLY.has(x.url))) {
      const response = await call(SAR, c);
      expect({ url: c.url, status: response.statusCode }).toEqual({ url: c.url, status: 403 });
    }
    // Without the current-tenant-id header no call passes.
    const headers = await t.headersFor(ADMIN);
    const noTenant = await t.app.inject({
      method: 'POST',
      url: '/api/domain/users/all-in-tenant',
      payload: {},
      headers: { authorization: headers.authorization ?? '' },
    });
    expect(noTenant.statusCode).toBe(403);
  });

  it('answers 400 invalid_input to malformed bodies and parameters', async () => {
    const bad: InjectOptions[] = [
      { method: 'POST', url: '/api/domain/users/save', payload: { username: '' } },
      { method: 'POST', url: '/api/domain/users/save', payload: { username: 'has space' } },
      { method: 'POST', url: '/api/domain/users/save', payload: { username: 'x', areas: [{ areaId: 'nope' }] } },
      { method: 'POST', url: '/api/domain/users/save', payload: { username: 'x', email: 'not-an-email' } },
      { method: 'POST', url: '/api/domain/users/edit', payload: {} },
      { method: 'POST', url: '/api/domain/users/edit-all', payload: { usernames: [], enabled: true } },
      { method: 'POST', url: '/api/domain/users/edit-all', payload: { usernames: ['consumer'] } },
      { method: 'POST', url: '/api/domain/users/resetPassword', payload: {} },
      { method: 'POST', url: '/api/domain/users/all-in-tenant?size=0', payload: {} },
      { method: 'POST', url: '/api/domain/users/all-across-tenants', payload: { active: 'yes' } },
      { method: 'GET', url: '/api/domain/users/bad%20name' },
    ];
    for (const options of bad) {
      const response = await call(ADMIN, options);
      expect({ url: options.url, status: response.statusCode }).toEqual({ url: options.url, status: 400 });
      expect(response.json().code).toBe('invalid_input');
    }
  });

  it('creates a user without a password, reads it back, and refuses a taken username (any case)', async () => {
    const created = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: {
        username: 'nina.new',
        firstName: 'Nina',
        lastName: 'New',
        enabled: true,
        attributes: { title: 'Controller', description: 'Settles Norway' },
        areas: [norwayArea({ marketFunctions: ['consumer', 'erex-settlement-operator'] })],
      },
    });
    expect(created.statusCode).toBe(200);
    const user = created.json<User>();
    expect(user).toMatchObject({
      username: 'nina.new',
      firstName: 'Nina',
      enabled: true,
      attributes: { title: 'Controller', description: 'Settles Norway' },
      globalMarketFunctions: [],
    });
    expect(user.areas).toEqual([
      {
        areaId: t.areaUuid('norway'),
        areaName: 'Norway',
        marketFunctions: ['consumer', 'erex-settlement-operator'],
        organisations: [org('norway', 'vy'), org('norway', 'banenor')].sort(),
      },
    ]);
    expect((await findUser(t.database, 'nina.new'))?.passwordHash).toBeNull();

    const read = await call(ADMIN, { method: 'GET', url: '/api/domain/users/NINA.NEW' });
    expect(read.statusCode).toBe(200);
    expect(read.json<User>().username).toBe('nina.new');

    const again = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'Nina.New', areas: [] },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'uniqueproperties', message: USER_MESSAGES.usernameTaken });

    const missing = await call(ADMIN, { method: 'GET', url: '/api/domain/users/nobody-at-all' });
    expect(missing.statusCode).toBe(404);
  });

  it('needs at least two organisation relations for a settlement-area user, and organisations of that area', async () => {
    const one = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'one-org', areas: [norwayArea({ organisations: [org('norway', 'vy')] })] },
    });
    expect(one.statusCode).toBe(400);
    expect(one.json()).toMatchObject({
      code: 'invalid_input',
      errors: [{ field: 'areas.0.organisations', message: USER_MESSAGES.tooFewOrganisations }],
    });

    const foreign = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: {
        username: 'foreign-org',
        areas: [norwayArea({ organisations: [org('norway', 'vy'), org('sweden', 'trafikverket')] })],
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0]).toMatchObject({
      field: 'areas.0.organisations.1',
      message: USER_MESSAGES.unknownOrganisation,
    });

    // The exchange area is not a settlement area: no organisations needed there.
    const exchange = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: {
        username: 'exchange-only',
        areas: [{ areaId: t.areaUuid('exchange'), marketFunctions: ['consumer'], organisations: [] }],
      },
    });
    expect(exchange.statusCode).toBe(200);
    expect(await findUser(t.database, 'one-org')).toBeUndefined();
  });

  it('lets a responsible create and edit users of its own area only, without the administrator function', async () => {
    const own = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'sar-made', firstName: 'Sam', areas: [norwayArea()] },
    });
    expect(own.statusCode).toBe(200);

    const otherArea = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'sar-other', areas: [{ ...norwayArea(), areaId: t.areaUuid('sweden') }] },
    });
    expect(otherArea.statusCode).toBe(403);

    const escalate = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { username: 'sar-admin', areas: [norwayArea({ marketFunctions: ['erex-administrator'] })] },
    });
    expect(escalate.statusCode).toBe(403);

    const edited = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'sar-made', firstName: 'Samuel', areas: [norwayArea({ marketFunctions: ['cp-admin'] })] },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<User>()).toMatchObject({ firstName: 'Samuel', areas: [{ marketFunctions: ['cp-admin'] }] });

    // The same responsible in Sweden neither sees nor edits a Norway user.
    const fromSweden = await call(SAR, { method: 'GET', url: '/api/domain/users/sar-made' }, 'sweden');
    expect(fromSweden.statusCode).toBe(403);
    const editFromSweden = await call(
      SAR,
      { method: 'POST', url: '/api/domain/users/edit', payload: { username: 'sar-made', areas: [] } },
      'sweden',
    );
    expect(editFromSweden.statusCode).toBe(403);

    // Users working in other areas too are the administrator's.
    const wider = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'consumer', areas: [] },
    });
    expect(wider.statusCode).toBe(403);
  });

  it('lets the administrator edit users with several settlement areas (across areas), keeping areas not listed', async () => {
    // product.md §5: such users are not edited on the user page; the administrator's across-areas
    // pages do (the web blocks the user page's form; a responsible may not touch them at all).
    const several = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'erex-settlement-operator', firstName: 'Olav', lastName: 'Operator' },
    });
    expect(several.statusCode).toBe(200);
    expect(several.json<User>().areas.length).toBeGreaterThan(1);
    const bySar = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'erex-settlement-operator', firstName: 'Olav', lastName: 'Operator' },
    });
    expect(bySar.statusCode).toBe(403);

    // The administrator may give a user a second settlement area, and take it away again.
    const sweden = (extra: Partial<{ marketFunctions: string[]; organisations: string[] }> = {}) => ({
      areaId: t.areaUuid('sweden'),
      marketFunctions: ['consumer'],
      organisations: [org('sweden', 'trafikverket'), org('sweden', 'sj')],
      ...extra,
    });
    const grow = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'nina.new', areas: [sweden()] },
    });
    expect(grow.statusCode).toBe(200);
    expect(grow.json<User>().areas.map((a) => a.areaName)).toEqual(['Norway', 'Sweden']);
    const shrink = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'nina.new', areas: [sweden({ marketFunctions: [], organisations: [] })] },
    });
    expect(shrink.json<User>().areas.map((a) => a.areaName)).toEqual(['Norway']);

    const ok = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'nina.new', firstName: 'Nina', lastName: 'Renamed', attributes: { title: 'Lead' } },
    });
    expect(ok.statusCode).toBe(200);
    // Areas not listed keep what they hold.
    expect(ok.json<User>()).toMatchObject({
      lastName: 'Renamed',
      attributes: { title: 'Lead' },
      areas: [{ areaName: 'Norway' }],
    });

    const unknown = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { username: 'ghost' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('saves a user with an initial password that the embedded login accepts; a short one is refused', async () => {
    const body = {
      username: 'petra.password',
      firstName: 'Petra',
      lastName: 'Password',
      areas: [norwayArea()],
      password: 'initial-Pa55',
    };
    const short = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/save',
      payload: { ...body, password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json())).toContain('The password needs at least 8 characters');

    const saved = await call(ADMIN, { method: 'POST', url: '/api/domain/users/save', payload: body });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain('initial-Pa55');
    const accepted = await signIn(t, 'petra.password', 'initial-Pa55');
    expect(accepted.statusCode).toBe(303);

    // An edit with a new password replaces it; an edit without one keeps it.
    const edited = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit',
      payload: { ...body, password: 'second-Pa55' },
    });
    expect(edited.statusCode).toBe(200);
    expect((await signIn(t, 'petra.password', 'initial-Pa55')).body).toContain(INVALID_CREDENTIALS);
    const { password: _drop, ...withoutPassword } = body;
    await call(ADMIN, { method: 'POST', url: '/api/domain/users/edit', payload: withoutPassword });
    expect((await signIn(t, 'petra.password', 'second-Pa55')).statusCode).toBe(303);
  });

  it('resets a password that the login accepts, and disabled users cannot sign in', async () => {
    const reset = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/resetPassword',
      payload: { username: 'nina.new' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    const { password } = reset.json<{ username: string; password: string }>();
    expect(password.length).toBeGreaterThanOrEqual(20);
    const stored = await findUser(t.database, 'nina.new');
    expect(await verifyPassword(password, stored?.passwordHash ?? null)).toBe(true);
    expect(stored?.passwordHash).not.toContain(password);
    // The embedded provider's login form accepts it (a redirect on to the client instead of the form again).
    const accepted = await signIn(t, 'NINA.NEW', password);
    expect(accepted.statusCode).toBe(303);
    expect(accepted.body).not.toContain(INVALID_CREDENTIALS);

    const disable = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit-all',
      payload: { usernames: ['nina.new', 'SAR-MADE'], enabled: false },
    });
    expect(disable.statusCode).toBe(200);
    expect(disable.json()).toEqual({ usernames: ['nina.new', 'sar-made'], enabled: false });
    expect((await findUser(t.database, 'nina.new'))?.enabled).toBe(false);
    // The embedded provider's login refuses a disabled user, even with the right password.
    const refused = await signIn(t, 'nina.new', password);
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain(INVALID_CREDENTIALS);

    const unknown = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit-all',
      payload: { usernames: ['nina.new', 'ghost'], enabled: true },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { code: 'invalid_input', field: 'usernames.1', message: USER_MESSAGES.unknownUser },
    ]);
    // All or nothing: nina stays disabled.
    expect((await findUser(t.database, 'nina.new'))?.enabled).toBe(false);

    const self = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/edit-all',
      payload: { usernames: [ADMIN], enabled: false },
    });
    expect(self.statusCode).toBe(400);

    const missing = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/resetPassword',
      payload: { username: 'ghost' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('lists users of the current area and across areas with paging and filters', async () => {
    const norway = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/all-in-tenant?page=0&size=5',
      payload: {},
    });
    expect(norway.statusCode).toBe(200);
    const page = norway.json<UserPage>();
    expect(page.size).toBe(5);
    expect(page.content).toHaveLength(5);
    expect(page.totalElements).toBeGreaterThan(5);
    expect(page.totalPages).toBe(Math.ceil(page.totalElements / 5));

    const all = await call(SAR, { method: 'POST', url: '/api/domain/users/all-in-tenant?size=100', payload: {} });
    const names = all.json<UserPage>().content.map((u) => u.username);
    expect(names).toContain('nina.new');
    expect(names).not.toContain('exchange-operator');
    expect(names).not.toContain('exchange-only');

    const searched = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/all-in-tenant',
      payload: { searchString: 'RENAMED' },
    });
    expect(searched.json<UserPage>().content.map((u) => u.username)).toEqual(['nina.new']);
    // nina.new is disabled by now: the area's list filters by the enabled flag as well.
    const onlyActive = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/all-in-tenant?size=100',
      payload: { active: true, inactive: false },
    });
    expect(onlyActive.json<UserPage>().content.map((u) => u.username)).not.toContain('nina.new');
    const onlyInactive = await call(SAR, {
      method: 'POST',
      url: '/api/domain/users/all-in-tenant?size=100',
      payload: { active: false, inactive: true },
    });
    expect(onlyInactive.json<UserPage>().content.every((u) => !u.enabled)).toBe(true);

    const active = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/all-across-tenants?size=100',
      payload: { active: true, inactive: false },
    });
    expect(active.statusCode).toBe(200);
    const activeNames = active.json<UserPage>().content.map((u) => u.username);
    expect(activeNames).toContain('exchange-operator');
    expect(activeNames).not.toContain('nina.new');

    const inactive = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/all-across-tenants',
      payload: { active: false, inactive: true, searchString: 'nina' },
    });
    expect(inactive.json<UserPage>()).toMatchObject({
      totalElements: 1,
      content: [{ username: 'nina.new', enabled: false }],
    });

    const sorted = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/users/all-across-tenants?sortBy=username&descendingOrder=true&size=2',
      payload: {},
    });
    const [first, second] = sorted.json<UserPage>().content.map((u) => u.username);
    expect((first ?? '') > (second ?? '')).toBe(true);
  });
});
