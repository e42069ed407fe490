import {
  dayStartInZone,
  FLEET_FIELD_MESSAGES,
  type FleetPage,
  type Segment,
  type StatusChangeResult,
  type VersionedEntity,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUuid } from '../../seed/fleet.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';
const KEEPER = 'vehicle-keeper';
const org = (key: string) => seedUuid(`norway:org:${key}`);
const OSLO = 'Europe/Oslo';

/**
 * Issue 6: the fleet defects seen in the browser, in Norway (Europe/Oslo, not UTC): an empty "Valid
 * to" in set status, the EVN check digit and the VKM case, a duplicate EVN, and a vehicle keeper's
 * owner choices.
 */
describe('fleet input in a non-UTC area', () => {
  let t: TestApp;
  const call = (username: string, options: Parameters<TestApp['callAs']>[1]) => t.callAs(username, options, 'norway');

  const saveUnit = (username: string, evn: string, owner: string, vkm = 'NT') =>
    call(username, {
      method: 'POST',
      url: '/api/domain/tractionunit/save',
      payload: {
        tractionUnit: { type: 'TractionUnit', name: `Unit ${evn}`, evn, owner },
        consumptionPoints: [
          { type: 'ConsumptionPoint', nvr: 'NO', vkm, emsId: 'EMS1', channels: 2, energyTypes: ['ACTIVE_CONSUMED'] },
        ],
      },
    });

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'] });
  });
  afterAll(async () => t?.close());

  it('sets a unit inactive for good when "Valid to" is empty: no ACTIVE piece is left at the end of time', async () => {
    const unit = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/all' })).json<
      VersionedEntity[]
    >()[0]!;
    // The form's day, 1 March 2025, starts at midnight in Oslo; no end is sent.
    const start = dayStartInZone('2025-03-01', OSLO);
    expect(start).toBe('2025-02-28T23:00:00Z');
    const result = (
      await call(ADMIN, {
        method: 'POST',
        url: '/api/domain/status',
        payload: { action: 'setinactive', type: 'TractionUnit', uuids: [unit.uuid], timeRange: { start } },
      })
    ).json<StatusChangeResult>();
    expect(result).toMatchObject({ success: true, items: [{ status: 'INACTIVE', validTo: '2070-01-01T00:00:00Z' }] });

    const versions = (await call(ADMIN, { method: 'GET', url: `/api/domain/tractionunit/versions/${unit.uuid}` })).json<
      Segment[]
    >();
    const current = versions.filter((v) => !v.supersededAt);
    const after = current.filter((v) => Date.parse(v.timeRange.end) > Date.parse(start));
    expect(after.length).toBeGreaterThan(0);
    expect(after.map((v) => v.state)).toEqual(after.map(() => 'INACTIVE'));
    expect(after.at(-1)!.timeRange.end).toBe('2070-01-01T00:00:00.000Z');
    // The day before still holds the old state: the change starts at Oslo midnight, not UTC midnight.
    const before = current.find((v) => v.timeRange.end === '2025-02-28T23:00:00.000Z');
    expect(before?.state).not.toBe('INACTIVE');

    const overview = (
      await call(ADMIN, {
        method: 'POST',
        url: '/api/domain/fleet',
        payload: { searchMode: 'ALL_READ_ONLY', evn: String(unit.evn) },
      })
    ).json<FleetPage>();
    expect(overview.content.find((e) => e.uuid === unit.uuid)).toMatchObject({ status: 'INACTIVE', active: false });

    // An end before the start is still a 400 naming the end, never a 500.
    const backwards = await call(ADMIN, {
      method: 'POST',
      url: '/api/domain/status',
      payload: {
        action: 'setactive',
        type: 'TractionUnit',
        uuids: [unit.uuid],
        timeRange: { start, end: '2025-01-01T00:00:00Z' },
      },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({
      code: 'invalid_input',
      errors: [{ field: expect.stringContaining('end') }],
    });
  });

  it('refuses an EVN with a wrong UIC check digit and a lower-case VKM with the spec messages (400, field named)', async () => {
    const wrongDigit = await saveUnit(ADMIN, '917600777773', org('vy'));
    expect(wrongDigit.statusCode).toBe(400);
    // Once, for the unit: the consumption point's copy of the EVN does not repeat it.
    expect(wrongDigit.json()).toMatchObject({
      status: 400,
      code: 'invalid_input',
      errors: [{ field: 'evn', message: `evn: ${FLEET_FIELD_MESSAGES.evnCheckDigit}` }],
    });
    expect(wrongDigit.json<{ errors: unknown[] }>().errors).toHaveLength(1);

    const lowerVkm = await saveUnit(ADMIN, '917600777770', org('vy'), 'nt');
    expect(lowerVkm.statusCode).toBe(400);
    expect(lowerVkm.json()).toMatchObject({
      status: 400,
      errors: [{ field: 'vkm', message: `vkm: ${FLEET_FIELD_MESSAGES.vkmFormat}` }],
    });

    const fine = await saveUnit(ADMIN, '917600777770', org('vy'));
    expect(fine.statusCode).toBe(200);
  });

  it('answers a duplicate EVN with one uniqueproperties error on the EVN field', async () => {
    const existing = (await call(ADMIN, { method: 'GET', url: '/api/domain/tractionunit/all' })).json<
      VersionedEntity[]
    >()[1]!;
    const dup = await saveUnit(ADMIN, String(existing.evn), org('vy'), 'ZZZ');
    expect(dup.statusCode).toBe(400);
    // Not also the point's name and CPID, which are built from the same EVN.
    expect(dup.json()).toMatchObject({
      status: 400,
      code: 'uniqueproperties',
      message: 'evn: Property must be unique',
      errors: [{ code: 'uniqueproperties', field: 'evn' }],
    });
    expect(dup.json<{ errors: unknown[] }>().errors).toHaveLength(1);
  });

  it('offers a vehicle keeper only its own organisations as owners, and every role else all of them', async () => {
    const names = async (username: string, query: string) =>
      (await call(username, { method: 'GET', url: `/api/domain/organisations?includeInactive=true${query}` }))
        .json<VersionedEntity[]>()
        .map((o) => o.uuid)
        .sort();
    const all = await names(ADMIN, '');
    expect(all).toContain(org('vy'));
    expect(all).toContain(org('norsketog'));
    expect(await names(KEEPER, '&ownerChoices=true')).toEqual([org('norsketog')]);
    expect(await names(KEEPER, '')).toEqual(all);
    expect(await names(ADMIN, '&ownerChoices=true')).toEqual(all);

    const refused = await call(KEEPER, { method: 'GET', url: '/api/domain/organisations?ownerChoices=maybe' });
    expect(refused.json()).toMatchObject({ status: 400, code: 'invalid_input' });

    // What the choices offer is what the save allows: another organisation's unit is refused.
    const other = await saveUnit(KEEPER, '917600777788', org('vy'));
    expect(other.statusCode).toBeGreaterThanOrEqual(400);
    const own = await saveUnit(KEEPER, '917600777788', org('norsketog'));
    expect(own.statusCode).toBe(200);
  });
});
