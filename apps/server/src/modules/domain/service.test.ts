import { MESSAGES } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { areaUuid, seedAreas } from '../../seed/areas.js';
import { openTestDatabase } from '../../test/database.js';
import {
  listEntities,
  listForExport,
  listVersions,
  planEntities,
  saveEntities,
  validateEntities,
  windowOf,
  type Actor,
} from './service.js';
import { serviceContext } from '../../test/context.js';
import { ADMIN_ACTOR, organisationRecord } from '../../test/records.js';

const tenant = areaUuid('finland');
const other = areaUuid('denmark');
const admin = ADMIN_ACTOR;
const organisation = (name: string, orgId: string) => organisationRecord(name, orgId, 'example.fi');

describe('domain service API (used by the Excel import and export)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedAreas(database);
  });
  afterAll(async () => database?.close());

  it('validateEntities reports every bad record with its position and code, without the database', () => {
    const { valid, errors } = validateEntities([
      organisation('Good Oy', '1'),
      { type: 'TractionUnit', evn: '123', owner: 'x' },
      { type: 'Nonsense', name: 'x' },
      { type: 'PriceCategory', name: '' },
      { type: 'ConsumptionPoint', evn: '941000000013', nvr: 'FI', vkm: 'VR', emsId: 'EMS1', channels: 4 },
    ]);
    expect(valid.map((v) => v.index)).toEqual([0, 4]);
    expect(valid[1]!.attributes.cpid).toBe('FI_VR_941000000013_EMS1');
    expect(valid[1]!.name).toBe('941000000013EMS1');
    expect(errors.map((e) => [e.index, e.code])).toEqual([
      [1, 'invalid_input'],
      [1, 'invalid_input'],
      [2, 'invalid_input'],
      [3, 'notblank'],
    ]);
  });

  it('saveEntities stores all or nothing inside the caller transaction', async () => {
    const attempt = database.db.transaction((tx) =>
      saveEntities(tx, tenant, admin, [
        organisation('First Oy', '100'),
        organisation('Second Oy', '101'),
        organisation('first oy', '102'),
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ status: 400, code: 'uniquename', message: MESSAGES.nameNotUnique });
    expect(
      await listEntities(serviceContext(database.db, tenant), 'organisation', {
        window: windowOf(),
        includeInactive: true,
      }),
    ).toEqual([]);

    // A failure after saveEntities (e.g. in another sheet) rolls the saved records back too.
    await expect(
      database.db.transaction(async (tx) => {
        await saveEntities(tx, tenant, admin, [organisation('Third Oy', '103')]);
        throw ApiError.badRequest('invalid_input', 'another sheet failed');
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(
      await listEntities(serviceContext(database.db, tenant), 'organisation', {
        window: windowOf(),
        includeInactive: true,
      }),
    ).toEqual([]);
  });

  it('listForExport gives records that import back without changing anything, segments included', async () => {
    const saved = await database.db.transaction((tx) =>
      saveEntities(tx, tenant, admin, [
        {
          ...organisation('Keeper Oy', '200'),
          timeRange: { start: '2020-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
        },
      ]),
    );
    const uuid = saved[0]!.uuid;
    await database.db.transaction((tx) =>
      saveEntities(tx, tenant, admin, [
        {
          ...organisation('Keeper Oy', '200'),
          uuid,
          emails: 'new@example.fi',
          timeRange: { start: '2024-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
        },
      ]),
    );
    const exported = await listForExport(serviceContext(database.db, tenant), { kinds: ['organisation'] });
    expect(exported).toHaveLength(2);
    expect(exported[0]).toMatchObject({
      uuid,
      type: 'Organisation',
      name: 'Keeper Oy',
      orgId: '200',
      timeRange: { start: '2020-01-01T00:00:00.000Z' },
    });
    const before = await listVersions(serviceContext(database.db, tenant), 'organisation', uuid);
    await database.db.transaction((tx) => saveEntities(tx, tenant, admin, exported));
    expect(await listVersions(serviceContext(database.db, tenant), 'organisation', uuid)).toEqual(before);
  });

  it('refuses writers without the role for the kind', async () => {
    const keeper: Actor = { username: 'vehicle-keeper', roles: ['vehicle-keeper'] };
    await expect(
      database.db.transaction((tx) =>
        saveEntities(tx, tenant, keeper, [{ type: 'VatCategory', name: 'Standard', percentage: 25.5 }]),
      ),
    ).rejects.toMatchObject({ status: 403 });
  });

  // In another area, so the counts of the tests above stay theirs.
  it('planEntities collects the refusals of every stage for every record, by position, and writes nothing', async () => {
    await database.db.transaction((tx) => saveEntities(tx, other, admin, [organisation('Planned Oy', 'P-1')]));
    const plan = await database.db.transaction((tx) =>
      planEntities(tx, other, admin, [
        { type: 'PriceCategory', name: '' }, // the contract: notblank
        organisation('Planned Oy', 'P-2'), // uniqueness: the name is taken
        { type: 'Contract', name: 'C-1', organisationRef: '00000000-0000-4000-8000-00000000abcd' }, // reference
        { type: 'PriceCategory', name: 'Fine' },
      ]),
    );
    expect(plan.errors.map((e) => [e.index, e.code, e.field])).toEqual([
      [0, 'notblank', 'name'],
      [1, 'uniquename', 'name'],
      [2, 'invalid_input', 'organisationRef'],
    ]);
    expect(plan.planned.map((p) => p.record.name)).toEqual(['Fine']);
    const stored = await listEntities(serviceContext(database.db, other), 'pricecategory', {
      window: windowOf(),
      includeInactive: true,
    });
    expect(stored.map((e) => e.name)).not.toContain('Fine');
  });

  it('planEntities leaves records equal to what is stored out of the plan and its checks', async () => {
    const [saved] = await database.db.transaction((tx) =>
      saveEntities(tx, other, admin, [
        {
          type: 'PriceCategory',
          name: 'Unchanged',
          timeRange: { start: '2020-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
          state: 'ACTIVE',
        },
      ]),
    );
    const again = {
      uuid: saved!.uuid,
      type: 'PriceCategory',
      name: 'Unchanged',
      timeRange: { start: '2020-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
      state: 'ACTIVE',
    };
    const plan = await database.db.transaction((tx) => planEntities(tx, other, admin, [again]));
    expect(plan).toMatchObject({ errors: [], planned: [], unchanged: [0] });
  });
});
