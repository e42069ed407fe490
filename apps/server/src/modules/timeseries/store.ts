import { sql, type SQL } from 'drizzle-orm';
import type { EntityKind, QualityCode, Resolution, TimeSeriesTypeName } from '@railwatt/contracts';
import { findPgError } from '../../db/constraints.js';
import type { CebdRecord } from '../../formats/timeseries/format.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The time-series store (migration 0090): series, their current values, the values corrections
 * replaced; and CEBD records, one row each (migration 0370 cebd_record). Set-based: every write is
 * one statement over unnest arrays, whatever the row count; callers batch (the intake flushes every VALUE_BATCH rows) and run it all
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

/** Months whose partitions one transaction has made sure of, per table (storeBatch; the caller keeps one per transaction). */
export type EnsuredMonths = Set<string>;

const monthOf = (ms: number): number => {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

/**
 * Month partitions for the batch's span (migration 0090 rw_ensure_time_series_months for values,
 * 0370 rw_ensure_cebd_record_months for CEBD records). Remembered only for the transaction
 * (`ensured`): partitions created in a transaction that rolls back are gone again.
 */
async function ensureMonths(
  ex: Executor,
  table: 'values' | 'records',
  fromMs: number,
  toMs: number,
  ensured: EnsuredMonths,
): Promise<void> {
  const first = monthOf(fromMs);
  const last = monthOf(toMs);
  let known = true;
  for (let m = first; m <= last && known; m++) known = ensured.has(`${table}:${m}`);
  if (known) return;
  const span = sql`${new Date(fromMs).toISOString()}::timestamptz, ${new Date(toMs).toISOString()}::timestamptz`;
  await ex.execute(
    table === 'values'
      ? sql`SELECT rw_ensure_time_series_months(${span})`
      : sql`SELECT rw_ensure_cebd_record_months(${span})`,
  );
  for (let m = first; m <= last; m++) ensured.add(`${table}:${m}`);
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

/** Column arrays of CEBD records (one entry per 5-minute record, migration 0370 cebd_record). */
export class RecordBatch {
  cps: string[] = [];
  /** Period ends, epoch seconds. */
  ends: number[] = [];
  activeConsumed: (number | null)[] = [];
  activeRegenerated: (number | null)[] = [];
  reactiveConsumed: (number | null)[] = [];
  reactiveRegenerated: (number | null)[] = [];
  qualities: number[] = [];
  lats: (number | null)[] = [];
  lons: (number | null)[] = [];
  systems: string[] = [];
  minEnd = Infinity;
  maxEnd = -Infinity;

  get size(): number {
    return this.cps.length;
  }

  /** One record of a consumption point, its period end as epoch milliseconds (parsed once by the caller). */
  add(cp: string, periodEndMs: number, record: Omit<CebdRecord, 'periodEnd'>): void {
    this.cps.push(cp);
    this.ends.push(epochSeconds(periodEndMs));
    this.activeConsumed.push(record.activeConsumed);
    this.activeRegenerated.push(record.activeRegenerated);
    this.reactiveConsumed.push(record.reactiveConsumed);
    this.reactiveRegenerated.push(record.reactiveRegenerated);
    this.qualities.push(record.quality);
    this.lats.push(record.lat);
    this.lons.push(record.lon);
    this.systems.push(record.tractionSystem);
    if (periodEndMs < this.minEnd) this.minEnd = periodEndMs;
    if (periodEndMs > this.maxEnd) this.maxEnd = periodEndMs;
  }
}

/** The values a CEBD record stands for in the store's counts and the data log's texts (its four energies). */
export const VALUES_PER_RECORD = 4;

const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * Stores a batch of values and CEBD records, in the caller's transaction.
 *
 * Values: new ones are inserted; a value that differs from the stored one (value or quality) moves
 * the stored one to time_series_value_superseded (with the file and user that replaced it) and
 * takes its place; an equal value is left alone.
 *
 * CEBD records (one cebd_record row each, storeRecords): the same rule per record, its columns
 * being the four energies, quality, position and traction system; a replaced record goes to
 * cebd_record_superseded, and its new row is unchecked (codes NULL: cebd-preprocessing judges it
 * again). A record that arrives again from another file marks the row `duplicate` (equal or not;
 * the same data-log entry imported again is not another file).
 *
 * The usual case (a new day of a file: the batch's series and consumption points hold nothing in
 * its time span, one statement asks) takes a plain INSERT per table under one savepoint: no
 * correction statements, no ON CONFLICT probe per row, and few round trips, which matters because
 * the intake overlaps parsing with storing and every round trip waits for the parser's turn
 * (bench/cebd-intake.ts). A unique violation there (a key repeated in the file, a concurrent
 * import) rolls back to the savepoint and takes the general path.
 *
 * Counts are of values, a record counting as its four energies (a corrected record counts the
 * energies that changed, all four when its quality did), so a data-log text reads as it did when
 * each energy was a row of its own.
 */
export async function storeBatch(
  ex: Executor,
  tenant: string,
  batch: { values?: ValueBatch; records?: RecordBatch },
  source: StoreSource,
  ensured: EnsuredMonths = new Set(),
): Promise<StoreCounts> {
  const values = batch.values ?? new ValueBatch();
  const records = batch.records ?? new RecordBatch();
  if (values.size === 0 && records.size === 0) return { inserted: 0, superseded: 0, unchanged: 0 };
  if (values.size > 0) await ensureMonths(ex, 'values', values.minStart, values.maxStart, ensured);
  if (records.size > 0) await ensureMonths(ex, 'records', records.minEnd, records.maxEnd, ensured);
  const from = values.size > 0 ? isoOf(values.minStart) : null;
  const to = values.size > 0 ? isoOf(values.maxStart) : null;
  const incoming = sql`unnest(${numberArray(values.seriesIds)}::bigint[], ${numberArray(values.starts)}::float8[],
                              ${numberArray(values.values)}::numeric[], ${numberArray(values.qualities)}::smallint[])
                         AS i(series_id, epoch, value, quality)`;
  const valuesHeld =
    values.size > 0
      ? sql`EXISTS (SELECT 1 FROM time_series_value
                     WHERE series_id = ANY(${numberArray([...new Set(values.seriesIds)])}::bigint[])
                       AND start_time BETWEEN ${from}::timestamptz AND ${to}::timestamptz)`
      : sql`false`;
  // By the key's period range (tenant, period_end, ...): a new day holds nothing, whatever the points.
  const recordsHeld =
    records.size > 0
      ? sql`EXISTS (SELECT 1 FROM cebd_record
                     WHERE tenant = ${tenant}::uuid
                       AND period_end BETWEEN ${isoOf(records.minEnd)}::timestamptz AND ${isoOf(records.maxEnd)}::timestamptz
                       AND consumption_point_uuid = ANY(${uuidArray([...new Set(records.cps)])}::uuid[]))`
      : sql`false`;
  const insertValues = sql`INSERT INTO time_series_value (tenant, series_id, start_time, value, quality, data_log_id)
    SELECT ${tenant}::uuid, series_id, to_timestamp(epoch), value, quality, ${source.dataLogId}::bigint FROM ${incoming}`;
  const incomingRecords = sql`unnest(${uuidArray(records.cps)}::uuid[], ${numberArray(records.ends)}::float8[],
                  ${numberArray(records.activeConsumed)}::numeric[], ${numberArray(records.activeRegenerated)}::numeric[],
                  ${numberArray(records.reactiveConsumed)}::numeric[], ${numberArray(records.reactiveRegenerated)}::numeric[],
                  ${numberArray(records.qualities)}::smallint[], ${numberArray(records.lats)}::float8[],
                  ${numberArray(records.lons)}::float8[], ${textArray(records.systems)}::text[])
             AS i(cp, epoch, ac, ar, rc, rr, quality, lat, lon, system)`;
  const insertRecords = sql`
    INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated,
                             reactive_consumed, reactive_regenerated, quality, lat, lon, traction_system, data_log_id)
    SELECT ${tenant}::uuid, cp, to_timestamp(epoch), ac, ar, rc, rr, quality, lat, lon, system, ${source.dataLogId}::bigint
      FROM ${incomingRecords}`;

  const [held] = await rows<{ values: boolean; records: boolean }>(
    ex,
    sql`SELECT ${valuesHeld} AS values, ${recordsHeld} AS records`,
  );
  if (!held?.values && !held?.records) {
    const plain = [...(values.size > 0 ? [insertValues] : []), ...(records.size > 0 ? [insertRecords] : [])];
    if (await insertedPlainly(ex, plain)) {
      return { inserted: values.size + records.size * VALUES_PER_RECORD, superseded: 0, unchanged: 0 };
    }
  }

  const counts: StoreCounts = { inserted: 0, superseded: 0, unchanged: 0 };
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
    counts.inserted += inserted - superseded;
    counts.superseded += superseded;
    counts.unchanged += values.size - inserted;
  }
  if (records.size > 0) {
    const stored = await storeRecords(ex, tenant, records, incomingRecords, insertRecords, source);
    counts.inserted += stored.inserted;
    counts.superseded += stored.superseded;
    counts.unchanged += stored.unchanged;
  }
  return counts;
}

/**
 * The general path for CEBD records (some of the batch's keys may be stored): one UPDATE for the
 * stored ones that differ or came from another file, whose old columns go to cebd_record_superseded
 * in the same statement (the UPDATE's FROM reads the row as it was; RETURNING hands it on), then an
 * INSERT ... ON CONFLICT DO NOTHING for the new ones. A row is updated in place rather than deleted
 * and inserted again: one new tuple, and the key's index entries stay where they are.
 */
async function storeRecords(
  ex: Executor,
  tenant: string,
  records: RecordBatch,
  incomingRecords: SQL,
  insertRecords: SQL,
  source: StoreSource,
): Promise<StoreCounts> {
  const dl = sql`${source.dataLogId}::bigint`;
  const differs = (o: string) => sql`(${sql.raw(o)}.active_consumed IS DISTINCT FROM x.ac
    OR ${sql.raw(o)}.active_regenerated IS DISTINCT FROM x.ar OR ${sql.raw(o)}.reactive_consumed IS DISTINCT FROM x.rc
    OR ${sql.raw(o)}.reactive_regenerated IS DISTINCT FROM x.rr OR ${sql.raw(o)}.quality <> x.quality
    OR ${sql.raw(o)}.lat IS DISTINCT FROM x.lat OR ${sql.raw(o)}.lon IS DISTINCT FROM x.lon
    OR ${sql.raw(o)}.traction_system IS DISTINCT FROM x.system)`;
  // The energies a correction changed, for the counts (all four when the quality changed).
  const changedValues = sql`CASE WHEN o.quality <> x.quality THEN 4 ELSE
      (o.active_consumed IS DISTINCT FROM x.ac)::int + (o.active_regenerated IS DISTINCT FROM x.ar)::int
    + (o.reactive_consumed IS DISTINCT FROM x.rc)::int + (o.reactive_regenerated IS DISTINCT FROM x.rr)::int END`;
  const [moved] = await rows<{ records: string | number; values: string | number }>(
    ex,
    sql`WITH incoming AS (
          SELECT DISTINCT ON (cp, epoch) cp, to_timestamp(epoch) AS period_end, ac, ar, rc, rr, quality, lat, lon, system
            FROM ${incomingRecords}
           ORDER BY cp, epoch
        ), matched AS (
          SELECT x.*, o.active_consumed AS o_ac, o.active_regenerated AS o_ar, o.reactive_consumed AS o_rc,
                 o.reactive_regenerated AS o_rr, o.quality AS o_quality, o.lat AS o_lat, o.lon AS o_lon,
                 o.traction_system AS o_system, o.data_log_id AS o_dl, o.stored_at AS o_stored_at,
                 ${differs('o')} AS differs, ${changedValues} AS changed_values
            FROM incoming x
            JOIN cebd_record o ON o.tenant = ${tenant}::uuid AND o.period_end = x.period_end
                              AND o.consumption_point_uuid = x.cp
                              AND o.period_end BETWEEN ${isoOf(records.minEnd)}::timestamptz AND ${isoOf(records.maxEnd)}::timestamptz
           WHERE ${differs('o')} OR (o.data_log_id IS DISTINCT FROM ${dl} AND NOT o.duplicate)
        ), updated AS (
          UPDATE cebd_record r
             SET active_consumed = CASE WHEN m.differs THEN m.ac ELSE r.active_consumed END,
                 active_regenerated = CASE WHEN m.differs THEN m.ar ELSE r.active_regenerated END,
                 reactive_consumed = CASE WHEN m.differs THEN m.rc ELSE r.reactive_consumed END,
                 reactive_regenerated = CASE WHEN m.differs THEN m.rr ELSE r.reactive_regenerated END,
                 quality = CASE WHEN m.differs THEN m.quality ELSE r.quality END,
                 lat = CASE WHEN m.differs THEN m.lat ELSE r.lat END,
                 lon = CASE WHEN m.differs THEN m.lon ELSE r.lon END,
                 traction_system = CASE WHEN m.differs THEN m.system ELSE r.traction_system END,
                 data_log_id = CASE WHEN m.differs THEN ${dl} ELSE r.data_log_id END,
                 stored_at = CASE WHEN m.differs THEN now() ELSE r.stored_at END,
                 -- New values are not checked yet; placement and codes are decided again.
                 checked_at = CASE WHEN m.differs THEN NULL ELSE r.checked_at END,
                 traction_unit_uuid = CASE WHEN m.differs THEN NULL ELSE r.traction_unit_uuid END,
                 grid_area_uuid = CASE WHEN m.differs THEN NULL ELSE r.grid_area_uuid END,
                 price_area_uuid = CASE WHEN m.differs THEN NULL ELSE r.price_area_uuid END,
                 codes = CASE WHEN m.differs THEN NULL ELSE r.codes END,
                 run_id = CASE WHEN m.differs THEN NULL ELSE r.run_id END,
                 duplicate = r.duplicate OR m.o_dl IS DISTINCT FROM ${dl}
            FROM matched m
           WHERE r.tenant = ${tenant}::uuid AND r.period_end = m.period_end AND r.consumption_point_uuid = m.cp
             AND r.period_end BETWEEN ${isoOf(records.minEnd)}::timestamptz AND ${isoOf(records.maxEnd)}::timestamptz
          RETURNING m.*
        ), kept AS (
          INSERT INTO cebd_record_superseded
                 (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated, reactive_consumed,
                  reactive_regenerated, quality, lat, lon, traction_system, data_log_id, stored_at,
                  superseded_by_data_log_id, superseded_by)
          SELECT ${tenant}::uuid, cp, period_end, o_ac, o_ar, o_rc, o_rr, o_quality, o_lat, o_lon, o_system, o_dl,
                 o_stored_at, ${dl}, ${source.username}
            FROM updated WHERE differs
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM kept) AS records,
               (SELECT coalesce(sum(changed_values), 0) FROM updated WHERE differs) AS values`,
  );
  const [added] = await rows<{ n: string | number }>(
    ex,
    sql`WITH added AS (${insertRecords} ON CONFLICT (tenant, period_end, consumption_point_uuid) DO NOTHING RETURNING 1)
        SELECT count(*) AS n FROM added`,
  );
  const superseded = Number(moved?.values ?? 0);
  const inserted = Number(added?.n ?? 0) * VALUES_PER_RECORD;
  return { inserted, superseded, unchanged: records.size * VALUES_PER_RECORD - inserted - superseded };
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
