import {
  ENTITY_KINDS,
  ENTITY_REFERENCES,
  unknownReferenceMessage,
  type EntityKind,
  type FleetPage,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../../db/tenant.js';
import { saveEntities } from '../../modules/domain/service.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';
const admin = { username: ADMIN, roles: ['erex-administrator' as const] };

/** Targets that the demo fleet does not hold: created once per area for this test. */
const EXTRA_TARGETS: Partial<Record<EntityKind, Record<string, unknown>>> = {
  trainprofile: { description: 'Profile' },
  pricecategory: { description: 'Peak' },
  trafficcategorytype: { description: 'Passenger' },
  exportlimitation: { description: 'Limit', blockedReceivers: [], exportAllowed: false },
  supplymeteringpointtype: {},
  fixedmeteringpointtype: {},
  payloadpointtype: {},
  gridfeetype: {},
  energyfeetype: {},
};

const TRACTION_SYSTEM = {
  norway: '0c1e0000-0000-4000-8000-0000000000a1',
  finland: '0c1e0000-0000-4000-8000-0000000000a2',
} as const;

describe('references resolve in the same area (issue 6 §2)', () => {
  let t: TestApp;
  /** area -> kind -> the uuid of one entity of that kind. */
  const targets: Record<'norway' | 'finland', Partial<Record<EntityKind, string>>> = { norway: {}, finland: {} };

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
    for (const area of ['norway', 'finland'] as const) {
      const tenant = t.areaUuid(area);
      const ex = tenantExecutor(t.database, tenant);
      await ex.transaction((tx) =>
        saveEntities(tx, tenant, admin, [
          ...Object.entries(EXTRA_TARGETS).map(([kind, attributes]) => ({
            type: ENTITY_KINDS[kind as EntityKind],
            name: `${kind} ${area}`,
            ...attributes,
          })),
          // A track needs the area's traction system (saved in the same batch).
          { uuid: TRACTION_SYSTEM[area], type: 'TractionSystem', name: `System ${area}`, code: '02' },
          { type: 'Track', name: `Track ${area}`, tractionSystemRef: TRACTION_SYSTEM[area] },
        ]),
      );
      const found = (
        await ex.execute(sql`SELECT DISTINCT ON (type) type, uuid::text AS uuid FROM entity ORDER BY type, uuid`)
      ).rows as { type: EntityKind; uuid: string }[];
      for (const f of found) targets[area][f.type] = f.uuid;
    }
  });
  afterAll(async () => t?.close());

  const target = (area: 'norway' | 'finland', kind: EntityKind): string => {
    const uuid = targets[area][kind];
    if (!uuid) throw new Error(`no ${kind} in ${area}`);
    return uuid;
  };

  /** A new entity of `kind` in Norway whose required references name Norwegian entities. */
  const baseRecord = (kind: EntityKind): Record<string, unknown> => {
    const local = (k: EntityKind) => target('norway', k);
    switch (kind) {
      case 'tractionunit':
        return { type: 'TractionUnit', name: 'Ref unit', evn: '917600999911', owner: local('organisation') };
      case 'tractionunittype':
        return { type: 'TractionUnitType', name: 'Ref type' };
      case 'consumptionpoint':
        return { type: 'ConsumptionPoint', evn: '917600999911', nvr: 'NO', vkm: 'NSB', emsId: 'EMS9', channels: 4 };
      case 'exportlimitation':
        return { type: 'ExportLimitation', name: 'Ref limitation' };
      case 'organisation':
        return {
          type: 'Organisation',
          name: 'Ref AS',
          orgId: 'REF-1',
          organisationTypes: ['VEHICLE_KEEPER'],
          emails: 'ref@example.no',
        };
      case 'trafficcategory':
        return { type: 'TrafficCategory', name: 'Ref traffic' };
      case 'pricecategorytimeinterval':
        return {
          type: 'PriceCategoryTimeInterval',
          name: 'Ref interval',
          priceCategoryRef: local('pricecategory'),
          fromTime: '06:00',
          toTime: '09:00',
        };
      case 'contract':
        return { type: 'Contract', name: 'Ref contract' };
      case 'gridarea':
        return { type: 'GridArea', name: 'Ref grid area' };
      case 'taxcategory':
        return { type: 'TaxCategory', name: 'Ref tax', rate: 1 };
      case 'gridfeetype':
        return { type: 'GridFeeType', name: 'Ref grid fee', price: 1, currency: 'NOK' };
      case 'energyfeetype':
        return { type: 'EnergyFeeType', name: 'Ref energy fee', price: 1, currency: 'NOK' };
      // The infrastructure kinds: required references name Norwegian entities, two areas differ.
      case 'supplymeteringpoint':
        return {
          type: 'SupplyMeteringPoint',
          name: 'REF-SMP',
          supplyMeteringPointTypeRef: local('supplymeteringpointtype'),
          gridAreaRef: local('gridarea'),
        };
      case 'fixedmeteringpoint':
        return {
          type: 'FixedMeteringPoint',
          name: 'Ref fixed',
          fixedMeteringPointTypeRef: local('fixedmeteringpointtype'),
          gridAreaRef: local('gridarea'),
        };
      case 'gridareacrossing':
        return {
          type: 'GridAreaCrossing',
          name: 'Ref gac',
          fromGridAreaRef: local('gridarea'),
          toGridAreaRef: local('gridarea'),
        };
      case 'bordercrossing':
        return {
          type: 'BorderCrossing',
          name: 'Ref border',
          fromAreaRef: local('gridarea'),
          toAreaRef: local('pricearea'),
          location: '59,11',
        };
      case 'track':
        return { type: 'Track', name: 'Ref track', tractionSystemRef: local('tractionsystem') };
      case 'reportedtrainmeteringpoint':
        return { type: 'ReportedTrainMeteringPoint', name: 'Ref rtmp', location: '60,10' };
      case 'payloadpoint':
        return {
          type: 'PayloadPoint',
          name: 'Ref payload',
          payloadPointTypeRef: local('payloadpointtype'),
          location: '60,10',
        };
      default:
        throw new Error(`no base record for ${kind}`);
    }
  };

  const cases = Object.entries(ENTITY_REFERENCES).flatMap(([kind, fields]) =>
    Object.entries(fields).map(([field, kinds]) => ({
      kind: kind as EntityKind,
      field,
      kinds: kinds as readonly EntityKind[],
      targetKind: kinds[0] as EntityKind,
      list: [
        'consumptionPointRefs',
        'legalCombinations',
        'blockedReceivers',
        'gridFeeTypeRefs',
        'energyFeeTypeRefs',
      ].includes(field),
    })),
  );

  it.each(cases)('refuses $kind / $field naming another area', async ({ kind, field, kinds, targetKind, list }) => {
    const foreign = target('finland', targetKind);
    // A dotted field is a reference in each object of a list ('taxAreaRates.taxAreaRef'), reported on the list.
    const [attribute, inner] = field.split('.') as [string, string | undefined];
    const value = inner ? [{ [inner]: foreign, rate: 1 }] : list ? [foreign] : foreign;
    const response = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { ...baseRecord(kind), [attribute]: value },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'invalid_input',
      errors: [{ field: attribute, code: 'invalid_input', message: unknownReferenceMessage(kinds) }],
    });
  });

  it('covers every reference the contracts declare', () => {
    expect(cases.length).toBeGreaterThanOrEqual(19);
  });

  it('refuses a reference to an entity of the wrong kind in the same area', async () => {
    const response = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { ...baseRecord('tractionunit'), owner: target('norway', 'motortype') },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'owner', code: 'invalid_input', message: 'Unknown organisation' },
    ]);
  });

  it('accepts references to entities of the area, stored or saved in the same batch', async () => {
    const saved = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        ...baseRecord('tractionunittype'),
        motorTypeRef: target('norway', 'motortype'),
        trainProfileRef: target('norway', 'trainprofile'),
        legalCombinations: [target('norway', 'tractionunittype')],
      },
    });
    expect(saved.statusCode).toBe(200);
    const tenant = t.areaUuid('norway');
    const unitUuid = '0b9a5c1e-1111-4a8e-9c1d-000000000001';
    const pointUuid = '0b9a5c1e-1111-4a8e-9c1d-000000000002';
    const result = await tenantExecutor(t.database, tenant).transaction((tx) =>
      saveEntities(tx, tenant, admin, [
        { ...baseRecord('tractionunit'), uuid: unitUuid, consumptionPointRefs: [pointUuid] },
        { ...baseRecord('consumptionpoint'), uuid: pointUuid, tractionUnitRef: unitUuid },
      ]),
    );
    expect(result.map((r) => r.uuid)).toEqual([unitUuid, pointUuid]);
  });

  it("never shows another area's entity name in the fleet list, even for a reference stored before the check", async () => {
    const finnishOwner = target('finland', 'organisation');
    const [finnish] = await t.allAreas.query<{ name: string }>(
      'SELECT name FROM entity_latest WHERE entity_uuid = $1',
      [finnishOwner],
    );
    // A cross-area reference as older code stored it, written past the service on purpose.
    const updated = await t.allAreas.query(
      `UPDATE entity_segment SET attributes = jsonb_set(attributes, '{owner}', to_jsonb($1::text))
        WHERE entity_uuid = (SELECT entity_uuid FROM entity_latest WHERE type = 'tractionunit' AND tenant = $2
                              ORDER BY entity_uuid LIMIT 1) AND superseded_at IS NULL RETURNING entity_uuid`,
      [finnishOwner, t.areaUuid('norway')],
    );
    expect(updated.length).toBeGreaterThan(0);
    const page = (
      await t.callAs(ADMIN, { method: 'POST', url: '/api/domain/fleet?page=0&size=100', payload: {} })
    ).json<FleetPage>();
    expect(page.content.length).toBeGreaterThan(0);
    expect(page.content.map((e) => e.responsible)).not.toContain(finnish!.name);
    const leaked = page.content.find((e) => e.ownerRef === finnishOwner);
    expect(leaked?.responsible ?? null).toBeNull();
  });
});
