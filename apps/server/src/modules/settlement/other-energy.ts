import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { ensureSeries, type SeriesKey } from '../timeseries/store.js';

/**
 * profile and annual-distribution (DOMAIN.md "Processing" step 6, issue 10 item 1) for one chunk (an
 * area day): the fixed installations' energy (fixed metering points: switch heaters, station
 * supplies) that is read per month or per year, spread over the day's hours as estimated hourly
 * values (quality 56) of the same series type, `fixed_installation_energy` PT1H, which
 * price-and-supply settles as 'other' energy to the point's organisation.
 *
 * - profile: a point's monthly volume (a P1M value) x the profile share of each hour; the profile is
 *   flat over the month's hours (1 / the hours of the month in the area's calendar: 720, 744, or 743
 *   and 745 in the months daylight saving changes), so the hours of the month sum to 1.
 * - annual-distribution: a point's yearly volume (a P1Y value) x the day's share of the year's
 *   heating degree days (the settlement area's degree_days series; a year without any: flat over its
 *   days) / the day's hours: the hours of the year sum to 1.
 * - A measured or uncertain hourly value (quality 127 or 61, from a file) is never replaced: an
 *   estimate only fills or refreshes estimates (quality 56). The estimates are recomputed, not kept
 *   in the superseded history.
 * Set-based: one INSERT ... SELECT ... ON CONFLICT per chunk, after the series are ensured.
 */
export interface OtherEnergyResult {
  /** Fixed metering points with a volume for the day's month or year. */
  points: number;
  /** Hourly values written (hours with a measured value are left alone). */
  hours: number;
  /** kWh estimated for the day. */
  energy: number;
}

export async function distributeFixedVolumes(
  ctx: ServiceContext,
  chunk: { start: string; end: string },
  options: { by: 'month' | 'year'; procedureResultId?: number },
): Promise<OtherEnergyResult> {
  const tenant = ctx.tenant.uuid;
  const zone = ctx.tenant.timeZone;
  const S = sql`${new Date(chunk.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(chunk.end).toISOString()}::timestamptz`;
  const resolution = options.by === 'month' ? 'P1M' : 'P1Y';
  const unit = options.by === 'month' ? 'month' : 'year';
  /** The start of the chunk's month or year in the area's calendar, and the next one. */
  const periodStart = sql`(date_trunc(${unit}, ${S} AT TIME ZONE ${zone}) AT TIME ZONE ${zone})`;
  const periodEnd = sql`((date_trunc(${unit}, ${S} AT TIME ZONE ${zone}) + ${sql.raw(`interval '1 ${unit}'`)}) AT TIME ZONE ${zone})`;

  // The points with a volume for the period, and their hourly series (created when missing).
  const volumes = await rows<{ uuid: string; name: string; volume: string }>(
    ctx.db,
    sql`SELECT f.entity_uuid AS uuid, f.name, v.value::text AS volume
          FROM time_series ts
          JOIN entity_latest f ON f.entity_uuid = ts.entity_uuid AND f.type = 'fixedmeteringpoint'
          JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
         WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'fixed_installation_energy' AND ts.resolution = ${resolution}
           AND v.start_time = ${periodStart} AND v.value IS NOT NULL`,
  );
  if (volumes.length === 0) return { points: 0, hours: 0, energy: 0 };
  const keys: SeriesKey[] = volumes.map((v) => ({
    typeName: 'fixed_installation_energy',
    entityUuid: v.uuid,
    entityKind: 'fixedmeteringpoint',
    identifier: v.name,
    resolution: 'PT1H',
    unit: 'kWh',
  }));
  await ensureSeries(ctx.db, tenant, keys);
  await ctx.db.execute(sql`SELECT rw_ensure_time_series_months(${S}, ${E} - interval '1 microsecond')`);

  /** Each hour's share of the period (the shares of the period's hours sum to 1). */
  const share: SQL =
    options.by === 'month'
      ? sql`1.0 / (extract(epoch FROM ${periodEnd} - ${periodStart}) / 3600)`
      : sql`(SELECT CASE WHEN coalesce(y.total, 0) > 0 THEN coalesce(d.dd, 0) / y.total
                         ELSE 1.0 / (extract(epoch FROM ${periodEnd} - ${periodStart}) / 86400) END
                    / (extract(epoch FROM ((date_trunc('day', h AT TIME ZONE ${zone}) + interval '1 day') AT TIME ZONE ${zone})
                                          - (date_trunc('day', h AT TIME ZONE ${zone}) AT TIME ZONE ${zone})) / 3600)
               FROM (SELECT sum(v.value) AS total FROM time_series s JOIN time_series_value v ON v.series_id = s.id AND v.tenant = s.tenant
                      WHERE s.tenant = ${tenant}::uuid AND s.type_name = 'degree_days'
                        AND v.start_time >= ${periodStart} AND v.start_time < ${periodEnd}) y
               LEFT JOIN LATERAL (
                 SELECT sum(v.value) AS dd FROM time_series s JOIN time_series_value v ON v.series_id = s.id AND v.tenant = s.tenant
                  WHERE s.tenant = ${tenant}::uuid AND s.type_name = 'degree_days'
                    AND v.start_time = (date_trunc('day', h AT TIME ZONE ${zone}) AT TIME ZONE ${zone})) d ON true)`;
  const [written] = await rows<{ hours: number; energy: string | null }>(
    ctx.db,
    sql`WITH volumes AS (
          SELECT f.entity_uuid AS point, v.value AS volume
            FROM time_series ts
            JOIN entity_latest f ON f.entity_uuid = ts.entity_uuid AND f.type = 'fixedmeteringpoint'
            JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
           WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'fixed_installation_energy' AND ts.resolution = ${resolution}
             AND v.start_time = ${periodStart} AND v.value IS NOT NULL
        ), hourly AS (
          SELECT s.id AS series_id, h AS start_time, x.volume * ${share} AS value
            FROM volumes x
            JOIN time_series s ON s.tenant = ${tenant}::uuid AND s.type_name = 'fixed_installation_energy'
             AND s.entity_uuid = x.point AND s.resolution = 'PT1H'
            CROSS JOIN generate_series(${S}, ${E} - interval '1 hour', interval '1 hour') AS h
        ), written AS (
          INSERT INTO time_series_value (tenant, series_id, start_time, value, quality)
          SELECT ${tenant}::uuid, series_id, start_time, value, 56 FROM hourly
          ON CONFLICT (series_id, start_time) DO UPDATE SET value = excluded.value, stored_at = now()
            WHERE time_series_value.quality = 56
          RETURNING value
        )
        SELECT count(*)::int AS hours, sum(value)::text AS energy FROM written`,
  );
  return { points: volumes.length, hours: written?.hours ?? 0, energy: Number(written?.energy ?? 0) };
}
