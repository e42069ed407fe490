import type { AreaKind, FleetPage, Segment, StatusChangeResult, VersionedEntity } from '@railwatt/contracts';
import { MESSAGES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUuid } from '../../seed/fleet.js';
import { expectBadTokensRejected } from '../../test/access.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const org = (kind: AreaKind, key: string) => seedUuid(`${kind}:org:${key}`);
const ADMIN = 'erex-administrator';
const SAR = 'settlement-area-responsible';

/** Every call of calls.md §7 "Domain data" we serve, with a body that is valid for it. */
const CALLS: { method: InjectOptions['method']; url: string; payload?: unknown }[] = [
  { method: 'GET', url: '/api/domain/tractionunit/all' },
  { method: 'GET', url: '/api/domain/tractionunittype/minimal/all?includeInactive=true' },
  { method: 'GET', url: `/api/domain/organisation/id/${org('norway', 'vy')}` },
  { method: 'GET', url: `/api/domain/organisation/versions/${org('norway', 'vy')}` },
  { method: 'GET', url: '/api/domain/organisation/like?searchString=vy&maxResult=5' },
  { method: 'POST', url: '/api/domain/fleet?page=0&size=10', payload: {} },
  { method: 'GET', url: '/api/domain/fleet/areas?areaTypes=pricearea' },
  { method: 'POST', url: '/api/domain/query', payload: { typeName: 'TractionUnit', matchers: [] } },
  { method: 'POST', url: '/api/domain/resolve/minimal', payload: { refs: [] } },
  { method: 'POST', url: '/api/domain/tractionunit/minimal/consumption-point-exchange', payload: {} },
  { method: 'POST', url: '/api/domain/tractionunit/filtered-by-types-and-organisations', payload: {} },
  { method: 'POST', url: '/api/domain/tractionunit/resolve/cpid', payload: [] },
  { method: 'GET', url: '/api/domain/tractionunit/minimal/active-consumption-point' },
  { method: 'GET', url: '/api/domain/infrastructure/areatypes' },
  { method: 'GET', url: '/api/domain/infrastructure/options/sa' },
  { method: 'GET', url: '/api/domain/infrastructure/options/eusa' },
  { method: 'GET', url: '/api/domain/infrastructure/settlementareas/minimal' },
  { method: 'GET', url: '/api/domain/settlementarea/id/00000000-0000-4000-8000-000000000001' },
  { method: 'GET', url: '/api/domain/organisation/all' },
  { method: 'GET', url: '/api/domain/organisations?includeInactive=true' },
  { method: 'GET', url: '/api/domain/organisations/areas/minimal' },
  { method: 'GET', url: '/api/domain/organisations/exchangeadmin/all' },
  { method: 'GET', url: '/api/domain/organisations/dcsadmin/all' },
  { method: 'GET', url: '/api/domain/organisations/branch/all' },
  { method: 'GET', url: '/api/domain/organisations/filteredOrganisations?organisationTypes=VEHICLE_KEEPER' },
];

