import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { tenantExecutor } from '../../db/tenant.js';
import type { CebdRecord, IntakeFormat, ParseItem } from '../../formats/timeseries/format.js';
import { areaUuid } from '../../seed/areas.js';
import { serviceContext } from '../../test/context.js';
import { openTestDatabase } from '../../test/database.js';
import { insertEntity } from '../../test/entities.js';
import { ADMIN_ACTOR } from '../../test/records.js';
import { rows } from '../domain/sql.js';
import { importParsedStream } from '../timeseries/intake.js';
import { cebdFileScope, preprocessCebd } from './cebd-preprocessing.js';
import { otherDcsDetail } from './procedures.js';

const NORWAY = areaUuid('norway');
const BELGIUM = areaUuid('belgium');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' };
const NEXT_DAY = { start: '2026-10-02T00:00:00Z', end: '2026-10-03T00:00:00Z' };
const FROM = '2020-01-01T00:00:00Z';

/**
 * A tiny area drawn on a plane (lon x, lat y):
 *   settlement area and price area PA1: the rectangle [0,20] x [0,10];
 *   grid area West: [0,10] x [0,10] with a hole [2,4] x [2,4]; grid area East: [10,20] x [0,10].
 * Traction unit type T has maxPower 1.2 MW: 1.2 x 1000 kW x 5/60 h = 100 kWh per period (58 above).
 * Owner O is connected to exchange organisation X (orgId DCS-A), so files must come from DCS-A (55).
 * CP1 (EMS type EMS-A, known) on unit U1 (active). CP2 (EMS type EMS-X, unknown: 54) on unit U2,
 * which is valid only until 01:00 (60 after).
 */
const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

const listFormat = (items: ParseItem[]): IntakeFormat => ({
  name: 'csv',
  detect: () => true,
  async *parse() {
    yield* items;
  },
});
const noBytes = () => (async function* () {})();

/** The record whose period ends `minutes` after midnight UTC of the day. */
const rec = (minutes: number, over: Partial<CebdRecord> = {}): CebdRecord => ({
  periodEnd: new Date(Date.parse(DAY.start) + minutes * 60_000).toISOString(),
  activeConsumed: 50,
  activeRegenerated: 0,
  reactiveConsumed: 10,
  reactiveRegenerated: 0,
  lon: 5,
  lat: 5,
  tractionSystem: '02',
  quality: 127,
  ...over,
});
/** Period ends of hour h (0-based): h:05 ... (h+1):00, the first n of them. */
const hour = (h: number, n = 12) => Array.from({ length: n }, (_, i) => h * 60 + (i + 1) * 5);

