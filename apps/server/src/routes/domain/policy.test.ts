import { MESSAGES, type StatusChangeResult, type VersionedEntity } from '@railwatt/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../../db/tenant.js';
import { approvalRefusal, mayWriteKind } from '../../modules/domain/policy.js';
import { saveEntities } from '../../modules/domain/service.js';
import { seedUuid } from '../../seed/fleet.js';
import { createTestApp, type TestApp } from '../../test/app.js';

// Who may do what with master data (issue 6 §4, product.md §6), per role through the API.
const org = (key: string) => seedUuid(`norway:org:${key}`);
const EL18 = seedUuid('norway:type:El 18');
const ALL_TIME = { start: '2000-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' };

describe('domain policy per role', () => {
  let t: TestApp;
  let keeperUnit: VersionedEntity;
  const call = (username: string, options: InjectOptions, area: 'norway' | 'exchange' = 'norway') =>
    t.callAs(username, options, area);
  const save = (username: string, payload: Record<string, unknown>, area?: 'norway' | 'exchange') =>
    call(username, { method: 'POST', url: '/api/domain/save', payload }, area);
  const status = async (username: string, type: string, action: string, uuid: string) =>
    (
      await call(username, {
        method: 'POST',
        url: '/api/domain/status',
        payload: { action, type, uuids: [uuid], timeRange: ALL_TIME },
      })
    ).json<StatusChangeResult>();
  const get = async (type: string, uuid: string) =>
    (
      await call('erex-administrator', { method: 'GET', url: `/api/domain/${type}/id/${uuid}` })
    ).json<VersionedEntity>();
  /** The record to save back: the entity's own fields without the read-only ones. */
  const record = (e: VersionedEntity, extra: Record<string, unknown> = {}) => {
    const {
      segments: _s,
      lastModified: _l,
      lastModifiedBy: _b,
      allInactive: _a,
      createdBy: _c,
      timeRange: _t,
      ...rest
    } = e;
    return { ...rest, ...extra };
  };
  const newOrganisation = (orgId: string) => ({
    type: 'Organisation',
    name: `Org ${orgId}`,
    orgId,
    organisationTypes: ['VEHICLE_KEEPER'],
    emails: `org${orgId}@example.no`,
  });

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'] });
    // A unit of Norske tog, the organisation the demo vehicle keeper belongs to.
    const [row] = await t.allAreas.query<{ uuid: string }>(
      `SELECT entity_uuid::text AS uuid FROM entity_latest
        WHERE tenant = $1 AND type = 'tractionunit' AND owner_ref = $2 AND state = 'ACTIVE' ORDER BY evn LIMIT 1`,
      [t.areaUuid('norway'), org('norsketog')],
    );
    keeperUnit = await get('tractionunit', row!.uuid);
  });
  afterAll(async () => t?.close());

  describe('traction unit types: only the erex-administrator approves, unapproves or retires', () => {
    it('keeps a stored approval when a fleet writer re-saves the type without a state', async () => {
      const type = await get('tractionunittype', EL18);
      expect(type.state).toBe('APPROVED_FOR_BILLING');
      const { state: _state, ...withoutState } = record(type, { maxSpeed: 190 });
      const response = await save('vehicle-keeper', withoutState);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ state: 'APPROVED_FOR_BILLING', maxSpeed: 190 });
    });

    it('refuses with 400 on state when another writer sends a new state for an approved type', async () => {
      const response = await save('cp-admin', record(await get('tractionunittype', EL18), { state: 'ACTIVE' }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        errors: [{ field: 'state', message: approvalRefusal('tractionunittype') }],
      });
      expect((await get('tractionunittype', EL18)).state).toBe('APPROVED_FOR_BILLING');
    });

    it('lets no one but the erex-administrator unapprove or retire an approved type, or approve a new one', async () => {
      for (const username of ['settlement-area-responsible', 'erex-settlement-operator', 'vehicle-keeper']) {
        for (const action of ['unapprove', 'retire', 'setinactive']) {
          const result = await status(username, 'TractionUnitType', action, EL18);
          expect({ username, action, error: result.items[0]?.error }).toEqual({
            username,
            action,
            error: approvalRefusal('tractionunittype'),
          });
        }
      }
      const approvedNew = { type: 'TractionUnitType', name: 'Policy type', state: 'APPROVED_FOR_BILLING' };
      expect((await save('settlement-area-responsible', approvedNew)).statusCode).toBe(403);
      expect((await save('erex-administrator', approvedNew)).statusCode).toBe(200);
      expect((await status('erex-administrator', 'TractionUnitType', 'unapprove', EL18)).success).toBe(true);
      expect((await get('tractionunittype', EL18)).state).toBe('ACTIVE');
      expect((await status('erex-administrator', 'TractionUnitType', 'approve', EL18)).success).toBe(true);
    });
  });

  describe('status changes keep the fleet rules of a save', () => {
    it("refuses the vehicle keeper setting another organisation's unit inactive, and lets it set its own", async () => {
      const [other] = await t.allAreas.query<{ uuid: string }>(
        `SELECT entity_uuid::text AS uuid FROM entity_latest
          WHERE tenant = $1 AND type = 'tractionunit' AND owner_ref <> $2 AND state = 'ACTIVE' ORDER BY evn LIMIT 1`,
        [t.areaUuid('norway'), org('norsketog')],
      );
      const refused = await status('vehicle-keeper', 'TractionUnit', 'setinactive', other!.uuid);
      expect(refused.items[0]?.error).toBe('A vehicle keeper changes only the traction units of its own organisations');
      expect((await get('tractionunit', other!.uuid)).state).toBe('ACTIVE');
      const own = await status('vehicle-keeper', 'TractionUnit', 'setinactive', keeperUnit.uuid);
      expect(own.success).toBe(true);
      expect((await status('vehicle-keeper', 'TractionUnit', 'setactive', keeperUnit.uuid)).success).toBe(true);
    });
  });

  describe('traction units: approval for billing belongs to settlement roles, not the owning vehicle keeper', () => {
    it('refuses the vehicle keeper approving its own unit, by status change and by save', async () => {
      const result = await status('vehicle-keeper', 'TractionUnit', 'approve', keeperUnit.uuid);
      expect(result.items[0]?.error).toBe(approvalRefusal('tractionunit'));
      const saved = await save('vehicle-keeper', record(keeperUnit, { state: 'APPROVED_FOR_BILLING' }));
      expect(saved.statusCode).toBe(403);
      expect((await get('tractionunit', keeperUnit.uuid)).state).toBe('ACTIVE');
    });

    it('lets the erex-settlement-operator approve; a later save by the keeper keeps the approval', async () => {
      expect((await status('erex-settlement-operator', 'TractionUnit', 'approve', keeperUnit.uuid)).success).toBe(true);
      const { state: _state, ...withoutState } = record(await get('tractionunit', keeperUnit.uuid), {
        description: 'Re-saved by the keeper',
      });
      const saved = await save('vehicle-keeper', withoutState);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ state: 'APPROVED_FOR_BILLING', description: 'Re-saved by the keeper' });
      const inactive = await status('vehicle-keeper', 'TractionUnit', 'setinactive', keeperUnit.uuid);
      expect(inactive.items[0]?.error).toBe(approvalRefusal('tractionunit'));
      expect((await get('tractionunit', keeperUnit.uuid)).state).toBe('APPROVED_FOR_BILLING');
    });
  });

  describe('organisations are written by the roles with the Administration section', () => {
    it('refuses cp-admin, vehicle keeper and exchange operator, in a country and in the exchange area', async () => {
      for (const username of ['cp-admin', 'vehicle-keeper', 'keeper-cpadmin']) {
        expect({ username, status: (await save(username, newOrganisation(`X-${username}`))).statusCode }).toEqual({
          username,
          status: 403,
        });
      }
      for (const username of ['cp-admin', 'vehicle-keeper', 'exchange-operator']) {
        const response = await save(username, newOrganisation(`EX-${username}`), 'exchange');
        expect({ username, status: response.statusCode }).toEqual({ username, status: 403 });
      }
      expect((await save('erex-administrator', newOrganisation('EX-admin'), 'exchange')).statusCode).toBe(200);
    });

    it('refuses them retiring, changing the type of, or storing credentials for an organisation', async () => {
      const vy = org('vy');
      for (const username of ['cp-admin', 'vehicle-keeper']) {
        const retire = await call(username, {
          method: 'POST',
          url: '/api/domain/status',
          payload: { action: 'retire', type: 'Organisation', uuids: [vy], timeRange: ALL_TIME },
        });
        expect({ username, retire: retire.statusCode }).toEqual({ username, retire: 403 });
        const types = await call(username, {
          method: 'POST',
          url: '/api/domain/organisations/organisationtype/save',
          payload: { uuid: vy, organisationTypes: ['RAILWAY_UNDERTAKING'] },
        });
        expect({ username, types: types.statusCode }).toEqual({ username, types: 403 });
        const credentials = await call(username, {
          method: 'POST',
          url: '/api/domain/organisations/organisationtype-with-credentials',
          payload: {
            uuid: vy,
            organisationTypes: ['RAILWAY_UNDERTAKING'],
            credentials: { username: 'ftp', password: 'secret' },
          },
        });
        expect({ username, credentials: credentials.statusCode }).toEqual({ username, credentials: 403 });
      }
    });

    it('lets the settlement-area-responsible and the erex-settlement-operator create organisations in a country', async () => {
      expect((await save('settlement-area-responsible', newOrganisation('SAR-1'))).statusCode).toBe(200);
      expect((await save('erex-settlement-operator', newOrganisation('ESO-1'))).statusCode).toBe(200);
    });

    it('gives the exchange area to the erex-administrator alone (EXCHANGE_AREA_ADMINISTRATION_WRITERS)', () => {
      const responsible = { username: 'x', roles: ['settlement-area-responsible' as const] };
      expect(mayWriteKind({ ...responsible, areaKind: 'norway' }, 'organisation')).toBe(true);
      expect(mayWriteKind({ ...responsible, areaKind: 'exchange' }, 'organisation')).toBe(false);
      expect(mayWriteKind({ ...responsible, areaKind: 'exchange' }, 'tractionunit')).toBe(true);
    });
  });

  describe('"connected to another exchange admin" cannot be bypassed', () => {
    it('lets only the erex-administrator change the exchange admin of an organisation', async () => {
      const railcare = await get('organisation', org('railcare'));
      const exchangeA = seedUuid('norway:org:exchange-a');
      expect(railcare.exchangeAdminRef).not.toBe(exchangeA);
      const moved = record(railcare, { exchangeAdminRef: exchangeA });
      const refused = await save('settlement-area-responsible', moved);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Only the erex-administrator changes the exchange admin of an organisation');
      expect((await get('organisation', org('railcare'))).exchangeAdminRef).toBe(railcare.exchangeAdminRef);
      // Other fields stay writable for them.
      expect((await save('settlement-area-responsible', record(railcare, { countryCode: 'NO' }))).statusCode).toBe(200);
    });

    it('checks the stored exchange admin too when the same batch (or workbook) moves the owner', async () => {
      const tenant = t.areaUuid('norway');
      const railcare = await get('organisation', org('railcare'));
      const unit = {
        type: 'TractionUnit',
        name: 'Bypass unit',
        evn: '917600777770',
        owner: org('railcare'),
      };
      // keeper-cpadmin belongs to Norske tog (exchange admin A); Railcare is connected to B. Even with
      // a role that may move Railcare to A, moving it and saving its unit in one batch is refused.
      const actor = { username: 'keeper-cpadmin', roles: ['erex-administrator' as const] };
      const attempt = tenantExecutor(t.database, tenant).transaction((tx) =>
        saveEntities(tx, tenant, actor, [
          record(railcare, { exchangeAdminRef: seedUuid('norway:org:exchange-a') }),
          unit,
        ]),
      );
      await expect(attempt).rejects.toMatchObject({ status: 403, message: MESSAGES.notAllowedOtherExchangeAdmin });
      expect((await get('organisation', org('railcare'))).exchangeAdminRef).toBe(railcare.exchangeAdminRef);
    });
  });
});
