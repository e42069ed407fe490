import {
  MAX_PARAMETER_MONTHS,
  PARAMETER_TYPE_NAMES,
  TIME_SERIES_TYPES,
  type EntityKind,
  type ParameterInvalidate,
  type ParameterOverview,
  type ParameterSave,
  type ParameterType,
  type TimeSeriesTypeName,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { rows } from '../domain/sql.js';
import { organisationFilter, visibleOrganisations } from '../organisation/visibility.js';
import { storeBatch, ValueBatch, ensureSeries, type SeriesKey } from '../timeseries/store.js';

/**
 * The parameter overview (issue 10 item 1; contracts parameter-overview.ts): monthly values per
 * entity kept in the time-series store, so a change supersedes the stored value with who and when
 * (time_series_value_superseded) like any import, and removing one stores "non-existent" (quality
 * 46) over it. Months follow the area's calendar.
 */

const info = (typeName: TimeSeriesTypeName) => TIME_SERIES_TYPES[typeName];

/** GET /timeseries/parameterOverview/types. */
export const parameterTypes = (): ParameterType[] =>
  PARAMETER_TYPE_NAMES.map((typeName) => ({
    typeName,
    refKind: info(typeName).refKind,
    unit: info(typeName).unit,
    resolution: info(typeName).resolution,
  }));

/** The months [start, end) that overlap the range, in the area's calendar. */
async function monthsOf(ctx: ServiceContext, range: { start: string; end: string }) {
  const zone = ctx.tenant.timeZone;
  const months = await rows<{ start: string; end: string }>(
    ctx.db,
    sql`SELECT rw_iso(m AT TIME ZONE ${zone}) AS start, rw_iso((m + interval '1 month') AT TIME ZONE ${zone}) AS end
          FROM generate_series(date_trunc('month', ${range.start}::timestamptz AT TIME ZONE ${zone}),
                               (${range.end}::timestamptz - interval '1 microsecond') AT TIME ZONE ${zone},
                               interval '1 month') AS m
         LIMIT ${MAX_PARAMETER_MONTHS + 1}`,
  );
  if (months.length > MAX_PARAMETER_MONTHS)
    throw ApiError.badRequest('invalid_input', `At most ${MAX_PARAMETER_MONTHS} months at a time`);
  return months;
}

/** GET /timeseries/parameterOverview: every entity of the type's kind, its value per month. */
export async function parameterOverview(
  ctx: ServiceContext,
  query: { typeName: TimeSeriesTypeName; start: string; end: string },
): Promise<ParameterOverview> {
  const periods = await monthsOf(ctx, query);
  const starts = periods.map((p) => p.start);
  // A parameter per organisation (on-account energy) is that organisation's figure: an actor sees
  // the rows of the organisations it may see (organisation/visibility.ts); other kinds are the area's.
  const kind = info(query.typeName).refKind;
  const visible = kind === 'organisation' ? await visibleOrganisations(ctx) : null;
  const found = await rows<{ uuid: string; name: string; values: (number | null)[] | string }>(
    ctx.db,
    sql`SELECT e.entity_uuid AS uuid, e.name,
               (SELECT json_agg(v.value::float8 ORDER BY m.i)
                       FROM unnest(${sql.param(starts)}::timestamptz[]) WITH ORDINALITY AS m(start, i)
                       LEFT JOIN time_series s ON s.tenant = e.tenant AND s.type_name = ${query.typeName}
                        AND s.entity_uuid = e.entity_uuid AND s.resolution = 'P1M'
                       LEFT JOIN time_series_value v ON v.tenant = e.tenant AND v.series_id = s.id
                        AND v.start_time = m.start AND v.quality <> 46) AS values
          FROM entity_latest e
         WHERE e.tenant = ${ctx.tenant.uuid}::uuid AND e.type = ${kind}
           AND ${organisationFilter(sql`e.entity_uuid`, visible)}
         ORDER BY e.name, e.entity_uuid`,
  );
  const typeLabel = info(query.typeName).refKind;
  return {
    periods,
    rows: found.map((r) => ({
      ref: { uuid: r.uuid, type: typeLabel, name: r.name },
      // json_agg: an array (PostgreSQL's driver parses json) or its text (PGlite's may not).
      values: (typeof r.values === 'string' ? (JSON.parse(r.values) as (number | null)[]) : r.values) ?? [],
    })),
  };
}

/** Stores `value` (or "non-existent" when null) for every month of the range of each ref, in one transaction. */
async function write(
  ctx: ServiceContext,
  request: ParameterInvalidate,
  value: number | null,
): Promise<{ months: number; values: number }> {
  const kind = info(request.typeName).refKind as EntityKind;
  const uuids = [...new Set(request.refs.map((r) => r.uuid.toLowerCase()))];
  return ctx.db.transaction(async (tx) => {
    const entities = await rows<{ uuid: string; name: string }>(
      tx,
      sql`SELECT entity_uuid AS uuid, name FROM entity_latest
           WHERE tenant = ${ctx.tenant.uuid}::uuid AND type = ${kind}
             AND entity_uuid = ANY(${sql.param(uuids)}::uuid[])`,
    );
    if (entities.length !== uuids.length) {
      const known = new Set(entities.map((e) => e.uuid));
      const unknown = uuids.filter((u) => !known.has(u));
      throw ApiError.badRequest('invalid_input', `Not a ${kind} of the area: ${unknown.join(', ')}`);
    }
    const months = await monthsOf({ ...ctx, db: tx }, request.timeRange);
    const keys: SeriesKey[] = entities.map((e) => ({
      typeName: request.typeName,
      entityUuid: e.uuid,
      entityKind: kind,
      identifier: e.name,
      resolution: 'P1M',
      unit: info(request.typeName).unit,
    }));
    const ids = await ensureSeries(tx, ctx.tenant.uuid, keys);
    const batch = new ValueBatch();
    for (const id of ids.values())
      for (const month of months) batch.add(id, Date.parse(month.start), value, value === null ? 46 : 127);
    await storeBatch(tx, ctx.tenant.uuid, { values: batch }, { dataLogId: null, username: ctx.actor.username });
    return { months: months.length, values: batch.size };
  });
}

/** POST /timeseries/parameterOverview. */
export const saveParameter = (ctx: ServiceContext, request: ParameterSave) => write(ctx, request, request.value);

/** POST /timeseries/parameterOverview/invalidate. */
export const invalidateParameter = (ctx: ServiceContext, request: ParameterInvalidate) => write(ctx, request, null);

/**
 * The parameter's value for the month that holds `at`, per entity (for the procedures: the
 * estimation reads the consumption factors here first).
 */
export function parameterAt(typeName: TimeSeriesTypeName, entity: SQL, at: SQL): SQL {
  return sql`(SELECT v.value FROM time_series s JOIN time_series_value v ON v.tenant = s.tenant AND v.series_id = s.id
               WHERE s.type_name = ${typeName} AND s.entity_uuid = ${entity} AND s.resolution = 'P1M'
                 AND v.start_time <= ${at} AND v.quality <> 46 AND v.value IS NOT NULL
               ORDER BY v.start_time DESC LIMIT 1)`;
}
