import type { AreaKind, MinimalEntity, OrganisationMarketFunctions, VersionedEntity } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials } from '../../modules/organisation/credentials.js';
import { seedUuid } from '../../seed/fleet.js';
import { expectBadTokensRejected } from '../../test/access.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';
const org = (kind: AreaKind, key: string) => seedUuid(`${kind}:org:${key}`);
const NORWAY = '00000000-0000-4000-8000-000000000001';
const SWEDEN = '00000000-0000-4000-8000-000000000002';
const EXCHANGE = '00000000-0000-4000-8000-000000000010';

const CALLS: { method: InjectOptions['method']; url: string; payload?: InjectOptions['payload'] }[] = [
  { method: 'GET', url: `/api/domain/organisations/tenant/${NORWAY}` },
  { method: 'GET', url: '/api/domain/organisations/settlementareas-not-used-by-infrastructure-managers' },
  { method: 'GET', url: `/api/domain/organisations/${org('norway', 'vy')}/marketfunction` },
  { method: 'GET', url: `/api/domain/organisations/tenant/${NORWAY}/marketfunction?orgName=Vy%20Tog%20AS` },
  {
    method: 'POST',
    url: '/api/domain/organisations/organisationtype/save',
    payload: { uuid: org('norway', 'vy'), organisationTypes: ['RAILWAY_UNDERTAKING'] },
  },
  {
    method: 'POST',
    url: '/api/domain/organisations/organisationtype-with-credentials',
    payload: {
      uuid: org('norway', 'vy'),
      organisationTypes: ['RAILWAY_UNDERTAKING'],
      credentials: { username: 'ftp-vy', password: 's3cret-Pa55' },
    },
  },
];

