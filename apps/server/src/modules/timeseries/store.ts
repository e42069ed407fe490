import { sql, type SQL } from 'drizzle-orm';
import type { EntityKind, QualityCode, Resolution, TimeSeriesTypeName } from '@railwatt/contracts';
import { findPgError } from '../../db/constraints.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The time-series store (migration 0090): series, their current values, the values corrections
 * replaced, and CEBD positions. Set-based: every write is one statement over unnest arrays,
 * whatever the row count; callers batch (the intake flushes every VALUE_BATCH rows) and run it all
 * in their transaction, so a file is stored whole or not at all.
 */

/**
 * Values per batch: big enough to amortise a batch's eight round trips (bench/cebd-intake.ts: 20,000
 * gave 44 % of raw COPY's speed, 40,000 51 %), small enough to keep memory flat (the intake holds
 * at most three batches; a day file's peak is the same as half a day's).
 */
export const VALUE_BATCH = 40_000;

/**
 * The batch on the embedded database (PGlite), where each statement runs on the server's one
 * thread and holds its one session: a batch of 40,000 values took 0.6-1 s there, the time /health
 * and every request waited; 8,000 keeps a statement near 0.15 s (db/embedded-session.ts).
 */
export const EMBEDDED_VALUE_BATCH = 8_000;

/** The values per batch on a database of `kind`. */
export const valueBatchFor = (kind: 'pglite' | 'postgres'): number =>
  kind === 'pglite' ? EMBEDDED_VALUE_BATCH : VALUE_BATCH;

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

/**
 * An array parameter written as PostgreSQL's array literal ('{1,2,NULL}'), cast in the statement
 * (`$1::bigint[]`). Joining numbers is much cheaper than the driver's per-element quoting and
 * escaping, which showed in the CEBD intake bench (bench/cebd-intake.ts): a day file sends 12
 * million array elements. Numbers only (JavaScript's own text of a finite number is valid input for
 * bigint, numeric and float8); null is NULL.
 */
const numberArray = (list: readonly (number | null)[]): string =>
  `{${(list.includes(null) ? list.map((n) => n ?? 'NULL') : list).join(',')}}`;
