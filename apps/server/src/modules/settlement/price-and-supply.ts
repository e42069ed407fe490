import type { ProcessEventCode, Severity } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { sumsOfChunk } from '../processing/allocated-energy.js';
import { rows, segmentValidAt } from '../domain/sql.js';

/**
 * price-and-supply (DOMAIN.md "Processing" step 7, issue 10 item 2) for one chunk (an area day):
 * the day's hours [start, end) balanced per grid area and priced: a few set-based statements per
 * chunk (two DELETEs, four INSERT ... SELECT, two UPDATEs), whatever the number of records.
 *
 * - Metered energy: `allocated_energy_hourly` (every allocation category: train run, shunting and
 *   stabling, outside a train run; sums per hour of the records' periods, migration 0380) of records
 *   whose period ends in (start, end], per hour, grid area, price area and paying organisation;
 *   energy = consumed minus regenerated (the same reading as settledConsumption).
 * - Supply: the `supply_energy` series of the grid area's supply metering points (their
 *   gridAreaRef), summed per hour; finer values (15 minutes) add up to their hour.
 * - Losses per grid area and hour = supply - allocated. They are shared out pro rata to the
 *   organisations' metered and estimated energy in that grid area and hour, times lossSharePercent / 100 (the
 *   configuration; the rest stays with the infrastructure manager). An hour with energy but no supply
 *   value has no losses and is reported ('supply-missing'); supply below the allocated energy gives
 *   negative losses, kept (the balance still closes) and reported ('supply-lower-than-allocated').
 * - Price: the hour's `spot_price` of the grid area's price area (EUR/MWh) times the area's
 *   `currency_exchange_rate` for the hour (currency per EUR; 1 where the area has none: it settles
 *   in EUR). Metered energy and the losses are charged at it; cost = kWh / 1000 x price. An hour
 *   without a spot price keeps its energy with no price and no cost ('spot-price-missing').
 * - Other energy: the fixed installations' hourly energy (fixed_installation_energy of the fixed
 *   metering points with an organisation, metered or spread by profile and annual-distribution,
 *   other-energy.ts), priced like metered energy.
 * - Estimated energy of non-metered runs (estimation.ts, `estimated_energy`) joins the balance and
 *   the losses' shares like metered energy, and is priced at the average price of what remains
 *   (supply beyond the metered energy) in its price area over the chunk's hours.
 *
 * Master data is read as it was at each value's time (the current segment valid then): a supply or
 * fixed metering point moved to another grid area, or a grid area moved to another price area,
 * keeps its earlier hours where they were.
 */

export const PRICE_AND_SUPPLY_CODES = [
  'supply-missing',
  'spot-price-missing',
  'supply-lower-than-allocated',
] as const satisfies readonly ProcessEventCode[];
export type PriceAndSupplyCode = (typeof PRICE_AND_SUPPLY_CODES)[number];

/** HIGH: money is missing from the settlement (no price) or the balance cannot be checked (no supply). */
export const PRICE_AND_SUPPLY_SEVERITY: Record<PriceAndSupplyCode, Severity> = {
  'supply-missing': 'HIGH',
  'spot-price-missing': 'HIGH',
  'supply-lower-than-allocated': 'MEDIUM',
};

export interface PriceAndSupplyResult {
  /** Grid-area hours balanced. */
  gridHours: number;
  /** kWh: metered energy priced, supply, losses (all grid areas of the chunk). */
  metered: number;
  supply: number;
  losses: number;
  /** Grid-area hours per code (a grid area and hour counted once per code). */
  events: Record<PriceAndSupplyCode, { incidents: number; examples: string[] }>;
}

