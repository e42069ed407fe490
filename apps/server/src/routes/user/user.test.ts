import { meSchema, settlementAreaSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectBadTokensRejected } from '../../test/access.js';

describe('user calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = async (url: string, username: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.tokenFor(username)}` } });

  for (const url of ['/api/user/me', '/api/user/settlementareas']) {
    it(`${url} rejects bad tokens with 401`, async () => {
      await expectBadTokensRejected(t, { method: 'GET', url, username: 'consumer' });
    });
  }

  it('GET /api/user/me describes the signed-in user with area-scoped functions', async () => {
    const response = await get('/api/user/me', 'keeper-cpadmin');
    expect(response.statusCode).toBe(200);
    const me = meSchema.parse(response.json());
    expect(me).toMatchObject({
      username: 'keeper-cpadmin',
      firstName: 'Kari',
      lastName: 'Keeper',
      displayName: 'Kari Keeper',
    });
    expect(me.marketFunctions).toHaveLength(20);
    expect(me.marketFunctions).toContainEqual({ role: 'vehicle-keeper', areaId: t.areaUuid('exchange') });
  });

  it('GET /api/user/me needs no tenant header', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: {
        authorization: `Bearer ${await t.tokenFor('exchange-operator')}`,
        'current-tenant-id': t.areaUuid('norway'),
      },
    });
    expect(response.statusCode).toBe(200);
  });

  it('GET /api/user/settlementareas lists the areas in which the user holds a function', async () => {
    const list = async (username: string) =>
      z
        .array(settlementAreaSchema)
        .parse((await get('/api/user/settlementareas', username)).json())
        .map((a) => a.name);
    expect(await list('erex-administrator')).toHaveLength(11);
    expect(await list('exchange-operator')).toEqual(['Exchange']);
    expect(await list('settlement-area-responsible')).toContain('Administration');
    expect(await list('train-run-data-provider')).toHaveLength(9);
    expect(await list('nobody')).toEqual([]);
  });

  it('GET /api/user/settlementareas serialises only the contract fields', async () => {
    const [first] = (await get('/api/user/settlementareas', 'consumer')).json();
    expect(Object.keys(first).sort()).toEqual(['name', 'settlementPartner', 'timeZone', 'uuid']);
  });
});