/** The same for text: every element quoted, with `"` and backslash escaped. */
const textArray = (list: readonly string[]): string =>
  `{${list.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
/** Uuids need no quotes (and the store's come from the database, never from a file). */
const uuidArray = (list: readonly string[]): string => `{${list.join(',')}}`;

/**
 * Instants travel as epoch seconds (float8, `to_timestamp`): no ISO string per value in Node, and
 * no timestamptz text parsing per value in PostgreSQL. to_timestamp keeps microseconds, so any
 * millisecond instant arrives exactly.
 */
const epochSeconds = (ms: number): number => ms / 1000;

/** Column arrays of values to store (one entry per value). */
export class ValueBatch {
  seriesIds: number[] = [];
  /** Start of each value's period, epoch seconds. */
  starts: number[] = [];
  values: (number | null)[] = [];
  qualities: number[] = [];
  minStart = Infinity;
  maxStart = -Infinity;

  get size(): number {
    return this.seriesIds.length;
  }

  add(seriesId: number, startMs: number, value: number | null, quality: QualityCode): void {
    this.seriesIds.push(seriesId);
    this.starts.push(epochSeconds(startMs));
    this.values.push(value);
    this.qualities.push(quality);
    if (startMs < this.minStart) this.minStart = startMs;
    if (startMs > this.maxStart) this.maxStart = startMs;
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

/** Months whose partitions one transaction has made sure of (storeBatch; the caller keeps one per transaction). */
export type EnsuredMonths = Set<number>;

const monthOf = (ms: number): number => {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

/**
 * Month partitions for the batch's span (migration 0090 rw_ensure_time_series_months). Remembered
 * only for the transaction (`ensured`): partitions created in a transaction that rolls back are
 * gone again.
 */
async function ensureMonths(ex: Executor, fromMs: number, toMs: number, ensured: EnsuredMonths): Promise<void> {
  const first = monthOf(fromMs);
  const last = monthOf(toMs);
  let known = true;
  for (let m = first; m <= last && known; m++) known = ensured.has(m);
  if (known) return;
  await ex.execute(
    sql`SELECT rw_ensure_time_series_months(${new Date(fromMs).toISOString()}::timestamptz, ${new Date(toMs).toISOString()}::timestamptz)`,
  );
  for (let m = first; m <= last; m++) ensured.add(m);
}

/**
 * Runs `plain` (INSERTs without ON CONFLICT, cheaper per row) under one savepoint and answers true,
 * or, when one hits a unique violation after all (the file repeats a key, or another transaction
 * stored the same key since the caller looked), rolls back to the savepoint and answers false so
 * the caller takes the general path. Only inside the caller's transaction.
 */
async function insertedPlainly(ex: Executor, plain: readonly SQL[]): Promise<boolean> {
  await ex.execute(sql`SAVEPOINT rw_plain_insert`);
  try {
    for (const statement of plain) await ex.execute(statement);
  } catch (error) {
    if (findPgError(error)?.code !== '23505') throw error;
    await ex.execute(sql`ROLLBACK TO SAVEPOINT rw_plain_insert`);
    return false;
  }
  await ex.execute(sql`RELEASE SAVEPOINT rw_plain_insert`);
  return true;
}

/** Column arrays of CEBD positions (one per record). */
export class PositionBatch {
  cps: string[] = [];
  /** Period ends, epoch seconds. */
  ends: number[] = [];
  lats: (number | null)[] = [];
  lons: (number | null)[] = [];
  systems: string[] = [];
  minEnd = Infinity;
  maxEnd = -Infinity;

  get size(): number {
    return this.cps.length;
  }

  add(cp: string, periodEndMs: number, lat: number | null, lon: number | null, system: string): void {
    this.cps.push(cp);
    this.ends.push(epochSeconds(periodEndMs));
    this.lats.push(lat);
    this.lons.push(lon);
    this.systems.push(system);
    if (periodEndMs < this.minEnd) this.minEnd = periodEndMs;
    if (periodEndMs > this.maxEnd) this.maxEnd = periodEndMs;
  }
}

const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * Stores a batch of values and CEBD positions, in the caller's transaction. New values are
 * inserted; a value that differs from the stored one (value or quality) moves the stored one to
 * time_series_value_superseded (with the file and user that replaced it) and takes its place; an
 * equal value is left alone. A position replaces the stored one of its record.
 *
 * The usual case (a new day of a file: the batch's series and consumption points hold nothing in
 * its time span, one statement asks) takes a plain INSERT per table under one savepoint: no
 * correction statements, no ON CONFLICT probe per row, and few round trips, which matters because
 * the intake overlaps parsing with storing and every round trip waits for the parser's turn
 * (bench/cebd-intake.ts). A unique violation there (a key repeated in the file, a concurrent
 * import) rolls back to the savepoint and takes the general path.
 */
export async function storeBatch(
  ex: Executor,
  tenant: string,
  batch: { values: ValueBatch; positions: PositionBatch },
  source: StoreSource,
  ensured: EnsuredMonths = new Set(),
): Promise<StoreCounts> {
  const { values, positions } = batch;
  if (values.size === 0 && positions.size === 0) return { inserted: 0, superseded: 0, unchanged: 0 };
  if (values.size > 0) await ensureMonths(ex, values.minStart, values.maxStart, ensured);
  const from = isoOf(values.minStart);
  const to = isoOf(values.maxStart);
  const incoming = sql`unnest(${numberArray(values.seriesIds)}::bigint[], ${numberArray(values.starts)}::float8[],
                              ${numberArray(values.values)}::numeric[], ${numberArray(values.qualities)}::smallint[])
                         AS i(series_id, epoch, value, quality)`;
  const valuesHeld =
    values.size > 0
      ? sql`EXISTS (SELECT 1 FROM time_series_value
                     WHERE series_id = ANY(${numberArray([...new Set(values.seriesIds)])}::bigint[])
                       AND start_time BETWEEN ${from}::timestamptz AND ${to}::timestamptz)`
      : sql`false`;
  const positionsHeld =
    positions.size > 0
      ? sql`EXISTS (SELECT 1 FROM cebd_position
                     WHERE consumption_point_uuid = ANY(${uuidArray([...new Set(positions.cps)])}::uuid[])
                       AND period_end BETWEEN ${isoOf(positions.minEnd)}::timestamptz AND ${isoOf(positions.maxEnd)}::timestamptz)`
      : sql`false`;
  const insertValues = sql`INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id)
    SELECT ${tenant}::uuid, series_id, to_timestamp(epoch), value, quality, ${source.dataLogId}::bigint FROM ${incoming}`;
  const insertPositions = sql`
    INSERT INTO cebd_position (tenant, consumption_point_uuid, period_end, lat, lon, traction_system, data_log_id)
    SELECT ${tenant}::uuid, c, to_timestamp(e), la, lo, s, ${source.dataLogId}::bigint
      FROM unnest(${uuidArray(positions.cps)}::uuid[], ${numberArray(positions.ends)}::float8[],
                  ${numberArray(positions.lats)}::float8[], ${numberArray(positions.lons)}::float8[],
                  ${textArray(positions.systems)}::text[]) AS x(c, e, la, lo, s)`;

  const [held] = await rows<{ values: boolean; positions: boolean }>(
    ex,
    sql`SELECT ${valuesHeld} AS values, ${positionsHeld} AS positions`,
  );
  if (!held?.values && !held?.positions) {
    const plain = [...(values.size > 0 ? [insertValues] : []), ...(positions.size > 0 ? [insertPositions] : [])];
    if (await insertedPlainly(ex, plain)) return { inserted: values.size, superseded: 0, unchanged: 0 };
  }

  let counts: StoreCounts = { inserted: 0, superseded: 0, unchanged: 0 };
  if (values.size > 0) {
    const [moved] = await rows<{ n: string | number }>(
      ex,
      sql`WITH incoming AS (
            SELECT series_id, to_timestamp(epoch) AS start_time, value, quality FROM ${incoming}
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
    const superseded = Number(moved?.n ?? 0);
    const [added] = await rows<{ n: string | number }>(
      ex,
      sql`WITH added AS (${insertValues} ON CONFLICT (series_id, start_time) DO NOTHING RETURNING 1)
          SELECT count(*) AS n FROM added`,
    );
    const inserted = Number(added?.n ?? 0);
    counts = { inserted: inserted - superseded, superseded, unchanged: values.size - inserted };
  }
  if (positions.size > 0) {
    await ex.execute(sql`${insertPositions}
      ON CONFLICT ON CONSTRAINT cebd_position_key DO UPDATE
        SET lat = excluded.lat, lon = excluded.lon, traction_system = excluded.traction_system,
            data_log_id = excluded.data_log_id`);
  }
  return counts;
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