describe('cebd-preprocessing', () => {
  let database: Database;
  const ids: Record<string, string> = {};
  const ctx = (tenant = NORWAY) => serviceContext(tenantExecutor(database, tenant), tenant, ADMIN_ACTOR);

  const addEntity = async (
    key: string,
    type: string,
    attributes: Record<string, unknown>,
    options: { from?: string; until?: string; tenant?: string } = {},
  ) => {
    const uuid = await insertEntity(database, options.tenant ?? NORWAY, type, key, attributes, {
      from: options.from ?? FROM,
      until: options.until ?? null,
    });
    ids[key] = uuid;
    return uuid;
  };

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    const polygon = (...rings: number[][][]) => ({ type: 'Polygon', coordinates: rings });
    await addEntity('Land', 'settlementarea', { geometry: polygon(square(0, 0, 20, 10)) });
    const pa = await addEntity('PA1', 'pricearea', { geometry: polygon(square(0, 0, 20, 10)), code: 'PA1' });
    await addEntity('West', 'gridarea', {
      geometry: polygon(square(0, 0, 10, 10), square(2, 2, 4, 4)),
      priceAreaRef: pa,
    });
    await addEntity('East', 'gridarea', { geometry: polygon(square(10, 0, 20, 10)), priceAreaRef: pa });
    // From the next day (NEXT_DAY's test only): a MultiPolygon grid area with a hole in its second
    // polygon, without priceAreaRef, and a price area PA2 [20,40] x [0,10] around it.
    await addEntity(
      'Multi',
      'gridarea',
      {
        geometry: {
          type: 'MultiPolygon',
          coordinates: [[square(20, 0, 30, 10)], [square(30, 0, 40, 10), square(33, 3, 36, 6)]],
        },
      },
      { from: NEXT_DAY.start },
    );
    await addEntity(
      'PA2',
      'pricearea',
      { geometry: polygon(square(20, 0, 40, 10)), code: 'PA2' },
      { from: NEXT_DAY.start },
    );
    await addEntity('EMS-A', 'emstype', { model: 'EMS-A' });
    const x = await addEntity('Data Collector A', 'organisation', { orgId: 'DCS-A' });
    const o = await addEntity('Owner O', 'organisation', { orgId: 'O', exchangeAdminRef: x });
    const t = await addEntity('T', 'tractionunittype', { maxPower: 1.2, positionValidationRules: ['WITHIN_AREA'] });
    const u1 = await addEntity('U1', 'tractionunit', { evn: '1', owner: o, tractionUnitTypeRef: t });
    const u2 = await addEntity(
      'U2',
      'tractionunit',
      { evn: '2', owner: o, tractionUnitTypeRef: t },
      { until: '2026-10-01T01:00:00Z' },
    );
    await addEntity('CP1', 'consumptionpoint', { cpid: 'CP1', emsType: 'EMS-A', tractionUnitRef: u1 });
    await addEntity('CP2', 'consumptionpoint', { cpid: 'CP2', emsType: 'EMS-X', tractionUnitRef: u2 });
    for (const id of [101, 102, 103, 104]) {
      await database.query(
        `INSERT INTO data_log (id, tenant, message_type, message_status) VALUES ($1, $2, 'CEBD', 'OK')`,
        [id, NORWAY],
      );
    }
    // Another area's row in the same period: no run of Norway may touch it.
    await database.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, quality, codes)
       VALUES ($1, $2, '2026-10-01T00:05:00Z', 46, '{54}')`,
      [BELGIUM, randomUUID()],
    );
    await database.useAppRole();

    const file = async (dataLogId: number, cpid: string, dcs: string, records: CebdRecord[]) => {
      const block: ParseItem = { kind: 'cebd', block: { cpid, dcs, blockType: 'CEBDBlock', location: {}, records } };
      const result = await importParsedStream(ctx(), listFormat([block]), noBytes(), { dataLogId });
      expect(result.status, result.text).toBe('OK');
    };
    // File 101 (DCS-A), CP1:
    //   hour 00: 12 records at (5,5) in West, except 00:30 (150 kWh > 100: 58), 00:35 at (3,3) in
    //            West's hole (no grid area: 59; price area PA1 still holds it), 00:40 at (15,5) in
    //            East, 00:45 at (25,5) outside everything (59, no price area);
    //   hour 01: 10 records, 01:50 of them quality 46 (no value): 9 present < 10 (56 on all 10);
    //   hour 02: 12 records, 7 of them quality 56: 7/12 = 0.583 > 0.5 (57 on all 12);
    //   hour 03: 12 records, 6 of them quality 61: 6/12 = 0.5, not above 0.5 (valid).
    const special: Record<number, Partial<CebdRecord>> = {
      30: { activeConsumed: 150 },
      35: { lon: 3, lat: 3 },
      40: { lon: 15 },
      45: { lon: 25 },
    };
    await file(101, 'CP1', 'DCS-A', [
      ...hour(0).map((m) => rec(m, special[m])),
      ...hour(1, 10).map((m, i) => rec(m, i === 9 ? { quality: 46, activeConsumed: 0 } : {})),
      ...hour(2).map((m, i) => rec(m, i < 7 ? { quality: 56 } : {})),
      ...hour(3).map((m, i) => rec(m, i < 6 ? { quality: 61 } : {})),
    ]);
    // File 102 (sender OTHER, not DCS-A: 55), CP2 (unknown EMS type: 54), all at (15,5) in East:
    //   hour 00: 12 records (54 and 55 on each);
    //   hour 01: 2 records; U2 ended at 01:00: 60 only (56 would also hold: 2 < 10, not shown).
    await file(
      102,
      'CP2',
      'OTHER',
      [...hour(0), ...hour(1, 2)].map((m) => rec(m, { lon: 15 })),
    );
    // File 103 (DCS-A) sends CP1's 00:05 again unchanged and 00:10 with 60 kWh: both duplicates.
    await file(103, 'CP1', 'DCS-A', [rec(5), rec(10, { activeConsumed: 60 })]);
    // File 104, the next day: CP1 and CP2 at every point of the lattice x -1..41, y -1..11 (559
    // points, one a period: vertices, edges, holes and the borders between the areas).
    const lattice = Array.from({ length: 43 * 13 }, (_, i) => ({ lon: (i % 43) - 1, lat: Math.floor(i / 43) - 1 }));
    const onNextDay = (i: number) => rec(24 * 60 + ((i % 288) + 1) * 5, lattice[i]);
    await file(
      104,
      'CP1',
      'DCS-A',
      lattice.slice(0, 288).map((_, i) => onNextDay(i)),
    );
    await file(
      104,
      'CP2',
      'DCS-A',
      lattice.slice(288).map((_, i) => onNextDay(288 + i)),
    );
  });
  afterAll(async () => database?.close());

  /** Every Norway row as 'CP HH:MM' -> 'grid|price|codes|duplicate'. */
  const stored = async () => {
    const name = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    const found = await rows<{
      cp: string;
      at: string;
      grid: string | null;
      price: string | null;
      codes: string;
      dup: boolean;
    }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT consumption_point_uuid AS cp, to_char(period_end AT TIME ZONE 'UTC', 'HH24:MI') AS at,
                 grid_area_uuid AS grid, price_area_uuid AS price, array_to_string(codes, ',') AS codes, duplicate AS dup
            FROM cebd_record WHERE codes IS NOT NULL ORDER BY 1, period_end`,
    );
    return new Map(
      found.map((r) => [
        `${name[r.cp]} ${r.at}`,
        `${r.grid ? name[r.grid] : '-'}|${r.price ? name[r.price] : '-'}|${r.codes}|${r.dup ? 'dup' : ''}`,
      ]),
    );
  };

  // Records: CP1 12 + 10 + 12 + 12 = 46, CP2 12 + 2 = 14; 60 in all.
  // 54: CP2's 12 of hour 00; 55: the same 12; 56: CP1's 10 of hour 01; 57: CP1's 12 of hour 02;
  // 58: CP1 00:30; 59: CP1 00:35 and 00:45; 60: CP2's 2 of hour 01 (alone).
  // Placed in a grid area: 60 - 2 (00:35 in the hole, 00:45 outside) = 58. Duplicates: 00:05 and 00:10 of CP1.
  const EXPECTED = {
    records: 60,
    placed: 58,
    duplicates: 2,
    byCode: { 54: 12, 55: 12, 56: 10, 57: 12, 58: 1, 59: 2, 60: 2 },
    // 55's sender and the exchange organisation expected (issue 18 item 5: the event names both).
    otherDcs: [{ actual: 'OTHER', expected: 'Data Collector A', expectedOrgId: 'DCS-A', records: 12 }],
  };

  it('places every record of the day and raises the codes computed by hand', async () => {
    const result = await preprocessCebd(ctx(), DAY);
    expect(result).toEqual(EXPECTED);
    // The event of code 55 names the sender and the one expected, and that the records were settled.
    expect(otherDcsDetail(result.otherDcs)).toBe(
      ' (sent by OTHER, expected Data Collector A (orgId DCS-A): 12 records); the records were still allocated and settled',
    );
    const rowsOf = await stored();
    expect(rowsOf.size).toBe(60);
    expect(
      Object.fromEntries(
        [
          'CP1 00:05',
          'CP1 00:10',
          'CP1 00:15',
          'CP1 00:30',
          'CP1 00:35',
          'CP1 00:40',
          'CP1 00:45',
          'CP1 01:05',
          'CP1 01:50',
          'CP1 02:05',
          'CP1 03:00',
          'CP1 03:05',
          'CP1 04:00',
          'CP2 00:05',
          'CP2 01:00',
          'CP2 01:05',
          'CP2 01:10',
        ].map((k) => [k, rowsOf.get(k)]),
      ),
    ).toEqual({
      'CP1 00:05': 'West|PA1||dup',
      'CP1 00:10': 'West|PA1||dup',
      'CP1 00:15': 'West|PA1||',
      'CP1 00:30': 'West|PA1|58|',
      'CP1 00:35': '-|PA1|59|',
      'CP1 00:40': 'East|PA1||',
      'CP1 00:45': '-|-|59|',
      'CP1 01:05': 'West|PA1|56|',
      'CP1 01:50': 'West|PA1|56|',
      'CP1 02:05': 'West|PA1|57|',
      // 03:00 ends the last period of hour 02.
      'CP1 03:00': 'West|PA1|57|',
      'CP1 03:05': 'West|PA1||',
      'CP1 04:00': 'West|PA1||',
      'CP2 00:05': 'East|PA1|54,55|',
      'CP2 01:00': 'East|PA1|54,55|',
      'CP2 01:05': 'East|PA1|60|',
      'CP2 01:10': 'East|PA1|60|',
    });
    // The current values are kept: 00:10 holds file 103's 60 kWh.
    const [ten] = await rows<{ ac: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT active_consumed::text AS ac FROM cebd_record WHERE period_end = '2026-10-01T00:10:00Z'
            AND consumption_point_uuid = ${ids.CP1}::uuid`,
    );
    expect(Number(ten?.ac)).toBe(60);
  });

  it('replaces its rows when the chunk runs again, and keeps the run id', async () => {
    const runId = randomUUID();
    expect(await preprocessCebd(ctx(), DAY, { runId })).toEqual(EXPECTED);
    const [runs] = await rows<{ n: string; run: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT count(*) AS n, min(run_id::text) AS run FROM cebd_record WHERE codes IS NOT NULL`,
    );
    expect({ n: Number(runs?.n), run: runs?.run }).toEqual({ n: 60, run: runId });
    // The first hour only: CP1's 12 and CP2's 12 records ending in (00:00, 01:00]; the rest stay as written.
    const half = await preprocessCebd(ctx(), { start: DAY.start, end: '2026-10-01T01:00:00Z' });
    expect(half).toEqual({
      records: 24,
      placed: 22,
      duplicates: 2,
      byCode: { 54: 12, 55: 12, 58: 1, 59: 2 },
      otherDcs: EXPECTED.otherDcs,
    });
    expect((await stored()).size).toBe(60);
  });

  it('writes onto each record’s own row (no copy) and checks one file’s consumption points alone', async () => {
    const all = async () =>
      rows<{ n: string; checked: string; values: string }>(
        tenantExecutor(database, NORWAY),
        sql`SELECT count(*) AS n, count(checked_at) AS checked,
                   sum(active_consumed + active_regenerated + reactive_consumed + reactive_regenerated)::text AS values
              FROM cebd_record WHERE period_end > ${DAY.start}::timestamptz AND period_end <= ${DAY.end}::timestamptz`,
      );
    const before = await all();
    expect(Number(before[0]?.n)).toBe(60);
    // File 102 (CP2 only): its span and points, checked alone; CP1's rows keep the last run's id.
    const scope = await cebdFileScope(ctx(), 102);
    expect(scope).toEqual({
      consumptionPoints: [ids.CP2],
      start: '2026-10-01T00:00:00.000Z',
      end: '2026-10-01T01:10:00.000Z',
    });
    expect(await cebdFileScope(ctx(), 999)).toBeNull();
    const runId = randomUUID();
    const cp2 = await preprocessCebd(ctx(), scope!, { consumptionPoints: scope!.consumptionPoints, runId });
    expect(cp2).toEqual({
      records: 14,
      placed: 14,
      duplicates: 0,
      byCode: { 54: 12, 55: 12, 60: 2 },
      otherDcs: EXPECTED.otherDcs,
    });
    const byRun = await rows<{ cp: string; n: number }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT consumption_point_uuid::text AS cp, count(*)::int AS n FROM cebd_record WHERE run_id = ${runId}::uuid GROUP BY 1`,
    );
    expect(byRun).toEqual([{ cp: ids.CP2, n: 14 }]);
    expect(await preprocessCebd(ctx(), DAY, { consumptionPoints: [] })).toMatchObject({ records: 0 });
    // Same rows, same values: the check only added what it decides.
    expect(await all()).toEqual(before);
    expect(before[0]?.checked).toBe(before[0]?.n);
  });

  it('follows the limits it is given', async () => {
    // Hour 01 has 9 present periods: a minimum of 9 raises no 56; a share of 0.6 lets hour 02's
    // 7/12 = 0.583 pass (no 57). The type states its max power, so the default does not change 58.
    const result = await preprocessCebd(ctx(), DAY, {
      limits: { minPeriodsPerHour: 9, maxLowQualityShare: 0.6, defaultMaxPowerMw: 0.1 },
    });
    expect(result.byCode).toEqual({ 54: 12, 55: 12, 58: 1, 59: 2, 60: 2 });
    await preprocessCebd(ctx(), DAY);
  });

  it('raises 58 outside the expected values of the configuration', async () => {
    // Expected 0..55 kWh: besides 00:30 (150 kWh), CP1's 00:10 (60 kWh, its current value after
    // file 103) is outside: 2 records. CP2's records have 60 alone in hour 01, 50 kWh in hour 00.
    const upper = await preprocessCebd(ctx(), DAY, { limits: { expectedKwh: { lower: 0, upper: 55 } } });
    expect(upper.byCode[58]).toBe(2);
    // The limits are on the net energy (consumed - regenerated; regenerated is 0 here). Expected
    // 51..500 kWh: every 50 kWh record is below. CP1 has 12 + 10 + 12 + 12 = 46 records; only
    // 00:10 (60) lies in range (00:30's 150 kWh is in range but above the unit's 100 kWh: 58 still;
    // 01:50, quality 46 without a value, counts as 0 kWh: below): 45. CP2: the 12 of hour 00 (hour
    // 01's 2 have 60 only). 45 + 12 = 57.
    const lower = await preprocessCebd(ctx(), DAY, { limits: { expectedKwh: { lower: 51, upper: 500 } } });
    expect(lower.byCode[58]).toBe(57);
    await preprocessCebd(ctx(), DAY);
  });

  it('leaves another area alone', async () => {
    const belgium = await rows<{ codes: string }>(
      tenantExecutor(database, BELGIUM),
      sql`SELECT array_to_string(codes, ',') AS codes FROM cebd_record`,
    );
    expect(belgium).toEqual([{ codes: '54' }]);
    const [seen] = await rows<{ n: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT count(*) AS n FROM cebd_record WHERE tenant = ${BELGIUM}::uuid`,
    );
    expect(Number(seen?.n)).toBe(0);
  });

  it('places each position where rw_point_in_geometry finds it, the first grid area by name on a border', async () => {
    const result = await preprocessCebd(ctx(), NEXT_DAY);
    expect(result.records).toBe(559);
    // The oracle, record by record: the first grid area by name whose polygon holds the position,
    // and its priceAreaRef or else the first price area by name that holds it.
    const [check] = await rows<{ differ: string; placed: string; multi: string; pa2: string; hole: string }>(
      tenantExecutor(database, NORWAY),
      sql`WITH expected AS (
            SELECT x.grid_area_uuid AS grid, x.price_area_uuid AS price, x.lon, x.lat,
                   (SELECT s.entity_uuid FROM entity_segment s
                     WHERE s.type = 'gridarea' AND s.superseded_at IS NULL AND s.valid @> x.period_end - interval '5 minutes'
                       AND rw_point_in_geometry(s.attributes -> 'geometry', x.lon, x.lat)
                     ORDER BY s.name, s.entity_uuid LIMIT 1) AS want_grid,
                   (SELECT s.entity_uuid FROM entity_segment s
                     WHERE s.type = 'pricearea' AND s.superseded_at IS NULL AND s.valid @> x.period_end - interval '5 minutes'
                       AND rw_point_in_geometry(s.attributes -> 'geometry', x.lon, x.lat)
                     ORDER BY s.name, s.entity_uuid LIMIT 1) AS want_price
              FROM cebd_record x
             WHERE x.period_end > ${NEXT_DAY.start}::timestamptz AND x.period_end <= ${NEXT_DAY.end}::timestamptz)
          SELECT count(*) FILTER (WHERE e.grid IS DISTINCT FROM e.want_grid
                                     OR e.price IS DISTINCT FROM coalesce(rw_uuid(g.attributes ->> 'priceAreaRef'), e.want_price)) AS differ,
                 count(e.grid) AS placed,
                 count(*) FILTER (WHERE e.grid = ${ids.Multi}::uuid) AS multi,
                 count(*) FILTER (WHERE e.price = ${ids.PA2}::uuid) AS pa2,
                 count(*) FILTER (WHERE e.lon BETWEEN 34 AND 35 AND e.lat BETWEEN 4 AND 5 AND e.grid IS NOT NULL) AS hole
            FROM expected e
            LEFT JOIN entity_segment g ON g.entity_uuid = e.grid AND g.superseded_at IS NULL`,
    );
    const n = Object.fromEntries(Object.entries(check ?? {}).map(([k, v]) => [k, Number(v)]));
    expect({ differ: n.differ, hole: n.hole }).toEqual({ differ: 0, hole: 0 });
    // Inside [0,40] x [0,10], less the holes and the edges each polygon's ray casting leaves out.
    expect(n.placed).toBeGreaterThan(350);
    expect(n.multi).toBeGreaterThan(150);
    // PA2 also holds Multi's hole (no grid area there: tested against the price areas).
    expect(n.pa2).toBeGreaterThan(n.multi!);
    expect(result.placed).toBe(n.placed);
  });

  it('finds a point in a GeoJSON polygon with holes and in a multipolygon', async () => {
    const multi = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 10, 10), square(2, 2, 4, 4)], [square(20, 0, 30, 10)]],
    };
    const inside = async (geometry: unknown, lon: number, lat: number) =>
      (
        await rows<{ inside: boolean }>(
          tenantExecutor(database, NORWAY),
          sql`SELECT rw_point_in_geometry(${JSON.stringify(geometry)}::jsonb, ${lon}::float8, ${lat}::float8) AS inside`,
        )
      )[0]?.inside;
    expect(await inside(multi, 5, 5)).toBe(true);
    expect(await inside(multi, 3, 3)).toBe(false); // in the hole
    expect(await inside(multi, 25, 5)).toBe(true); // in the second polygon
    expect(await inside(multi, 15, 5)).toBe(false); // between them
    expect(await inside({ type: 'Point', coordinates: [5, 5] }, 5, 5)).toBe(false);
    expect(await inside(null, 5, 5)).toBe(false);
  });
});
