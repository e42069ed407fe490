import { AREA_PARENTS, type AreaSummary } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUuid } from '../../seed/fleet.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const ADMIN = 'erex-administrator';
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

/** The area screens' server side: the list's parent and validity, and the parent table's `within`. */
describe('infrastructure areas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names the parent of each kind once: a grid area in its energy use settlement area, overlays without one', () => {
    expect(AREA_PARENTS).toEqual({
      gridarea: { field: 'energyUseSettlementAreaRef', kind: 'energyusesettlementarea' },
    });
  });

  it('lists grid areas with their energy use settlement area as parent and their validity', async () => {
    const res = await t.callAs(ADMIN, { method: 'GET', url: '/api/domain/fleet/areas?areaTypes=gridarea,pricearea' });
    expect(res.statusCode).toBe(200);
    const areas = res.json<AreaSummary[]>();
    const grid = areas.find((a) => a.uuid === seedUuid('norway:grid:NO1'))!;
    expect(grid).toMatchObject({
      type: 'GridArea',
      parentRef: seedUuid('norway:eusa:NO1'),
      validFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      validTo: expect.stringMatching(/^20[67]\d-/),
    });
    expect(areas.filter((a) => a.type === 'PriceArea').every((a) => a.parentRef === null)).toBe(true);
  });

  it('defaults to settlement areas, active only (product.md §4), and shows inactive ones on request', async () => {
    const defaults = (await t.callAs(ADMIN, { method: 'GET', url: '/api/domain/fleet/areas' })).json<AreaSummary[]>();
    expect(defaults.map((a) => a.type)).toEqual(['SettlementArea']);

    const saved = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: {
        type: 'TaxArea',
        name: 'Inactive tax area',
        active: false,
        state: 'INACTIVE',
        geometry: square(-30, 40, -29, 41),
      },
    });
    expect(saved.statusCode).toBe(200);
    const activeOnly = (
      await t.callAs(ADMIN, { method: 'GET', url: '/api/domain/fleet/areas?areaTypes=taxarea' })
    ).json<AreaSummary[]>();
    expect(activeOnly.map((a) => a.name)).not.toContain('Inactive tax area');
    const inactive = (
      await t.callAs(ADMIN, {
        method: 'GET',
        url: '/api/domain/fleet/areas?areaTypes=taxarea&includeActive=false&includeInactive=true',
      })
    ).json<AreaSummary[]>();
    expect(inactive.map((a) => a.name)).toEqual(['Inactive tax area']);
  });

  it('refuses a grid area outside its parent and one overlapping another grid area, in the spec words', async () => {
    const eusa = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/domain/save',
      payload: { type: 'EnergyUseSettlementArea', name: 'Atlantic EUSA', geometry: square(-40, 45, -38, 46) },
    });
    expect(eusa.statusCode).toBe(200);
    const parent = eusa.json<{ uuid: string }>().uuid;
    const grid = (name: string, geometry: unknown) =>
      t.callAs(ADMIN, {
        method: 'POST',
        url: '/api/domain/save',
        payload: { type: 'GridArea', name, energyUseSettlementAreaRef: parent, geometry },
      });
    expect((await grid('Atlantic grid', square(-39.8, 45.2, -39, 45.8))).statusCode).toBe(200);
    expect((await grid('Sticking out', square(-38.5, 45.2, -37, 45.8))).json()).toMatchObject({
      status: 400,
      code: 'within',
      message: 'Area must be within parent area',
    });
    expect((await grid('Overlapping', square(-39.5, 45.3, -38.5, 45.7))).json()).toMatchObject({
      status: 400,
      code: 'nooverlap',
      errors: [{ field: 'geometry', message: 'Areas must not overlap: Overlapping and Atlantic grid' }],
    });
  });

  it("exports selected areas as exportedentities.xlsx (the overview's export)", async () => {
    const res = await t.callAs(ADMIN, {
      method: 'POST',
      url: '/api/excel/domain/export',
      payload: { uuids: [seedUuid('norway:grid:NO1'), seedUuid('norway:pricearea:NO1')] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('exportedentities.xlsx');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