describe('domain calls', () => {
  let t: TestApp;
  const call = (username: string, options: InjectOptions, kind?: AreaKind) => t.callAs(username, options, kind);

  const unit = (evn: string, owner: string, extra: Record<string, unknown> = {}) => ({
    type: 'TractionUnit',
    name: `Unit ${evn}`,
    evn,
    owner,
    description: 'Test unit',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
  });
  afterAll(async () => t?.close());

  it('answers 401 without a valid token on every call', async () => {
    for (const c of CALLS) {
      const response = await t.app.inject({
        method: c.method,
        url: c.url,
        payload: c.payload as InjectOptions['payload'],
      });
      expect({ url: c.url, status: response.statusCode }).toEqual({ url: c.url, status: 401 });
    }
    await expectBadTokensRejected(t, {
      method: 'POST',
      url: '/api/domain/fleet',
      payload: {},
      username: ADMIN,
      tenant: t.areaUuid('norway'),
    });
    await expectBadTokensRejected(t, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {},
      username: ADMIN,
      tenant: t.areaUuid('norway'),
    });
  });

  it('answers 2xx on every call for the administrator', async () => {
    for (const c of CALLS) {
      const response = await call(ADMIN, {
        method: c.method,
        url: c.url,
        payload: c.payload as InjectOptions['payload'],
      });
      expect({
        url: c.url,
        status: response.statusCode,
        body: response.statusCode === 200 ? '' : response.body,
      }).toEqual({
        url: c.url,
        status: 200,
        body: '',
      });
    }
  });

  it('answers 403 to roles outside Fleet, to read-only roles writing and without the tenant header', async () => {
    for (const username of ['train-run-data-provider', 'consumer', 'consumer-provider']) {
      const fleet = await call(username, { method: 'POST', url: '/api/domain/fleet', payload: {} });
      expect({ username, status: fleet.statusCode }).toEqual({ username, status: 403 });
      const units = await call(username, { method: 'GET', url: '/api/domain/tractionunit/all' });
      expect(units.statusCode).toBe(403);
    }
    for (const username of ['audit-settlement-area-responsible', 'audit-erex-settlement-operator', 'consumer']) {
      const save = await call(username, {
        method: 'POST',
        url: '/api/domain/save',
        payload: unit('917600999994', org('norway', 'vy')),
      });
      expect({ username, status: save.statusCode }).toEqual({ username, status: 403 });
      const status = await call(username, {
        method: 'POST',
        url: '/api/domain/status',
        payload: {
          action: 'retire',
          type: 'TractionUnit',
          uuids: [org('norway', 'vy')],
          timeRange: { start: '2025-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
        },
      });
      expect(status.statusCode).toBe(403);
    }
    // The audit roles still read the fleet.
    expect(
      (await call('audit-settlement-area-responsible', { method: 'POST', url: '/api/domain/fleet', payload: {} }))
        .statusCode,
    ).toBe(200);
    const noTenant = await t.app.inject({
      method: 'POST',
      url: '/api/domain/fleet',
      payload: {},
      headers: { authorization: `Bearer ${await t.tokenFor(ADMIN)}` },
    });
    expect(noTenant.statusCode).toBe(403);
    // A vehicle keeper saves only its own organisations' units.
    const foreign = await call('vehicle-keeper', {
      method: 'POST',
      url: '/api/domain/save',
      payload: unit('917600999986', org('norway', 'vy')),
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('answers 400 invalid_input on malformed bodies and notblank on blank required fields', async () => {
    const badMode = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/fleet',
      payload: { searchMode: 'EVERYTHING' },
    });
    expect(badMode.statusCode).toBe(400);
    expect(badMode.json()).toMatchObject({ code: 'invalid_input' });
    const badType = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'Spaceship', name: 'x' },
    });
    expect(badType.json()).toMatchObject({ status: 400, code: 'invalid_input' });
    const badEvn = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: unit('12345', org('norway', 'vy')),
    });
    expect(badEvn.json()).toMatchObject({ status: 400, code: 'invalid_input' });
    const blank = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'PriceCategory', name: '  ' },
    });
    expect(blank.json()).toMatchObject({ status: 400, code: 'notblank' });
    const noEmail = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        type: 'Organisation',
        name: 'No mail AS',
        orgId: '1',
        organisationTypes: ['BRANCH'],
        emails: 'not-an-email',
      },
    });
    expect(noEmail.json()).toMatchObject({ status: 400, code: 'invalid_input' });
    const noTypes = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'Organisation', name: 'No types AS', orgId: '2', organisationTypes: [], emails: 'a@b.no' },
    });
    expect(noTypes.statusCode).toBe(400);
    const cps = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/tractionunit/save',
      payload: {
        tractionUnit: unit('917600999978', org('norway', 'vy')),
        consumptionPoints: [{ nvr: 'NO', vkm: 'NSB', emsId: 'EMS1', channels: 100 }],
      },
    });
    expect(cps.statusCode).toBe(400);
  });

  it('answers 400 invalid_input on every call given a malformed request', async () => {
    const bad: { method: InjectOptions['method']; url: string; payload?: unknown }[] = [
      { method: 'GET', url: '/api/domain/spaceship/all' },
      { method: 'GET', url: '/api/domain/tractionunittype/minimal/all?start=yesterday' },
      { method: 'GET', url: '/api/domain/organisation/id/not-a-uuid' },
      { method: 'GET', url: '/api/domain/organisation/versions/not-a-uuid' },
      { method: 'GET', url: '/api/domain/organisation/like?maxResult=0' },
      { method: 'POST', url: '/api/domain/fleet?size=0', payload: {} },
      { method: 'GET', url: '/api/domain/fleet/areas?end=soon' },
      { method: 'POST', url: '/api/domain/query', payload: { matchers: [] } },
      { method: 'POST', url: '/api/domain/resolve/minimal', payload: { refs: 'all' } },
      {
        method: 'POST',
        url: '/api/domain/tractionunit/minimal/consumption-point-exchange',
        payload: { organisations: ['x'] },
      },
      {
        method: 'POST',
        url: '/api/domain/tractionunit/filtered-by-types-and-organisations',
        payload: { tractionUnitTypes: ['x'] },
      },
      { method: 'POST', url: '/api/domain/tractionunit/resolve/cpid', payload: { identifiers: [] } },
      { method: 'POST', url: '/api/domain/tractionunit/save', payload: { consumptionPoints: [] } },
      { method: 'POST', url: '/api/domain/save', payload: { name: 'no type' } },
      {
        method: 'POST',
        url: '/api/domain/status',
        payload: { action: 'explode', type: 'TractionUnit', uuids: [], timeRange: {} },
      },
      { method: 'GET', url: '/api/domain/infrastructure/options/eusa?start=x' },
      { method: 'GET', url: '/api/domain/settlementarea/id/norway' },
      { method: 'GET', url: '/api/domain/organisations?includeInactive=maybe' },
      { method: 'GET', url: '/api/domain/organisations/areas/minimal?start=x' },
      { method: 'GET', url: '/api/domain/organisations/spaceagency/all' },
      { method: 'GET', url: '/api/domain/organisations/branch/all?end=x' },
      { method: 'GET', url: '/api/domain/organisations/filteredOrganisations?organisationTypes=PIRATE' },
    ];
    for (const c of bad) {
      const response = await call(ADMIN, {
        method: c.method,
        url: c.url,
        payload: c.payload as InjectOptions['payload'],
      });
      expect({ url: c.url, status: response.statusCode, code: response.json().code }).toEqual({
        url: c.url,
        status: 400,
        code: 'invalid_input',
      });
    }
  });

  it('saves with a dotted type and refuses a second entity of the same name with the verbatim message', async () => {
    const first = await call(SAR, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'com.railwatt.domain.PriceCategory', name: 'Shoulder', description: 'Weekdays' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      type: 'PriceCategory',
      name: 'Shoulder',
      description: 'Weekdays',
      state: 'ACTIVE',
      active: true,
    });
    const second = await call(SAR, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'pricecategory', name: 'shoulder' },
    });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ code: 'uniquename', message: MESSAGES.nameNotUnique });
    // The same name in another tenant is fine: tenants never see each other's data.
    const elsewhere = await call(
      SAR,
      { method: 'POST', url: '/api/domain/save', payload: { type: 'PriceCategory', name: 'Shoulder' } },
      'sweden',
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('refuses a duplicate EVN, a changed EVN, a duplicate orgId and a changed type', async () => {
    const existing = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/all' })).json<
      VersionedEntity[]
    >()[0]!;
    const dup = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: unit(String(existing.evn), org('norway', 'vy')),
    });
    expect(dup.json()).toMatchObject({ status: 400, code: 'uniqueproperties' });
    const changed = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { ...unit('917600999960', String(existing.owner)), uuid: existing.uuid, name: existing.name },
    });
    expect(changed.json()).toMatchObject({ status: 400, code: 'immutableproperty' });
    const asType = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'PriceCategory', uuid: existing.uuid, name: 'Sneaky' },
    });
    expect(asType.json()).toMatchObject({ status: 400, code: 'immutableproperty' });
    const orgDup = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        type: 'Organisation',
        name: 'Copy of Vy',
        orgId: '984661185',
        organisationTypes: ['RAILWAY_UNDERTAKING'],
        emails: 'a@b.no; c@d.no',
      },
    });
    expect(orgDup.json()).toMatchObject({ status: 400, code: 'uniqueorgid' });
  });

  it('registers a unit with its type and consumption points, changes its owner from a date and keeps the history', async () => {
    const saved = await call('vehicle-keeper', {
      method: 'POST',
      url: '/api/domain/tractionunit/save',
      payload: {
        tractionUnit: unit('917600123454', org('norway', 'norsketog'), {
          timeRange: { start: '2020-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
        }),
        tractionUnitType: {
          name: 'El 19 test',
          maxSpeed: 160,
          maxPower: 4.2,
          motorTypeRef: seedUuid('norway:motor:electric'),
        },
        consumptionPoints: [{ nvr: 'NO', vkm: 'NT', emsId: 'EMS1', channels: 4, emsType: 'EN50463' }],
      },
    });
    expect(saved.statusCode).toBe(200);
    const entity = saved.json<VersionedEntity>();
    expect(entity).toMatchObject({
      evn: '917600123454',
      owner: org('norway', 'norsketog'),
      createdBy: 'vehicle-keeper',
    });
    expect(entity.consumptionPointRefs).toHaveLength(1);
    const cpid = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/tractionunit/resolve/cpid',
      payload: ['917600123454'],
    });
    expect(cpid.json()).toEqual([
      expect.objectContaining({ cpid: 'NO_NT_917600123454_EMS1', tractionUnitUuid: entity.uuid }),
    ]);

    // Change of owner from 2024-06-01 (an administrator: the new owner is not the keeper's).
    const change = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        ...unit('917600123454', org('norway', 'vy')),
        uuid: entity.uuid,
        name: entity.name,
        tractionUnitTypeRef: entity.tractionUnitTypeRef,
        consumptionPointRefs: entity.consumptionPointRefs,
        timeRange: { start: '2024-06-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      },
    });
    expect(change.statusCode).toBe(200);
    const versions = (
      await call(ADMIN, { method: 'GET', url: `/api/domain/tractionunit/versions/${entity.uuid}` })
    ).json<Segment[]>();
    const current = versions.filter((v) => !v.supersededAt);
    const history = versions.filter((v) => v.supersededAt);
    expect(current.map((v) => [v.timeRange.start, v.attributes.owner])).toEqual([
      ['2020-01-01T00:00:00.000Z', org('norway', 'norsketog')],
      ['2024-06-01T00:00:00.000Z', org('norway', 'vy')],
    ]);
    expect(history).toHaveLength(1);
    expect(history[0]!.timeRange).toEqual({ start: '2020-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' });

    // The segment nearest refTime is merged onto the entity.
    const before = await call(ADMIN, {
      method: 'GET',
      url: `/api/domain/tractionunit/id/${entity.uuid}?refTime=2022-01-01T00:00:00Z`,
    });
    expect(before.json()).toMatchObject({
      owner: org('norway', 'norsketog'),
      timeRange: { start: '2020-01-01T00:00:00.000Z' },
    });
    const after = await call(ADMIN, {
      method: 'GET',
      url: `/api/domain/tractionunit/id/${entity.uuid}?refTime=2025-01-01T00:00:00Z`,
    });
    expect(after.json()).toMatchObject({ owner: org('norway', 'vy') });
    const nearest = await call(ADMIN, {
      method: 'GET',
      url: `/api/domain/tractionunit/id/${entity.uuid}?refTime=1990-01-01T00:00:00Z`,
    });
    expect(nearest.json()).toMatchObject({ owner: org('norway', 'norsketog') });

    // The fleet overview shows the latest segment; the keeper's own units no longer include it.
    const fleet = (
      await call(ADMIN, { method: 'POST', url: '/api/domain/fleet', payload: { evn: '917600123454' } })
    ).json<FleetPage>();
    expect(fleet).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 10 });
    expect(fleet.content[0]).toMatchObject({
      responsible: 'Vy Tog AS',
      type: 'El 19 test',
      segmentCount: 2,
      emsId: 'EMS1',
      vkm: 'NT',
      nvr: 'NO',
    });
  });

  it('lets the database itself refuse overlapping current segments of one entity', async () => {
    const [seg] = (
      await t.allAreas.db.execute(
        sql`SELECT entity_uuid, tenant, type FROM entity_segment WHERE type = 'tractionunit' AND superseded_at IS NULL LIMIT 1`,
      )
    ).rows as { entity_uuid: string; tenant: string; type: string }[];
    await expect(
      t.allAreas.db.execute(sql`INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, last_modified_by)
        VALUES (${seg!.entity_uuid}, ${seg!.tenant}, ${seg!.type}, tstzrange('2023-01-01', '2023-02-01'), 'overlap', 'test')`),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23P01' }) });
  });

  it('pages and filters the fleet by search mode, and the vehicle keeper sees only its own units as writable', async () => {
    const all = (
      await call(ADMIN, { method: 'POST', url: '/api/domain/fleet?page=1&size=7', payload: { sortBy: 'responsible' } })
    ).json<FleetPage>();
    expect(all.content).toHaveLength(7);
    expect(all.number).toBe(1);
    expect(all.totalElements).toBeGreaterThanOrEqual(40);
    expect(all.content.every((e) => !e.writable)).toBe(true);
    const own = (
      await call('vehicle-keeper', {
        method: 'POST',
        url: '/api/domain/fleet?size=100',
        payload: { searchMode: 'OWN_READ_WRITE' },
      })
    ).json<FleetPage>();
    expect(own.totalElements).toBeGreaterThan(0);
    expect(own.content.every((e) => e.ownerRef === org('norway', 'norsketog') && e.writable)).toBe(true);
    const ownRo = (
      await call('vehicle-keeper', {
        method: 'POST',
        url: '/api/domain/fleet?size=100',
        payload: { searchMode: 'OWN_READ_ONLY' },
      })
    ).json<FleetPage>();
    expect(ownRo.totalElements).toBe(own.totalElements);
    expect(ownRo.content.every((e) => !e.writable)).toBe(true);
    const byVkm = (
      await call(ADMIN, { method: 'POST', url: '/api/domain/fleet', payload: { vkm: 'nt', sortBy: 'vkm' } })
    ).json<FleetPage>();
    expect(byVkm.content.every((e) => e.consumptionPoints.some((c) => c.cpid.includes('_NT_')))).toBe(true);
  });

  it('gives area-wide roles the whole area as their own data, writable only for writers', async () => {
    const all = (
      await call(ADMIN, { method: 'POST', url: '/api/domain/fleet?size=1', payload: { searchMode: 'ALL_READ_ONLY' } })
    ).json<FleetPage>();
    const responsible = (
      await call('settlement-area-responsible', {
        method: 'POST',
        url: '/api/domain/fleet?size=100',
        payload: { searchMode: 'OWN_READ_WRITE' },
      })
    ).json<FleetPage>();
    expect(responsible.totalElements).toBe(all.totalElements);
    expect(responsible.content.every((e) => e.writable)).toBe(true);
    const audit = (
      await call('audit-settlement-area-responsible', {
        method: 'POST',
        url: '/api/domain/fleet?size=100',
        payload: { searchMode: 'OWN_READ_WRITE' },
      })
    ).json<FleetPage>();
    expect(audit.totalElements).toBe(all.totalElements);
    expect(audit.content.every((e) => !e.writable)).toBe(true);
  });

  it('refuses a traction unit connected to another exchange admin with the spec message', async () => {
    // keeper-cpadmin belongs to Norske tog (exchange admin A); Railcare Norge is connected to exchange admin B.
    const response = await call('keeper-cpadmin', {
      method: 'POST',
      url: '/api/domain/tractionunit/save',
      payload: { tractionUnit: unit('917600555556', org('norway', 'railcare')), consumptionPoints: [] },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: MESSAGES.notAllowedOtherExchangeAdmin });
    const ok = await call('keeper-cpadmin', {
      method: 'POST',
      url: '/api/domain/tractionunit/save',
      payload: { tractionUnit: unit('917600555564', org('norway', 'vy')), consumptionPoints: [] },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('keeps tenants apart', async () => {
    const units = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/minimal/all' }, 'sweden')).json<
      { uuid: string; name: string }[]
    >();
    const norwegian = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/minimal/all' })).json<
      { uuid: string }[]
    >();
    const swedish = new Set(units.map((u) => u.uuid));
    expect(norwegian.some((u) => swedish.has(u.uuid))).toBe(false);
    const probe = norwegian[0]!.uuid;
    expect(
      (await call(ADMIN, { method: 'GET', url: `/api/domain/tractionunit/id/${probe}` }, 'sweden')).statusCode,
    ).toBe(404);
    expect(
      (await call(ADMIN, { method: 'GET', url: `/api/domain/tractionunit/versions/${probe}` }, 'sweden')).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          ADMIN,
          {
            method: 'POST',
            url: '/api/domain/resolve/minimal',
            payload: { refs: [{ uuid: probe, type: 'TractionUnit' }] },
          },
          'sweden',
        )
      ).json(),
    ).toEqual([]);
    const takeover = await call(
      ADMIN,
      { method: 'POST', url: '/api/domain/save', payload: { type: 'PriceCategory', uuid: probe, name: 'Takeover' } },
      'sweden',
    );
    expect(takeover.statusCode).toBe(400);
    const fleet = (
      await call(ADMIN, { method: 'POST', url: '/api/domain/fleet?size=1000', payload: {} }, 'sweden')
    ).json<FleetPage>();
    expect(fleet.content.some((e) => e.uuid === probe)).toBe(false);
  });

  it('changes status for every selected entity and reports partial failures per item', async () => {
    const units = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/minimal/all' }, 'denmark')).json<
      { uuid: string }[]
    >();
    const range = { start: '2025-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' };
    const ok = await call(
      SAR,
      {
        method: 'POST',
        url: '/api/domain/status',
        payload: {
          action: 'retire',
          type: 'TractionUnit',
          uuids: [units[0]!.uuid, units[1]!.uuid],
          timeRange: range,
          comment: 'Scrapped',
        },
      },
      'denmark',
    );
    const result = ok.json<StatusChangeResult>();
    expect(result.success).toBe(true);
    expect(result.items.map((i) => i.status)).toEqual(['RETIRED', 'RETIRED']);
    const retired = (
      await call(
        ADMIN,
        { method: 'GET', url: `/api/domain/tractionunit/id/${units[0]!.uuid}?refTime=2026-01-01T00:00:00Z` },
        'denmark',
      )
    ).json<VersionedEntity>();
    expect(retired).toMatchObject({ state: 'RETIRED', active: false, comments: 'Scrapped' });
    expect(retired.segments.length).toBeGreaterThanOrEqual(2);

    const unknown = '00000000-0000-4000-8000-00000000beef';
    const partly = (
      await call(
        SAR,
        {
          method: 'POST',
          url: '/api/domain/status',
          payload: { action: 'setinactive', type: 'TractionUnit', uuids: [units[2]!.uuid, unknown], timeRange: range },
        },
        'denmark',
      )
    ).json<StatusChangeResult>();
    expect(partly.success).toBe(false);
    expect(partly.items[0]).toMatchObject({ status: 'INACTIVE' });
    expect(partly.items[0]!.error).toBeUndefined();
    expect(partly.items[1]).toMatchObject({
      uuid: unknown,
      error: 'Entity not found',
      validFrom: range.start,
      validTo: range.end,
    });

    // Only the erex-administrator approves traction unit types.
    const type = seedUuid('denmark:type:ME');
    const refused = (
      await call(
        SAR,
        {
          method: 'POST',
          url: '/api/domain/status',
          payload: { action: 'approve', type: 'TractionUnitType', uuids: [type], timeRange: range },
        },
        'denmark',
      )
    ).json<StatusChangeResult>();
    expect(refused.items[0]!.error).toBeTruthy();
    const approved = (
      await call(
        ADMIN,
        {
          method: 'POST',
          url: '/api/domain/status',
          payload: { action: 'approve', type: 'TractionUnitType', uuids: [type], timeRange: range },
        },
        'denmark',
      )
    ).json<StatusChangeResult>();
    expect(approved).toMatchObject({ success: true, items: [{ status: 'APPROVED_FOR_BILLING' }] });
  });

  it('checks nooverlap and within for areas', async () => {
    const square = (x0: number, y0: number, x1: number, y1: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    });
    const overlap = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'PriceArea', name: 'NO9', geometry: square(9, 60, 11, 61) },
    });
    expect(overlap.json()).toMatchObject({ status: 400, code: 'nooverlap' });
    const same = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'SurveillanceArea', name: 'S1', geometry: square(0, 0, 1, 1) },
    });
    expect(same.statusCode).toBe(200);
    const twin = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'SurveillanceArea', name: 'S2', geometry: square(0, 0, 1, 1) },
    });
    expect(twin.json()).toMatchObject({ code: 'nooverlap' });
    const neighbour = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'SurveillanceArea', name: 'S3', geometry: square(1, 0, 2, 1) },
    });
    expect(neighbour.statusCode).toBe(200);
    const eusa = seedUuid('norway:eusa:NO1');
    const outside = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        type: 'GridArea',
        name: 'Stray grid',
        energyUseSettlementAreaRef: eusa,
        geometry: square(20, 60, 21, 61),
      },
    });
    expect(outside.json()).toMatchObject({ status: 400, code: 'within' });
    const areas = (
      await call(ADMIN, { method: 'GET', url: '/api/domain/fleet/areas?areaTypes=pricearea,gridarea' })
    ).json<{ type: string }[]>();
    expect(areas.filter((a) => a.type === 'PriceArea')).toHaveLength(5);
  });

  it('refuses an area whose ring crosses itself, naming the area and the crossing edges', async () => {
    const bowTie = {
      type: 'Polygon',
      coordinates: [
        [
          [30, 30],
          [32, 32],
          [32, 30],
          [30, 32],
          [30, 30],
        ],
      ],
    };
    const res = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'SurveillanceArea', name: 'Bow tie', geometry: bowTie },
    });
    expect(res.statusCode).toBe(400);
    const message =
      'geometry: Area Bow tie: ring 1 crosses itself: the edge from position 1 to 2 crosses the edge from position 3 to 4';
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'invalid_input',
      errors: [{ code: 'invalid_input', field: 'geometry', message }],
    });
    // An open ring is refused the same way, not with the schema's issue deep in the coordinates.
    const open = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        type: 'SurveillanceArea',
        name: 'Open',
        geometry: { ...bowTie, coordinates: [bowTie.coordinates[0]!.slice(0, 4)] },
      },
    });
    expect(open.json()).toMatchObject({
      code: 'invalid_input',
      errors: [{ field: 'geometry', message: expect.stringMatching(/^geometry: Area Open: ring 1 is not closed/) }],
    });
  });

  it('serves the option and organisation calls the forms need', async () => {
    const admins = (await call(ADMIN, { method: 'GET', url: '/api/domain/organisations/exchangeadmin/all' })).json<
      { name: string }[]
    >();
    expect(admins.map((a) => a.name)).toHaveLength(2);
    const keepers = (
      await call(ADMIN, {
        method: 'GET',
        url: '/api/domain/organisations/filteredOrganisations?organisationTypes=VEHICLE_KEEPER&searchString=norske',
      })
    ).json<{ name: string }[]>();
    expect(keepers.map((k) => k.name)).toEqual(['Norske tog AS']);
    const like = (
      await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunittype/like?searchString=type%207' })
    ).json<{ name: string }[]>();
    expect(like.map((l) => l.name)).toEqual(['Type 74', 'Type 75']);
    const sa = (await call(ADMIN, { method: 'GET', url: '/api/domain/infrastructure/options/sa' })).json<
      { name: string }[]
    >();
    expect(sa.map((a) => a.name)).toContain('norway');
    const query = (
      await call(ADMIN, {
        method: 'POST',
        url: '/api/domain/query',
        payload: {
          typeName: 'com.x.TractionUnit',
          matchers: [{ propertyName: 'owner', propertyValues: [org('norway', 'norsketog')], propertyType: 'RELATION' }],
        },
      })
    ).json<VersionedEntity[]>();
    expect(query.length).toBeGreaterThan(0);
    expect(query.every((u) => u.segments.some((s) => s.attributes.owner === org('norway', 'norsketog')))).toBe(true);
  });
});