describe('organisation calls (/api/domain/organisations, rest of calls.md §7)', () => {
  let t: TestApp;
  const call = (username: string, options: InjectOptions, kind?: AreaKind) => t.callAs(username, options, kind);

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
  });
  afterAll(async () => t?.close());

  it('answers 401 without a valid token on every call', async () => {
    for (const c of CALLS) {
      const response = await t.app.inject({ method: c.method, url: c.url, payload: c.payload });
      expect({ url: c.url, status: response.statusCode }).toEqual({ url: c.url, status: 401 });
    }
    await expectBadTokensRejected(t, { ...CALLS[5]!, username: ADMIN, tenant: NORWAY });
  });

  it('answers 403 to writers without the right role and to areas the caller does not work in', async () => {
    for (const c of CALLS.filter((x) => x.method === 'POST')) {
      for (const role of ['consumer', 'audit-settlement-area-responsible', 'vehicle-keeper']) {
        const response = await call(role, c);
        expect({ role, url: c.url, status: response.statusCode }).toEqual({ role, url: c.url, status: 403 });
      }
    }
    // The exchange operator works in the exchange area only: other areas' organisations are not its.
    for (const url of [
      `/api/domain/organisations/tenant/${NORWAY}`,
      `/api/domain/organisations/tenant/${NORWAY}/marketfunction`,
    ]) {
      const response = await call('exchange-operator', { method: 'GET', url }, 'exchange');
      expect({ url, status: response.statusCode }).toEqual({ url, status: 403 });
    }
  });

  it('answers 400 to malformed requests', async () => {
    const bad: InjectOptions[] = [
      { method: 'GET', url: '/api/domain/organisations/tenant/not-a-uuid' },
      { method: 'GET', url: '/api/domain/organisations/tenant/not-a-uuid/marketfunction' },
      {
        method: 'POST',
        url: '/api/domain/organisations/organisationtype/save',
        payload: { uuid: org('norway', 'vy'), organisationTypes: [] },
      },
      {
        method: 'POST',
        url: '/api/domain/organisations/organisationtype/save',
        payload: { uuid: org('norway', 'vy'), organisationTypes: ['PIRATE'] },
      },
      {
        method: 'POST',
        url: '/api/domain/organisations/organisationtype-with-credentials',
        payload: { uuid: org('norway', 'vy'), organisationTypes: ['RAILWAY_UNDERTAKING'] },
      },
      {
        method: 'POST',
        url: '/api/domain/organisations/organisationtype-with-credentials',
        payload: {
          uuid: org('norway', 'vy'),
          organisationTypes: ['RAILWAY_UNDERTAKING'],
          credentials: { username: 'x' },
        },
      },
    ];
    for (const options of bad) {
      const response = await call(ADMIN, options);
      expect({ url: options.url, status: response.statusCode }).toEqual({ url: options.url, status: 400 });
      expect(response.json().code).toBe('invalid_input');
    }
  });

  it('lists the organisations and market functions of an area the caller works in', async () => {
    const own = await call('consumer', { method: 'GET', url: `/api/domain/organisations/tenant/${NORWAY}` });
    expect(own.statusCode).toBe(200);
    const names = own.json<MinimalEntity[]>().map((o) => o.name);
    expect(names).toContain('Vy Tog AS');
    expect(names).not.toContain('SJ AB');

    // Another area than the current tenant, where the caller also works.
    const sweden = await call('consumer', { method: 'GET', url: `/api/domain/organisations/tenant/${SWEDEN}` });
    expect(sweden.json<MinimalEntity[]>().map((o) => o.name)).toContain('SJ AB');

    const unknownArea = await call(ADMIN, {
      method: 'GET',
      url: '/api/domain/organisations/tenant/00000000-0000-4000-8000-000000000099',
    });
    expect(unknownArea.statusCode).toBe(403);

    const one = await call('consumer', {
      method: 'GET',
      url: `/api/domain/organisations/${org('norway', 'vy')}/marketfunction`,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json<OrganisationMarketFunctions>()).toEqual({
      uuid: org('norway', 'vy'),
      name: 'Vy Tog AS',
      orgId: '984661185',
      marketFunctions: ['consumer'],
    });
    const byOrgId = await call('consumer', {
      method: 'GET',
      url: '/api/domain/organisations/917082308/marketfunction',
    });
    expect(byOrgId.json<OrganisationMarketFunctions>()).toMatchObject({
      name: 'Bane NOR SF',
      marketFunctions: ['settlement-area-responsible'],
    });
    const missing = await call('consumer', { method: 'GET', url: '/api/domain/organisations/nope/marketfunction' });
    expect(missing.statusCode).toBe(404);

    const named = await call('consumer', {
      method: 'GET',
      url: `/api/domain/organisations/tenant/${SWEDEN}/marketfunction?orgName=sj%20ab`,
    });
    expect(named.json<OrganisationMarketFunctions[]>()).toEqual([
      { uuid: org('sweden', 'sj'), name: 'SJ AB', orgId: '5564120869', marketFunctions: ['consumer'] },
    ]);
    const every = await call('consumer', {
      method: 'GET',
      url: `/api/domain/organisations/tenant/${NORWAY}/marketfunction`,
    });
    expect(every.json<OrganisationMarketFunctions[]>().length).toBeGreaterThan(5);
    const exchange = await call(ADMIN, {
      method: 'GET',
      url: `/api/domain/organisations/tenant/${EXCHANGE}/marketfunction`,
    });
    expect(exchange.statusCode).toBe(200);
  });

  it('lists settlement areas no infrastructure manager uses', async () => {
    const url = '/api/domain/organisations/settlementareas-not-used-by-infrastructure-managers';
    const before = await call('consumer', { method: 'GET', url });
    expect(before.statusCode).toBe(200);
    const areas = before.json<MinimalEntity[]>();
    expect(areas.map((a) => a.name)).toEqual(['Norway']);

    // Bane NOR takes the Norway settlement area.
    const current = await call(ADMIN, {
      method: 'GET',
      url: `/api/domain/organisation/id/${org('norway', 'banenor')}`,
    });
    const { uuid, name, orgId, organisationTypes, marketFunctions, emails } = current.json<VersionedEntity>();
    const saved = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        uuid,
        type: 'Organisation',
        name,
        orgId,
        organisationTypes,
        marketFunctions,
        emails,
        settlementAreaRef: areas[0]!.uuid,
      },
    });
    expect(saved.statusCode).toBe(200);
    const after = await call('consumer', { method: 'GET', url });
    expect(after.json()).toEqual([]);
  });

  it('saves organisation types and keeps the other fields', async () => {
    const saved = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/organisations/organisationtype/save',
      payload: { uuid: org('norway', 'cargonet'), organisationTypes: ['RAILWAY_UNDERTAKING', 'BALANCE_SUPPLIER'] },
    });
    expect(saved.statusCode).toBe(200);
    const entity = saved.json<VersionedEntity>();
    expect(entity).toMatchObject({
      name: 'CargoNet AS',
      orgId: '984234341',
      organisationTypes: ['RAILWAY_UNDERTAKING', 'BALANCE_SUPPLIER'],
    });

    const missing = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/organisations/organisationtype/save',
      payload: { uuid: '00000000-0000-4000-8000-00000000abcd', organisationTypes: ['BRANCH'] },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('stores export credentials encrypted and never answers the secret', async () => {
    const secret = 'Sup3r-secret-passw0rd';
    const response = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/organisations/organisationtype-with-credentials',
      payload: {
        uuid: org('norway', 'flytoget'),
        organisationTypes: ['RAILWAY_UNDERTAKING'],
        credentials: { username: 'ftp-flytoget', password: secret },
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(secret);
    expect(response.json()).toMatchObject({
      organisation: { uuid: org('norway', 'flytoget'), organisationTypes: ['RAILWAY_UNDERTAKING'] },
      credentials: { username: 'ftp-flytoget', kind: 'password', updatedBy: ADMIN },
    });

    const { rows } = await t.allAreas.db.execute(sql`SELECT * FROM organisation_credential`);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(await readCredentials(t.allAreas.db, NORWAY, org('norway', 'flytoget'))).toEqual({
      username: 'ftp-flytoget',
      password: secret,
    });
    const read = await call(ADMIN, { method: 'GET', url: `/api/domain/organisation/id/${org('norway', 'flytoget')}` });
    expect(read.body).not.toContain(secret);

    // A key instead of a password replaces the stored credentials.
    const withKey = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/organisations/organisationtype-with-credentials',
      payload: {
        uuid: org('norway', 'flytoget'),
        organisationTypes: ['RAILWAY_UNDERTAKING'],
        credentials: { username: 'sftp-flytoget', privateKey: '-----BEGIN KEY-----abc', passphrase: 'pp-123' },
      },
    });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.body).not.toContain('pp-123');
    expect(withKey.json().credentials).toMatchObject({ kind: 'privateKey', username: 'sftp-flytoget' });
    expect(await readCredentials(t.allAreas.db, NORWAY, org('norway', 'flytoget'))).toEqual({
      username: 'sftp-flytoget',
      privateKey: '-----BEGIN KEY-----abc',
      passphrase: 'pp-123',
    });
  });

  it('takes the uploaded service-account file and refuses one that is not valid JSON', async () => {
    const url = '/api/domain/organisations/organisationtype-with-credentials';
    const base = { uuid: org('norway', 'flytoget'), organisationTypes: ['RAILWAY_UNDERTAKING'] };
    const invalid = await call(ADMIN, {
      method: 'POST',
      url,
      payload: { ...base, serviceAccountFile: '{ "username": ' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'invalid_input',
      errors: [expect.objectContaining({ message: 'The file content is not valid JSON' })],
    });
    const both = await call(ADMIN, {
      method: 'POST',
      url,
      payload: {
        ...base,
        serviceAccountFile: '{"username":"a","password":"b"}',
        credentials: { username: 'a', password: 'b' },
      },
    });
    expect(both.statusCode).toBe(400);

    const file = JSON.stringify({ username: 'svc-flytoget', password: 'from-the-file-1' });
    const stored = await call(ADMIN, { method: 'POST', url, payload: { ...base, serviceAccountFile: file } });
    expect(stored.statusCode).toBe(200);
    expect(stored.body).not.toContain('from-the-file-1');
    expect(await readCredentials(t.allAreas.db, NORWAY, org('norway', 'flytoget'))).toEqual({
      username: 'svc-flytoget',
      password: 'from-the-file-1',
    });
  });
});
