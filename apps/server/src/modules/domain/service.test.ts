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
  saveEntities,
  validateEntities,
  windowOf,
  type Actor,
} from './service.js';
import { ADMIN_ACTOR, organisationRecord } from '../../test/records.js';

const tenant = areaUuid('finland');
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
      await listEntities(database.db, tenant, 'organisation', { window: windowOf(), includeInactive: true }),
    ).toEqual([]);

    // A failure after saveEntities (e.g. in another sheet) rolls the saved records back too.
    await expect(
      database.db.transaction(async (tx) => {
        await saveEntities(tx, tenant, admin, [organisation('Third Oy', '103')]);
        throw ApiError.badRequest('invalid_input', 'another sheet failed');
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(
      await listEntities(database.db, tenant, 'organisation', { window: windowOf(), includeInactive: true }),
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
    const exported = await listForExport(database.db, tenant, { kinds: ['organisation'] });
    expect(exported).toHaveLength(2);
    expect(exported[0]).toMatchObject({
      uuid,
      type: 'Organisation',
      name: 'Keeper Oy',
      orgId: '200',
      timeRange: { start: '2020-01-01T00:00:00.000Z' },
    });
    const before = await listVersions(database.db, tenant, 'organisation', uuid);
    await database.db.transaction((tx) => saveEntities(tx, tenant, admin, exported));
    expect(await listVersions(database.db, tenant, 'organisation', uuid)).toEqual(before);
  });

  it('refuses writers without the role for the kind', async () => {
    const keeper: Actor = { username: 'vehicle-keeper', roles: ['vehicle-keeper'] };
    await expect(
      database.db.transaction((tx) =>
        saveEntities(tx, tenant, keeper, [{ type: 'VatCategory', name: 'Standard', percentage: 25.5 }]),
      ),
    ).rejects.toMatchObject({ status: 403 });
  });
});