/** Balances and prices the hours [chunk.start, chunk.end). */
export async function priceAndSupply(
  ctx: ServiceContext,
  chunk: { start: string; end: string },
  options: { lossSharePercent: number; procedureResultId?: number },
): Promise<PriceAndSupplyResult> {
  const tenant = ctx.tenant.uuid;
  const start = new Date(chunk.start).toISOString();
  const end = new Date(chunk.end).toISOString();
  if (!(start < end)) throw new Error(`Empty chunk ${chunk.start} .. ${chunk.end}`);
  const S = sql`${start}::timestamptz`;
  const E = sql`${end}::timestamptz`;
  const share = sql`(${options.lossSharePercent}::numeric / 100)`;
  const resultId = sql`${options.procedureResultId ?? null}::bigint`;

  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    // The chunk's allocated sums grouped in memory: with the default 4 MB the grouping of a day's
    // records (1,000 units: 288,000, before they were summed by the allocation) sorted on disk
    // (bench/settlement.ts).
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(
      sql`DELETE FROM priced_energy WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}`,
    );
    await tx.execute(
      sql`DELETE FROM supply_balance WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}`,
    );

    // 1. The metered energy per hour, grid area and organisation, into priced_energy (unpriced yet).
    await tx.execute(sql`
      INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                 energy_kwh, procedure_result_id)
      SELECT ${tenant}::uuid, a.hour_start, a.grid_area_uuid,
             min(a.price_area_uuid::text)::uuid, a.organisation_uuid, 'metered',
             sum(a.active_consumed - a.active_regenerated), ${resultId}
        FROM allocated_energy_hourly a
       WHERE ${sumsOfChunk(tenant, S, E)}
         AND a.organisation_uuid IS NOT NULL AND a.grid_area_uuid IS NOT NULL AND a.price_area_uuid IS NOT NULL
       GROUP BY 2, 3, 5`);
    // ... and the estimated energy of non-metered runs (estimated_energy), per hour, grid area and RU.
    await tx.execute(sql`
      INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                 energy_kwh, procedure_result_id)
      SELECT ${tenant}::uuid, x.hour_start, x.grid_area_uuid, min(x.price_area_uuid::text)::uuid, x.organisation_uuid,
             'estimated', sum(x.energy_kwh), ${resultId}
        FROM estimated_energy x
       WHERE x.tenant = ${tenant}::uuid AND x.hour_start >= ${S} AND x.hour_start < ${E}
       GROUP BY x.hour_start, x.grid_area_uuid, x.organisation_uuid`);

    // ... and the fixed installations' energy ('other': fixed_installation_energy of the fixed
    // metering points, metered or spread by profile and annual-distribution), hourly or finer, to the
    // point's organisation; points without one or excluded from settlement are not billed.
    await tx.execute(sql`
      INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                 energy_kwh, procedure_result_id)
      SELECT ${tenant}::uuid, date_trunc('hour', v.start_time, 'UTC'), g.entity_uuid,
             min(g.attributes ->> 'priceAreaRef')::uuid, rw_uuid(f.attributes ->> 'organisationRef'), 'other',
             sum(v.value), ${resultId}
        FROM time_series ts
        JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
        JOIN entity_segment f ON f.entity_uuid = ts.entity_uuid AND f.tenant = ts.tenant AND f.type = 'fixedmeteringpoint'
         AND ${segmentValidAt('f', sql`v.start_time`)}
        JOIN entity_segment g ON g.entity_uuid = rw_uuid(f.attributes ->> 'gridAreaRef') AND g.tenant = ts.tenant
         AND ${segmentValidAt('g', sql`v.start_time`)}
       WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'fixed_installation_energy' AND ts.resolution IN ('PT1H', 'PT15M')
         AND v.start_time >= ${S} AND v.start_time < ${E} AND v.value IS NOT NULL
         AND rw_uuid(f.attributes ->> 'organisationRef') IS NOT NULL
         AND coalesce(f.attributes ->> 'excludedFromSettlement', 'false') <> 'true'
         AND g.attributes ->> 'priceAreaRef' IS NOT NULL
       GROUP BY 2, 3, 5`);

    // 2. The balance per grid area and hour: supply, allocated, losses, the hour's price and rate.
    await tx.execute(sql`
      WITH supply AS (
        SELECT rw_uuid(l.attributes ->> 'gridAreaRef') AS grid, date_trunc('hour', v.start_time, 'UTC') AS hour,
               sum(v.value) AS kwh
          FROM time_series ts
          JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
          JOIN entity_segment l ON l.entity_uuid = ts.entity_uuid AND l.tenant = ts.tenant
           AND ${segmentValidAt('l', sql`v.start_time`)}
         WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'supply_energy'
           AND v.start_time >= ${S} AND v.start_time < ${E} AND v.value IS NOT NULL
           AND l.attributes ->> 'gridAreaRef' IS NOT NULL
         GROUP BY 1, 2
      ), allocated AS (
        SELECT grid_area_uuid AS grid, hour_start AS hour, min(price_area_uuid::text)::uuid AS price_area,
               sum(energy_kwh) AS kwh
          FROM priced_energy
         WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}
         GROUP BY 1, 2
      ), grids AS (
        SELECT l.entity_uuid AS grid, l.valid, rw_uuid(l.attributes ->> 'priceAreaRef') AS price_area
          FROM entity_segment l
         WHERE l.tenant = ${tenant}::uuid AND l.type = 'gridarea' AND l.superseded_at IS NULL
           AND l.valid && tstzrange(${S}, ${E})
      ), hours AS (
        SELECT coalesce(s.grid, a.grid) AS grid, coalesce(s.hour, a.hour) AS hour,
               coalesce(a.price_area, g.price_area) AS price_area,
               s.kwh AS supply, coalesce(a.kwh, 0) AS allocated
          FROM supply s FULL JOIN allocated a ON a.grid = s.grid AND a.hour = s.hour
          LEFT JOIN grids g ON g.grid = coalesce(s.grid, a.grid) AND g.valid @> coalesce(s.hour, a.hour)
      ), prices AS (
        SELECT ts.entity_uuid AS price_area, date_trunc('hour', v.start_time, 'UTC') AS hour, avg(v.value) AS eur_mwh
          FROM time_series ts JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
         WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'spot_price'
           AND v.start_time >= ${S} AND v.start_time < ${E} AND v.value IS NOT NULL
         GROUP BY 1, 2
      ), rates AS (
        SELECT date_trunc('hour', v.start_time, 'UTC') AS hour, avg(v.value) AS rate
          FROM time_series ts JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
         WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'currency_exchange_rate'
           AND v.start_time >= ${S} AND v.start_time < ${E} AND v.value IS NOT NULL
         GROUP BY 1
      )
      INSERT INTO supply_balance (tenant, hour_start, grid_area_uuid, price_area_uuid, supply_kwh, allocated_kwh,
                                  losses_kwh, spot_price_eur_mwh, exchange_rate, procedure_result_id, supply_missing)
      SELECT ${tenant}::uuid, h.hour, h.grid, h.price_area, coalesce(h.supply, 0), h.allocated,
             CASE WHEN h.supply IS NULL THEN 0 ELSE h.supply - h.allocated END,
             p.eur_mwh, coalesce(r.rate, 1), ${resultId}, h.supply IS NULL
        FROM hours h
        LEFT JOIN prices p ON p.price_area = h.price_area AND p.hour = h.hour
        LEFT JOIN rates r ON r.hour = h.hour
       WHERE h.price_area IS NOT NULL`);

    // 3. The losses shared out pro rata, then every priced_energy row of the chunk priced.
    await tx.execute(sql`
      INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                 energy_kwh, procedure_result_id)
      SELECT ${tenant}::uuid, m.hour_start, m.grid_area_uuid, min(m.price_area_uuid::text)::uuid, m.organisation_uuid,
             'losses', sum(b.losses_kwh * ${share} * m.energy_kwh / b.allocated_kwh), ${resultId}
        FROM priced_energy m
        JOIN supply_balance b ON b.tenant = m.tenant AND b.hour_start = m.hour_start AND b.grid_area_uuid = m.grid_area_uuid
       WHERE m.tenant = ${tenant}::uuid AND m.hour_start >= ${S} AND m.hour_start < ${E}
         AND m.category IN ('metered', 'estimated', 'other')
         AND b.allocated_kwh <> 0 AND b.losses_kwh <> 0
       -- An organisation's share over its metered, estimated and other energy of the hour together.
       GROUP BY m.hour_start, m.grid_area_uuid, m.organisation_uuid`);
    // Metered energy and losses at the hour's spot price.
    await tx.execute(sql`
      UPDATE priced_energy e
         SET price = b.spot_price_eur_mwh * b.exchange_rate,
             cost = e.energy_kwh / 1000 * b.spot_price_eur_mwh * b.exchange_rate
        FROM supply_balance b
       WHERE e.tenant = ${tenant}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E} AND e.category <> 'estimated'
         AND b.tenant = e.tenant AND b.hour_start = e.hour_start AND b.grid_area_uuid = e.grid_area_uuid`);
    // Estimated energy at the average price of what remains in its price area over the chunk's hours:
    // what the supply delivered beyond the metered energy (supply - metered, 0 at least) weighted by
    // the hour's price. Our reading of "the average price of what remains" (DOMAIN.md step 7), per
    // area day because a chunk is a day: a day without remaining supply takes the day's plain
    // average spot price, a day without prices none.
    await tx.execute(sql`
      WITH metered AS (
        SELECT hour_start, grid_area_uuid, sum(energy_kwh) AS kwh FROM priced_energy
         WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E} AND category = 'metered'
         GROUP BY 1, 2
      ), remaining AS (
        SELECT b.price_area_uuid AS pa,
               sum(greatest(b.supply_kwh - coalesce(m.kwh, 0), 0) * b.spot_price_eur_mwh * b.exchange_rate)
                 FILTER (WHERE b.spot_price_eur_mwh IS NOT NULL) AS weighted,
               sum(greatest(b.supply_kwh - coalesce(m.kwh, 0), 0)) FILTER (WHERE b.spot_price_eur_mwh IS NOT NULL) AS kwh,
               avg(b.spot_price_eur_mwh * b.exchange_rate) AS plain
          FROM supply_balance b
          LEFT JOIN metered m ON m.hour_start = b.hour_start AND m.grid_area_uuid = b.grid_area_uuid
         WHERE b.tenant = ${tenant}::uuid AND b.hour_start >= ${S} AND b.hour_start < ${E}
         GROUP BY 1
      ), average AS (
        SELECT pa, CASE WHEN kwh > 0 THEN weighted / kwh ELSE plain END AS price FROM remaining
      )
      UPDATE priced_energy e SET price = a.price, cost = e.energy_kwh / 1000 * a.price
        FROM average a
       WHERE e.tenant = ${tenant}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E} AND e.category = 'estimated'
         AND a.pa = e.price_area_uuid`);

    const [summary] = await rows<{
      grid_hours: number;
      metered: string | null;
      supply: string | null;
      losses: string | null;
      no_supply: number;
      no_supply_examples: string[] | null;
      no_price: number;
      no_price_examples: string[] | null;
      negative: number;
      negative_examples: string[] | null;
    }>(
      tx,
      sql`SELECT count(*)::int AS grid_hours, sum(b.allocated_kwh)::text AS metered, sum(b.supply_kwh)::text AS supply,
                 sum(b.losses_kwh)::text AS losses,
                 count(*) FILTER (WHERE b.supply_missing AND b.allocated_kwh <> 0)::int AS no_supply,
                 (array_agg(g.name || ' ' || to_char(b.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || 'Z' ORDER BY b.hour_start)
                    FILTER (WHERE b.supply_missing AND b.allocated_kwh <> 0))[1:3] AS no_supply_examples,
                 count(*) FILTER (WHERE b.spot_price_eur_mwh IS NULL AND (b.allocated_kwh <> 0 OR b.losses_kwh <> 0))::int AS no_price,
                 (array_agg(coalesce(pa.name, '?') || ' ' || to_char(b.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || 'Z' ORDER BY b.hour_start)
                    FILTER (WHERE b.spot_price_eur_mwh IS NULL AND (b.allocated_kwh <> 0 OR b.losses_kwh <> 0)))[1:3] AS no_price_examples,
                 count(*) FILTER (WHERE b.losses_kwh < 0)::int AS negative,
                 (array_agg(g.name || ' ' || to_char(b.hour_start AT TIME ZONE 'UTC', 'HH24:MI') || 'Z' ORDER BY b.hour_start)
                    FILTER (WHERE b.losses_kwh < 0))[1:3] AS negative_examples
            FROM supply_balance b
            LEFT JOIN entity_latest g ON g.entity_uuid = b.grid_area_uuid
            LEFT JOIN entity_latest pa ON pa.entity_uuid = b.price_area_uuid
           WHERE b.tenant = ${tenant}::uuid AND b.hour_start >= ${S} AND b.hour_start < ${E}`,
    );
    return {
      gridHours: summary?.grid_hours ?? 0,
      metered: Number(summary?.metered ?? 0),
      supply: Number(summary?.supply ?? 0),
      losses: Number(summary?.losses ?? 0),
      events: {
        'supply-missing': { incidents: summary?.no_supply ?? 0, examples: summary?.no_supply_examples ?? [] },
        'spot-price-missing': { incidents: summary?.no_price ?? 0, examples: summary?.no_price_examples ?? [] },
        'supply-lower-than-allocated': {
          incidents: summary?.negative ?? 0,
          examples: summary?.negative_examples ?? [],
        },
      },
    };
  });
}
