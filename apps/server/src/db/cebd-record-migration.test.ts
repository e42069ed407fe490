import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CEBD_SERIES } from '@railwatt/contracts';
import { areaUuid } from '../seed/areas.js';
import { openTestDatabase } from '../test/database.js';
import type { Database } from './client.js';
import { migrate } from './migrate.js';

const NORWAY = areaUuid('norway');

/**
 * Migration 0370 on a database of the release before it (migrated to 0362): CEBD records stored the
 * old way (four value series, a position row, a cebd_preprocessed copy, per-value corrections) move
 * into one cebd_record row each, their correction history into cebd_record_superseded, and the old
 * tables go; other series stay where they are.
 */
describe('migration 0370: CEBD records into cebd_record', () => {
  let database: Database;
  const cp = randomUUID();
  const meter = randomUUID();
  const unit = randomUUID();
  const grid = randomUUID();

  beforeAll(async () => {
    database = await openTestDatabase({ migrateUpTo: '0362' });
    const q = (text: string, params: unknown[] = []) => database.query(text, params);
    const series: Record<string, number> = {};
    for (const type of Object.values(CEBD_SERIES)) {
      const [row] = await database.query<{ id: number }>(
        `INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
         VALUES ($1, $2, $3, 'consumptionpoint', 'CP-1', 'PT5M', 'kWh') RETURNING id`,
        [NORWAY, type, cp],
      );
      series[type] = Number(row!.id);
    }
    const [supply] = await database.query<{ id: number }>(
      `INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
       VALUES ($1, 'supply_energy', $2, 'supplymeteringpoint', 'SMP-1', 'PT1H', 'kWh') RETURNING id`,
      [NORWAY, meter],
    );
    await q(`SELECT rw_ensure_time_series_months('2026-10-01', '2026-10-31')`);
    const value = (type: string, start: string, v: number | null, quality: number, dl: number) =>
      q(
        `INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [NORWAY, series[type], start, v, quality, dl],
      );
    // Record A (ends 00:05): from file 1, checked (58, West), values 10/1/2/0.
    // Record B (ends 00:10): file 1's active consumed 5 replaced by file 2's 7 (only that value);
    //   its position came with file 2. Not checked. A duplicate by the old rule.
    // Record C (ends 00:15): quality 46 (no values), file 2, its position from file 2.
    const A = '2026-10-01T00:00:00Z';
    const B = '2026-10-01T00:05:00Z';
    const C = '2026-10-01T00:10:00Z';
    for (const [type, v] of [
      [CEBD_SERIES.activeConsumed, 10],
      [CEBD_SERIES.activeRegenerated, 1],
      [CEBD_SERIES.reactiveConsumed, 2],
      [CEBD_SERIES.reactiveRegenerated, 0],
    ] as const) {
      await value(type, A, v, 127, 1);
      await value(
        type,
        B,
        type === CEBD_SERIES.activeConsumed ? 7 : v,
        127,
        type === CEBD_SERIES.activeConsumed ? 2 : 1,
      );
      await value(type, C, null, 46, 2);
    }
    await q(
      `INSERT INTO time_series_value_superseded (tenant, series_id, start_time, value, quality, data_log_id, stored_at,
                                                 superseded_at, superseded_by_data_log_id, superseded_by)
       VALUES ($1, $2, $3, 5, 127, 1, '2026-10-02T00:00:00Z', '2026-10-03T00:00:00Z', 2, 'alice')`,
      [NORWAY, series[CEBD_SERIES.activeConsumed], B],
    );
    await q(
      `INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id)
       VALUES ($1, $2, '2026-10-01T00:00:00Z', 500, 127, 3)`,
      [NORWAY, supply!.id],
    );
    await q(
      `INSERT INTO cebd_position (tenant, consumption_point_uuid, period_end, lat, lon, traction_system, data_log_id)
       VALUES ($1, $2, '2026-10-01T00:05:00Z', 59.9, 10.7, '02', 1), ($1, $2, '2026-10-01T00:10:00Z', 60, 11, '02', 2),
              ($1, $2, '2026-10-01T00:15:00Z', NULL, NULL, '00', 2)`,
      [NORWAY, cp],
    );
    await q(
      `INSERT INTO cebd_preprocessed (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                                      active_consumed, active_regenerated, reactive_consumed, reactive_regenerated,
                                      quality, codes, duplicate, data_log_id, processed_at)
       VALUES ($1, $2, '2026-10-01T00:05:00Z', $3, $4, 10, 1, 2, 0, 127, '{58}', false, 1, '2026-10-02T01:00:00Z')`,
      [NORWAY, cp, unit, grid],
    );
    expect(await migrate(database)).toContain('0370_cebd_record.sql');
  }, 120_000);
  afterAll(async () => database?.close());

  it('makes one row per record, with its position, file, and the check it had', async () => {
    const records = await database.query<Record<string, unknown>>(
      `SELECT rw_iso(period_end) AS end, active_consumed::text AS ac, active_regenerated::text AS ar,
              reactive_consumed::text AS rc, reactive_regenerated::text AS rr, quality, lat, lon,
              traction_system AS ts, data_log_id::int AS dl, codes::text AS codes, rw_iso(checked_at) AS checked,
              traction_unit_uuid::text AS unit, grid_area_uuid::text AS grid, duplicate
         FROM cebd_record WHERE tenant = $1 ORDER BY period_end`,
      [NORWAY],
    );
    const unchecked = { codes: null, checked: null, unit: null, grid: null };
    expect(records).toEqual([
      {
        end: '2026-10-01T00:05:00.000Z',
        ...{ ac: '10', ar: '1', rc: '2', rr: '0', quality: 127, lat: 59.9, lon: 10.7, ts: '02', dl: 1 },
        ...{ codes: '{58}', checked: '2026-10-02T01:00:00.000Z', unit, grid, duplicate: false },
      },
      {
        end: '2026-10-01T00:10:00.000Z',
        ...{ ac: '7', ar: '1', rc: '2', rr: '0', quality: 127, lat: 60, lon: 11, ts: '02', dl: 2 },
        ...unchecked,
        duplicate: true,
      },
      {
        end: '2026-10-01T00:15:00.000Z',
        ...{ ac: null, ar: null, rc: null, rr: null, quality: 46, lat: null, lon: null, ts: '00', dl: 2 },
        ...unchecked,
        duplicate: false,
      },
    ]);
    const parts = await database.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'cebd_record'::regclass ORDER BY 1`,
    );
    expect(parts.map((p) => p.relname)).toEqual(['cebd_record_2026_10', 'cebd_record_default']);
  });

  it('keeps the correction history as whole records: the replaced value, the others as they were', async () => {
    const history = await database.query<Record<string, unknown>>(
      `SELECT rw_iso(period_end) AS end, active_consumed::text AS ac, active_regenerated::text AS ar,
              reactive_consumed::text AS rc, reactive_regenerated::text AS rr, quality, data_log_id::int AS dl,
              superseded_by_data_log_id::int AS by_dl, superseded_by AS by, rw_iso(superseded_at) AS at
         FROM cebd_record_superseded WHERE tenant = $1`,
      [NORWAY],
    );
    expect(history).toEqual([
      {
        end: '2026-10-01T00:10:00.000Z',
        ...{ ac: '5', ar: '1', rc: '2', rr: '0', quality: 127, dl: 1, by_dl: 2, by: 'alice' },
        at: '2026-10-03T00:00:00.000Z',
      },
    ]);
  });

  it('drops the old tables and the CEBD values, keeping other series and the CEBD series catalogue', async () => {
    const [gone] = await database.query<{ position: string | null; preprocessed: string | null }>(
      `SELECT to_regclass('cebd_position')::text AS position, to_regclass('cebd_preprocessed')::text AS preprocessed`,
    );
    expect(gone).toEqual({ position: null, preprocessed: null });
    const values = await database.query<{ type: string; n: number }>(
      `SELECT s.type_name AS type, count(*)::int AS n FROM time_series_value v JOIN time_series s ON s.id = v.series_id
        GROUP BY 1`,
    );
    expect(values).toEqual([{ type: 'supply_energy', n: 1 }]);
    const [superseded] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM time_series_value_superseded`,
    );
    expect(superseded?.n).toBe(0);
    const [catalogue] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM time_series WHERE entity_uuid = $1`,
      [cp],
    );
    expect(catalogue?.n).toBe(4);
  });
});
