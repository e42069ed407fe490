import {
  AREAS_MUST_DIFFER_MESSAGE,
  ENTITY_KINDS,
  FEE_LINE_MESSAGES,
  INFRASTRUCTURE_ENTITY_KINDS,
  INFRASTRUCTURE_WRITERS,
  LOCATION_MESSAGE,
  MESSAGES,
  ROLES,
  SUPPLY_METERING_POINT_NAME_MESSAGE,
  type AreaKind,
  type InfrastructureEntityKind,
  type Role,
  type VersionedEntity,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../../db/tenant.js';
import { sheetLayout } from '../../modules/excel/entity-columns.js';
import { fixtureWorkbook, multipartBody } from '../../modules/excel/fixtures.js';
import { adminOnlyRefusal } from '../../modules/domain/admin-only.js';
import { saveEntities } from '../../modules/domain/service.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ADMIN_ACTOR } from '../../test/records.js';

// The twelve infrastructure kinds and the rules of product.md §5 on them, through POST /domain/save.
const ADMIN = 'erex-administrator';
const RESPONSIBLE = 'settlement-area-responsible';

/** Fixed uuids of the targets this file creates in Norway. */
const ID = {
  gridA: '0c1e0000-0000-4000-8000-000000000001',
  gridB: '0c1e0000-0000-4000-8000-000000000002',
  smpType: '0c1e0000-0000-4000-8000-000000000003',
  fmpType: '0c1e0000-0000-4000-8000-000000000004',
  ppType: '0c1e0000-0000-4000-8000-000000000005',
  system: '0c1e0000-0000-4000-8000-000000000006',
  track: '0c1e0000-0000-4000-8000-000000000007',
  gridFee: '0c1e0000-0000-4000-8000-000000000008',
  energyFee: '0c1e0000-0000-4000-8000-000000000009',
};

/** A valid new record of each infrastructure kind (names unique per test run through `suffix`). */
function recordOf(kind: InfrastructureEntityKind, suffix: string): Record<string, unknown> {
  const base = { type: ENTITY_KINDS[kind], name: `${kind}-${suffix}` };
  switch (kind) {
    case 'supplymeteringpoint':
      return { ...base, supplyMeteringPointTypeRef: ID.smpType, gridAreaRef: ID.gridA, location: '59.9,10.7' };
    case 'fixedmeteringpoint':
      return { ...base, fixedMeteringPointTypeRef: ID.fmpType, gridAreaRef: ID.gridA };
    case 'gridareacrossing':
      return { ...base, fromGridAreaRef: ID.gridA, toGridAreaRef: ID.gridB, location: '60,11' };
    case 'bordercrossing':
      return { ...base, fromAreaRef: ID.gridA, toAreaRef: ID.gridB, location: '59.1,11.4' };
    case 'track':
      return { ...base, tractionSystemRef: ID.system, lengthKm: 12.5, fromLocation: '59,10', toLocation: '60,11' };
    case 'reportedtrainmeteringpoint':
      return { ...base, location: '61,9', trackRef: ID.track };
    case 'payloadpoint':
      return { ...base, payloadPointTypeRef: ID.ppType, location: '61.2,9.1', trackRef: ID.track };
    case 'emstype':
      return { ...base, manufacturer: 'Acme', model: 'EMS-3' };
    default:
      return { ...base, code: 'C1', description: 'A type' };
  }
}

describe('infrastructure entity kinds', () => {
  let t: TestApp;
  const save = (username: string, payload: Record<string, unknown>, area: AreaKind = 'norway') =>
    t.callAs(username, { method: 'POST', url: '/api/domain/save', payload }, area);

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'] });
    const tenant = t.areaUuid('norway');
    const grid = (uuid: string, name: string) => ({ uuid, type: 'GridArea', name });
    await tenantExecutor(t.database, tenant).transaction((tx) =>
      saveEntities(tx, tenant, ADMIN_ACTOR, [
        grid(ID.gridA, 'Grid A'),
        grid(ID.gridB, 'Grid B'),
        { uuid: ID.smpType, type: 'SupplyMeteringPointType', name: 'Substation' },
        { uuid: ID.fmpType, type: 'FixedMeteringPointType', name: 'Workshop' },
        { uuid: ID.ppType, type: 'PayloadPointType', name: 'Weighbridge' },
        { uuid: ID.system, type: 'TractionSystem', name: '15kV 16.7Hz', code: '02' },
        { uuid: ID.track, type: 'Track', name: 'Track 1', tractionSystemRef: ID.system },
        { uuid: ID.gridFee, type: 'GridFeeType', name: 'Grid fee', price: 10 },
        { uuid: ID.energyFee, type: 'EnergyFeeType', name: 'Energy fee', price: 5 },
      ]),
    );
  });
  afterAll(async () => t?.close());

  it.each(INFRASTRUCTURE_ENTITY_KINDS)('the erex-administrator registers a %s and reads it back', async (kind) => {
    const response = await save(ADMIN, recordOf(kind, 'admin'));
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<VersionedEntity>();
    const listed = await t.callAs(ADMIN, { method: 'GET', url: `/api/domain/${kind}/all` });
    expect(listed.json<VersionedEntity[]>().map((e) => e.uuid)).toContain(saved.uuid);
  });

  describe('who writes them (Infrastructure section minus audit roles and consumer)', () => {
    const areaOf = (role: Role): AreaKind => (role === 'exchange-operator' ? 'exchange' : 'norway');
    it.each(ROLES.filter((r) => r !== 'train-run-data-provider'))('%s', async (role) => {
      const response = await save(role, recordOf('consumptiontype', role), areaOf(role));
      expect(response.statusCode, response.body).toBe(INFRASTRUCTURE_WRITERS.includes(role) ? 200 : 403);
    });
  });

  it("refuses a location outside 'lat,lon' with the spec's message", async () => {
    for (const location of ['91,10', '10', 'north']) {
      const response = await save(ADMIN, { ...recordOf('supplymeteringpoint', 'bad'), location });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { code: 'invalid_input', field: 'location', message: `location: ${LOCATION_MESSAGE}` },
      ]);
    }
    const track = await save(ADMIN, { ...recordOf('track', 'bad'), toLocation: '1,200' });
    expect(track.json().errors[0]).toMatchObject({ field: 'toLocation', message: `toLocation: ${LOCATION_MESSAGE}` });
  });

  it('refuses a crossing whose two areas are one', async () => {
    for (const [kind, from, to] of [
      ['gridareacrossing', 'fromGridAreaRef', 'toGridAreaRef'],
      ['bordercrossing', 'fromAreaRef', 'toAreaRef'],
    ] as const) {
      const response = await save(ADMIN, { ...recordOf(kind, 'same'), [from]: ID.gridA, [to]: ID.gridA });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { code: 'invalid_input', field: to, message: `${to}: ${AREAS_MUST_DIFFER_MESSAGE}` },
      ]);
    }
  });

  it('keeps a supply metering point name an identifier, unique in the area', async () => {
    const spaced = await save(ADMIN, { ...recordOf('supplymeteringpoint', 'x'), name: 'Sub station 1' });
    expect(spaced.statusCode).toBe(400);
    expect(spaced.json().errors[0]).toMatchObject({
      field: 'name',
      message: `name: ${SUPPLY_METERING_POINT_NAME_MESSAGE}`,
    });

    expect((await save(ADMIN, { ...recordOf('supplymeteringpoint', 'x'), name: 'NO-SUB-7' })).statusCode).toBe(200);
    const again = await save(ADMIN, { ...recordOf('supplymeteringpoint', 'y'), name: 'no-sub-7' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'uniquename', message: MESSAGES.nameNotUnique });
    // Another area may use the same identifier.
    const elsewhere = await save(ADMIN, { type: 'SupplyMeteringPointType', name: 'Substation' }, 'sweden');
    expect(elsewhere.statusCode).toBe(200);
  });

  it('names each grid fee type and each energy fee type at most once on a contract', async () => {
    const contract = { type: 'Contract', name: 'Supply contract' };
    const twice = await save(ADMIN, { ...contract, gridFeeTypeRefs: [ID.gridFee, ID.gridFee] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors[0]).toMatchObject({
      field: 'gridFeeTypeRefs',
      message: `gridFeeTypeRefs: ${FEE_LINE_MESSAGES.gridFeeTypeRefs}`,
    });
    const energyTwice = await save(ADMIN, { ...contract, energyFeeTypeRefs: [ID.energyFee, ID.energyFee] });
    expect(energyTwice.json().errors[0]).toMatchObject({ field: 'energyFeeTypeRefs' });
    // A grid fee type is not an energy fee type.
    const wrong = await save(ADMIN, { ...contract, energyFeeTypeRefs: [ID.gridFee] });
    expect(wrong.json().errors[0]).toMatchObject({ field: 'energyFeeTypeRefs', message: 'Unknown energy fee type' });
    const ok = await save(ADMIN, { ...contract, gridFeeTypeRefs: [ID.gridFee], energyFeeTypeRefs: [ID.energyFee] });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  describe('for_erex_admin_only fields (product.md §6)', () => {
    const point = { ...recordOf('supplymeteringpoint', 'flag'), name: 'NO-FLAG-1' };

    it('are refused for other roles on a new entity', async () => {
      const response = await save(RESPONSIBLE, { ...point, excludedFromSettlement: true });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(adminOnlyRefusal('excludedFromSettlement'));
    });

    it('are kept when another role re-saves without them, and refused when it changes them', async () => {
      const created = await save(ADMIN, { ...point, excludedFromSettlement: true });
      expect(created.statusCode, created.body).toBe(200);
      const uuid = created.json<VersionedEntity>().uuid;

      const resaved = await save(RESPONSIBLE, { ...point, uuid, description: 'Changed by the responsible' });
      expect(resaved.statusCode, resaved.body).toBe(200);
      expect(resaved.json()).toMatchObject({ description: 'Changed by the responsible', excludedFromSettlement: true });

      // Sending the stored value back unchanged passes (an exported workbook imported again).
      expect((await save(RESPONSIBLE, { ...point, uuid, excludedFromSettlement: true })).statusCode).toBe(200);
      const changed = await save(RESPONSIBLE, { ...point, uuid, excludedFromSettlement: false });
      expect(changed.statusCode).toBe(403);

      const byAdmin = await save(ADMIN, { ...point, uuid, excludedFromSettlement: false });
      expect(byAdmin.json()).toMatchObject({ excludedFromSettlement: false });
    });
  });

  it('gives every kind its own workbook sheet with readable headers', () => {
    const layout = sheetLayout('supplymeteringpoint');
    expect(layout.typeName).toBe('SupplyMeteringPoint');
    expect(layout.labels).toEqual(
      expect.arrayContaining([
        'Name',
        'Supply metering point type',
        'Grid area',
        'Location',
        'Excluded from settlement',
      ]),
    );
    expect(sheetLayout('contract').attributes.find((a) => a.field === 'gridFeeTypeRefs')).toMatchObject({
      kind: 'refList',
      target: 'gridfeetype',
    });
    expect(new Set(INFRASTRUCTURE_ENTITY_KINDS.map((k) => sheetLayout(k).typeName)).size).toBe(12);
  });

  it('exports infrastructure entities with references as names', async () => {
    const response = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/excel/domain/export',
      payload: { type: 'Track' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
  });

  it('imports a workbook of infrastructure sheets with readable headers, references by name', async () => {
    const bytes = await fixtureWorkbook([
      {
        name: 'SupplyMeteringPoint',
        rows: [
          {
            Name: 'NO-IMP-1',
            'Valid from': '01.01.2020',
            'Valid to': '01.01.2070',
            'Supply metering point type': 'Substation',
            'Grid area': 'Grid B',
            Location: '60.1,11',
          },
        ],
      },
      {
        name: 'PayloadPoint',
        rows: [
          {
            Name: 'Weigh 1',
            'Valid from': '01.01.2020',
            'Valid to': '01.01.2070',
            'Payload point type': 'Weighbridge',
            Location: '1,200',
          },
        ],
      },
    ]);
    const upload = async (file: Buffer) => {
      const body = multipartBody([{ fileName: 'infra.xlsx', bytes: file }]);
      return t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/import',
        headers: { ...(await t.headersFor(ADMIN)), ...body.headers },
        payload: body.payload,
      });
    };
    // The bad location of the payload point refuses the whole file, naming the spec's message.
    const refused = await upload(bytes);
    expect(refused.json().success).toBe(false);
    expect(JSON.stringify(refused.json().sheetParseResults)).toContain(LOCATION_MESSAGE.replaceAll('"', '\\"'));

    const good = await fixtureWorkbook([
      {
        name: 'SupplyMeteringPoint',
        rows: [
          {
            Name: 'NO-IMP-1',
            'Valid from': '01.01.2020',
            'Valid to': '01.01.2070',
            'Supply metering point type': 'Substation',
            'Grid area': 'Grid B',
            Location: '60.1,11',
          },
        ],
      },
    ]);
    const accepted = await upload(good);
    expect(accepted.json(), accepted.body).toMatchObject({ success: true });
    const listed = await t.callAs(ADMIN, { method: 'GET', url: '/api/domain/supplymeteringpoint/all' });
    const imported = listed.json<VersionedEntity[]>().find((e) => e.name === 'NO-IMP-1');
    expect(imported).toMatchObject({
      gridAreaRef: ID.gridB,
      supplyMeteringPointTypeRef: ID.smpType,
      location: '60.1,11',
    });
  });
});
