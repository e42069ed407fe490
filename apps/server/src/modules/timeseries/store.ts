import { sql } from 'drizzle-orm';
import type { EntityKind, QualityCode, Resolution, TimeSeriesTypeName } from '@railwatt/contracts';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The time-series store (migration 0090): series, their current values, the values corrections
 * replaced, and CEBD positions. Set-based: every write is one statement over unnest arrays,
 * whatever the row count; callers batch (the intake flushes every VALUE_BATCH rows) and run it all
 * in their transaction, so a file is stored whole or not at all.
 */

/** Rows per INSERT: big enough to amortise a statement, small enough to keep memory flat. */
export const VALUE_BATCH = 20_000;

export interface SeriesKey {
  typeName: TimeSeriesTypeName;
  entityUuid: string;
  entityKind: EntityKind;
  identifier: string;
  resolution: Resolution;
  unit: string;
}

export const seriesKeyOf = (k: Pick<SeriesKey, 'typeName' | 'entityUuid' | 'resolution'>): string =>
  `${k.typeName}\u0000${k.entityUuid}\u0000${k.resolution}`;

/** The ids of the series, created when missing (one INSERT and one SELECT for any number). */
export async function ensureSeries(
  ex: Executor,
  tenant: string,
  keys: readonly SeriesKey[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (keys.length === 0) return ids;
  const col = <T>(f: (k: SeriesKey) => T) => sql.param(keys.map(f));
  await ex.execute(sql`
    INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
    SELECT ${tenant}::uuid, t, e, k, i, r, u
      FROM unnest(${col((k) => k.typeName)}::text[], ${col((k) => k.entityUuid)}::uuid[],
                  ${col((k) => k.entityKind)}::text[], ${col((k) => k.identifier)}::text[],
                  ${col((k) => k.resolution)}::text[], ${col((k) => k.unit)}::text[]) AS x(t, e, k, i, r, u)
    ON CONFLICT ON CONSTRAINT time_series_identity DO NOTHING`);
  const found = await rows<{ id: string | number; type_name: string; entity_uuid: string; resolution: string }>(
    ex,
    sql`SELECT s.id, s.type_name, s.entity_uuid, s.resolution
          FROM time_series s
          JOIN unnest(${col((k) => k.typeName)}::text[], ${col((k) => k.entityUuid)}::uuid[],
                      ${col((k) => k.resolution)}::text[]) AS x(t, e, r)
            ON s.type_name = x.t AND s.entity_uuid = x.e AND s.resolution = x.r
         WHERE s.tenant = ${tenant}::uuid`,
  );
  for (const row of found) {
    ids.set(
      seriesKeyOf({
        typeName: row.type_name as TimeSeriesTypeName,
        entityUuid: row.entity_uuid,
        resolution: row.resolution as Resolution,
      }),
      Number(row.id),
    );
  }
  return ids;
}

/** Column arrays of values to store (one entry per value). */
export class ValueBatch {
  seriesIds: number[] = [];
  starts: string[] = [];
  values: (string | null)[] = [];
  qualities: number[] = [];
  minStart = Infinity;
  maxStart = -Infinity;

  get size(): number {
    return this.seriesIds.length;
  }

  add(seriesId: number, start: string, value: number | null, quality: QualityCode): void {
    this.seriesIds.push(seriesId);
    this.starts.push(start);
    this.values.push(value === null ? null : String(value));
    this.qualities.push(quality);
    const ms = Date.parse(start);
    if (ms < this.minStart) this.minStart = ms;
    if (ms > this.maxStart) this.maxStart = ms;
  }
}

export interface StoreSource {
  dataLogId: number | null;
  username: string;
}

export interface StoreCounts {
  /** Values new to the store. */
  inserted: number;
  /** Values that replaced a different stored value (the old one kept in time_series_value_superseded). */
  superseded: number;
  /** Values equal to what was stored (value and quality): nothing written. */
  unchanged: number;
}

/**
 * Month partitions for the batch's span (migration 0090 rw_ensure_time_series_months). Called per
 * batch rather than remembered: partitions created in a transaction that rolls back are gone again,
 * and the check of an existing month is one catalogue lookup.
 */
async function ensureMonths(ex: Executor, fromMs: number, toMs: number): Promise<void> {
  await ex.execute(
    sql`SELECT rw_ensure_time_series_months(${new Date(fromMs).toISOString()}::timestamptz, ${new Date(toMs).toISOString()}::timestamptz)`,
  );
}

/**
 * Stores a batch: new values are inserted; a value that differs from the stored one (value or
 * quality) moves the stored one to time_series_value_superseded (with the file and user that
 * replaced it) and takes its place; an equal value is left alone. Three statements per batch; the
 * correction statements run only when the batch's series already hold values in its time span.
 */
export async function storeValues(
  ex: Executor,
  tenant: string,
  batch: ValueBatch,
  source: StoreSource,
): Promise<StoreCounts> {
  if (batch.size === 0) return { inserted: 0, superseded: 0, unchanged: 0 };
  await ensureMonths(ex, batch.minStart, batch.maxStart);
  const ids = sql.param(batch.seriesIds);
  const starts = sql.param(batch.starts);
  const values = sql.param(batch.values);
  const qualities = sql.param(batch.qualities);
  const from = new Date(batch.minStart).toISOString();
  const to = new Date(batch.maxStart).toISOString();
  const distinctIds = sql.param([...new Set(batch.seriesIds)]);

  let superseded = 0;
  const [existing] = await rows<{ any: boolean }>(
    ex,
    sql`SELECT EXISTS (SELECT 1 FROM time_series_value
                        WHERE series_id = ANY(${distinctIds}::bigint[])
                          AND start_time BETWEEN ${from}::timestamptz AND ${to}::timestamptz) AS any`,
  );
  if (existing?.any) {
    const [moved] = await rows<{ n: string | number }>(
      ex,
      sql`WITH incoming AS (
            SELECT * FROM unnest(${ids}::bigint[], ${starts}::timestamptz[], ${values}::numeric[], ${qualities}::smallint[])
              AS i(series_id, start_time, value, quality)
          ), replaced AS (
            DELETE FROM time_series_value v USING incoming i
             WHERE v.series_id = i.series_id AND v.start_time = i.start_time
               AND v.start_time BETWEEN ${from}::timestamptz AND ${to}::timestamptz
               AND (v.value IS DISTINCT FROM i.value OR v.quality <> i.quality)
            RETURNING v.*
          ), kept AS (
            INSERT INTO time_series_value_superseded
                   (tenant, series_id, start_time, value, quality, data_log_id, stored_at, superseded_by_data_log_id, superseded_by)
            SELECT tenant, series_id, start_time, value, quality, data_log_id, stored_at, ${source.dataLogId}::bigint, ${source.username}
              FROM replaced
            RETURNING 1
          )
          SELECT count(*) AS n FROM kept`,
    );
    superseded = Number(moved?.n ?? 0);
  }
  const [added] = await rows<{ n: string | number }>(
    ex,
    sql`WITH added AS (
          INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id)
          SELECT ${tenant}::uuid, series_id, start_time, value, quality, ${source.dataLogId}::bigint
            FROM unnest(${ids}::bigint[], ${starts}::timestamptz[], ${values}::numeric[], ${qualities}::smallint[])
              AS i(series_id, start_time, value, quality)
          ON CONFLICT (series_id, start_time) DO NOTHING
          RETURNING 1
        )
        SELECT count(*) AS n FROM added`,
  );
  const inserted = Number(added?.n ?? 0);
  return { inserted: inserted - superseded, superseded, unchanged: batch.size - inserted };
}

/** Column arrays of CEBD positions (one per record). */
export class PositionBatch {
  cps: string[] = [];
  ends: string[] = [];
  lats: (number | null)[] = [];
  lons: (number | null)[] = [];
  systems: string[] = [];

  get size(): number {
    return this.cps.length;
  }

  add(cp: string, periodEnd: string, lat: number | null, lon: number | null, system: string): void {
    this.cps.push(cp);
    this.ends.push(periodEnd);
    this.lats.push(lat);
    this.lons.push(lon);
    this.systems.push(system);
  }
}

/** Stores (or replaces) the position and traction system of CEBD records. */
export async function storePositions(
  ex: Executor,
  tenant: string,
  batch: PositionBatch,
  dataLogId: number | null,
): Promise<void> {
  if (batch.size === 0) return;
  await ex.execute(sql`
    INSERT INTO cebd_position (tenant, consumption_point_uuid, period_end, lat, lon, traction_system, data_log_id)
    SELECT ${tenant}::uuid, c, e, la, lo, s, ${dataLogId}::bigint
      FROM unnest(${sql.param(batch.cps)}::uuid[], ${sql.param(batch.ends)}::timestamptz[],
                  ${sql.param(batch.lats)}::float8[], ${sql.param(batch.lons)}::float8[], ${sql.param(batch.systems)}::text[])
        AS x(c, e, la, lo, s)
    ON CONFLICT ON CONSTRAINT cebd_position_key DO UPDATE
      SET lat = excluded.lat, lon = excluded.lon, traction_system = excluded.traction_system,
          data_log_id = excluded.data_log_id`);
}

export interface StoredValue {
  start: string;
  value: number | null;
  quality: number;
}

/** Current values of one series in [from, to), in time order. */
export async function readValues(
  ex: Executor,
  tenant: string,
  seriesId: number,
  range: { start: string; end: string },
): Promise<StoredValue[]> {
  const found = await rows<{ start_time: Date | string; value: string | null; quality: number }>(
    ex,
    sql`SELECT start_time, value, quality FROM time_series_value
         WHERE tenant = ${tenant}::uuid AND series_id = ${seriesId}
           AND start_time >= ${range.start}::timestamptz AND start_time < ${range.end}::timestamptz
         ORDER BY start_time`,
  );
  return found.map((r) => ({
    start: new Date(r.start_time).toISOString(),
    value: r.value === null ? null : Number(r.value),
    quality: Number(r.quality),
  }));
}
