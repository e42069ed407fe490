import type { TimeSeriesTypeName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { seriesKeyOf, storeBatch, ValueBatch, ensureSeries } from '../timeseries/store.js';

/**
 * calculate-consumption-factor and freight-consumption-factor (DOMAIN.md "Processing" step 5, issue
 * 10 item 1): consumption factors derived from metered runs, stored as the month's parameter values
 * (parameter overview: consumption_factor_trainprofile / consumption_factor_trafficcategory), which
 * the estimation of non-metered runs reads first.
 *
 * factor = sum of the metered energy combine attached to the runs (category 'train-run', consumed
 * minus regenerated) / sum of their gross tonne-km, over the current runs departing in the month
 * (the area's calendar) with attached energy and gross tonne-km above 0, per train profile
 * (calculate-consumption-factor) or traffic category (freight-consumption-factor). A profile with
 * fewer than `minTrainRuns` such runs gets no value (too few to trust); a traffic category without
 * any gets the configuration's default (freight-consumption-factor's defaultKwhPerGrossTonneKm).
 * The value is stored for the month (superseding an earlier one, with the user who ran it).
 *
 * A month is one figure, so a chunk (an area day) computes its whole month: the procedure does it
 * at the last day of each month of the run, and at the run's last day (a run ending mid-month).
 */
export interface FactorResult {
  month: string;
  /** Per entity name: the factor stored, the runs behind it (0: the default). */
  factors: Record<string, { factor: number; runs: number }>;
  /** Entities with runs but fewer than the minimum: no value. */
  tooFew: string[];
}

export async function deriveConsumptionFactors(
  ctx: ServiceContext,
  at: string,
  options: { by: 'trainprofile' | 'trafficcategory'; minTrainRuns: number; defaultFactor?: number },
): Promise<FactorResult> {
  const tenant = ctx.tenant.uuid;
  const zone = ctx.tenant.timeZone;
  const typeName: TimeSeriesTypeName =
    options.by === 'trainprofile' ? 'consumption_factor_trainprofile' : 'consumption_factor_trafficcategory';
  const column = options.by === 'trainprofile' ? sql`r.train_profile_uuid` : sql`r.traffic_category_uuid`;
  const [month] = await rows<{ start: string; end: string }>(
    ctx.db,
    sql`SELECT rw_iso(date_trunc('month', ${at}::timestamptz AT TIME ZONE ${zone}) AT TIME ZONE ${zone}) AS start,
               rw_iso((date_trunc('month', ${at}::timestamptz AT TIME ZONE ${zone}) + interval '1 month') AT TIME ZONE ${zone}) AS end`,
  );
  const found = await rows<{ uuid: string; name: string; runs: number; factor: string | null }>(
    ctx.db,
    sql`WITH metered AS (
          SELECT ${column} AS entity, r.id, r.gross_tonne_km,
                 (SELECT sum(a.active_consumed - a.active_regenerated) FROM allocated_energy_hourly a
                   WHERE a.tenant = r.tenant AND a.train_run_id = r.id AND a.category = 'train-run') AS kwh
            FROM train_run r
           WHERE r.tenant = ${tenant}::uuid AND r.superseded_at IS NULL AND NOT r.deleted
             AND r.departure >= ${month!.start}::timestamptz AND r.departure < ${month!.end}::timestamptz
             AND r.gross_tonne_km > 0 AND ${column} IS NOT NULL
        )
        SELECT e.entity_uuid AS uuid, e.name, count(m.id) FILTER (WHERE m.kwh IS NOT NULL)::int AS runs,
               (sum(m.kwh) FILTER (WHERE m.kwh IS NOT NULL) / nullif(sum(m.gross_tonne_km) FILTER (WHERE m.kwh IS NOT NULL), 0))::text AS factor
          FROM entity_latest e
          LEFT JOIN metered m ON m.entity = e.entity_uuid
         WHERE e.tenant = ${tenant}::uuid AND e.type = ${options.by}
         GROUP BY e.entity_uuid, e.name
         ORDER BY e.name`,
  );
  const result: FactorResult = { month: month!.start, factors: {}, tooFew: [] };
  const chosen: { uuid: string; name: string; factor: number; runs: number }[] = [];
  for (const f of found) {
    if (f.runs > 0 && f.runs >= options.minTrainRuns && f.factor !== null)
      chosen.push({ uuid: f.uuid, name: f.name, factor: Number(f.factor), runs: f.runs });
    else if (f.runs > 0 && f.runs < options.minTrainRuns) result.tooFew.push(f.name);
    else if (f.runs === 0 && options.defaultFactor !== undefined)
      chosen.push({ uuid: f.uuid, name: f.name, factor: options.defaultFactor, runs: 0 });
  }
  if (chosen.length > 0) {
    // The store works in a transaction of its own (savepoints): the chunk's, or one here.
    await ctx.db.transaction(async (tx) => {
      const ids = await ensureSeries(
        tx,
        tenant,
        chosen.map((c) => ({
          typeName,
          entityUuid: c.uuid,
          entityKind: options.by,
          identifier: c.name,
          resolution: 'P1M' as const,
          unit: 'kWh/gtkm',
        })),
      );
      const batch = new ValueBatch();
      for (const c of chosen) {
        batch.add(
          ids.get(seriesKeyOf({ typeName, entityUuid: c.uuid, resolution: 'P1M' }))!,
          Date.parse(month!.start),
          c.factor,
          127,
        );
        result.factors[c.name] = { factor: c.factor, runs: c.runs };
      }
      await storeBatch(tx, tenant, { values: batch }, { dataLogId: null, username: ctx.actor.username });
    });
  }
  return result;
}
