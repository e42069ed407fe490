import type { EntityRef } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { sumsOfChunk } from '../processing/allocated-energy.js';
import { rows, segmentValidAt } from '../domain/sql.js';
import { supplyChangedAfterPricing, type SupplyChange } from './staleness.js';

/**
 * settlement (DOMAIN.md "Processing" step 11, issue 10 item 5) for one chunk (an area day) of a
 * result: the day's priced energy (price-and-supply's `priced_energy`) summed per organisation and
 * price area into `settlement_line` rows of the result (metered, estimated, other, losses and their
 * costs). A result's figures are the sum of its days; approving it (approve-procedure-results) makes
 * them the month's bill, and only the highest approved version counts (DataHub's rule, DOMAIN.md).
 *
 * A result limited to refs (organisations or price areas) settles only those. The day is refused
 * nothing: when the day has allocated energy that price-and-supply has not balanced, the result
 * records 'prices-and-supply-missing' (HIGH) with the hours missing, and settles what is priced;
 * when supply or prices of the day were stored after price-and-supply priced it, the result says so
 * (`supplyChanged`, staleness.ts: the procedure records 'prices-and-supply-outdated', HIGH). A line
 * whose organisation has no contract valid in its price area is billed its energy alone: the result
 * names it (`missingContracts`, the procedure records 'contract-missing', HIGH), never silently.
 * The month's on-account amounts (on-account.ts) are carried on the line of its first day when
 * `withOnAccount` (the procedure asks it for the first day of each month and the run's first day).
 */
/** A line that bills energy (an on-account line alone has no fees of its own to miss). */
export const LINE_HAS_ENERGY = sql`(l.metered_kwh <> 0 OR l.estimated_kwh <> 0 OR l.other_kwh <> 0 OR l.losses_kwh <> 0)`;

export interface SettleResult {
  lines: number;
  /** Hours of the day with allocated energy and no balance of price-and-supply. */
  unbalancedHours: number;
  /** Lines with energy and no contract valid for their organisation in their price area (names). */
  missingContracts: { organisation: string; priceArea: string }[];
  /** Supply or price values of the day stored after price-and-supply priced it; null when none. */
  supplyChanged: SupplyChange | null;
}

export async function settleDay(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  options: { procedureResultId: number; refs: readonly EntityRef[]; currency: string; withOnAccount?: boolean },
): Promise<SettleResult> {
  const tenant = ctx.tenant.uuid;
  const S = sql`${new Date(chunk.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(chunk.end).toISOString()}::timestamptz`;
  const result = sql`${options.procedureResultId}::bigint`;
  const refs = sql`${sql.param(options.refs.map((r) => r.uuid))}::uuid[]`;

  await ctx.db.execute(sql`
    DELETE FROM settlement_line
     WHERE tenant = ${tenant}::uuid AND procedure_result_id = ${result} AND day = ${chunk.day}::date`);
  const [written] = await rows<{ lines: number }>(
    ctx.db,
    sql`WITH written AS (
          INSERT INTO settlement_line (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid,
                                       metered_kwh, estimated_kwh, other_kwh, losses_kwh,
                                       metered_cost, estimated_cost, other_cost, losses_cost)
          SELECT ${tenant}::uuid, ${result}, ${chunk.day}::date, e.organisation_uuid, e.price_area_uuid,
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'metered'), 0),
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'estimated'), 0),
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'other'), 0),
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'losses'), 0),
                 coalesce(sum(e.cost) FILTER (WHERE e.category = 'metered'), 0),
                 coalesce(sum(e.cost) FILTER (WHERE e.category = 'estimated'), 0),
                 coalesce(sum(e.cost) FILTER (WHERE e.category = 'other'), 0),
                 coalesce(sum(e.cost) FILTER (WHERE e.category = 'losses'), 0)
            FROM priced_energy e
           WHERE e.tenant = ${tenant}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E}
             AND (cardinality(${refs}) = 0 OR e.organisation_uuid = ANY(${refs}) OR e.price_area_uuid = ANY(${refs}))
           GROUP BY e.organisation_uuid, e.price_area_uuid
          RETURNING 1
        )
        SELECT count(*)::int AS lines FROM written`,
  );
  if (options.withOnAccount) {
    // The month's on-account amounts (on-account.ts), carried once per result on the line of its
    // month's first day: the final settlement reconciles them (what remains due = total - on-account).
    await ctx.db.execute(sql`
      INSERT INTO settlement_line (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid,
                                   on_account_kwh, on_account_cost)
      SELECT ${tenant}::uuid, ${result}, ${chunk.day}::date, a.organisation_uuid, a.price_area_uuid, a.energy_kwh, a.cost
        FROM on_account a
       WHERE a.tenant = ${tenant}::uuid
         AND a.month_start = (date_trunc('month', ${chunk.day}::date)::timestamp AT TIME ZONE ${ctx.tenant.timeZone})
         AND (cardinality(${refs}) = 0 OR a.organisation_uuid = ANY(${refs}) OR a.price_area_uuid = ANY(${refs}))
      ON CONFLICT ON CONSTRAINT settlement_line_key DO UPDATE
        SET on_account_kwh = excluded.on_account_kwh, on_account_cost = excluded.on_account_cost`);
  }
  await chargeDay(ctx, chunk, options.procedureResultId, options.currency);
  const missingContracts = await rows<{ organisation: string; priceArea: string }>(
    ctx.db,
    sql`SELECT coalesce(o.name, l.organisation_uuid::text) AS "organisation", coalesce(p.name, l.price_area_uuid::text) AS "priceArea"
          FROM settlement_line l
          LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
          LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
         WHERE l.tenant = ${tenant}::uuid AND l.procedure_result_id = ${result} AND l.day = ${chunk.day}::date
           AND l.contract_uuid IS NULL AND ${LINE_HAS_ENERGY}
         ORDER BY 1, 2`,
  );
  const supplyChanged = await supplyChangedAfterPricing(ctx, chunk);
  // Hours with allocated energy that price-and-supply has not balanced: never run for the hour, or
  // run before the energy was last allocated (a re-run of combine since: the prices are stale).
  // Grouped to grid-area hours first, then one join to the balance (bench/settlement.ts: a probe per
  // record read the whole table on stale statistics). The chunk's sums are read by the hour index:
  // the planner preferred a (parallel) scan of the whole table, every allocated row of the month for
  // each day (per-record rows, 1,000 units: 1.3 s of a day's 1.4 s, growing with the square of the
  // days' rows), so sequential scans are off for this last statement; 64 MB keeps the grouping in memory.
  await ctx.db.execute(sql`SET LOCAL enable_seqscan = off`);
  await ctx.db.execute(sql`SET LOCAL work_mem = '64MB'`);
  const [missing] = await rows<{ hours: number }>(
    ctx.db,
    sql`WITH hours AS (
          SELECT a.grid_area_uuid AS grid, a.hour_start AS hour, max(a.allocated_at) AS allocated_at
            FROM allocated_energy_hourly a
           WHERE ${sumsOfChunk(tenant, S, E)}
             AND a.organisation_uuid IS NOT NULL AND a.grid_area_uuid IS NOT NULL AND a.price_area_uuid IS NOT NULL
             AND (cardinality(${refs}) = 0 OR a.organisation_uuid = ANY(${refs}) OR a.price_area_uuid = ANY(${refs}))
           GROUP BY 1, 2
        )
        SELECT count(DISTINCT h.hour)::int AS hours
          FROM hours h
          LEFT JOIN supply_balance b ON b.tenant = ${tenant}::uuid AND b.grid_area_uuid = h.grid AND b.hour_start = h.hour
         WHERE b.hour_start IS NULL OR b.priced_at < h.allocated_at`,
  );
  await ctx.db.execute(sql`RESET enable_seqscan`);
  await ctx.db.execute(sql`RESET work_mem`);
  return { lines: written?.lines ?? 0, unbalancedHours: missing?.hours ?? 0, missingContracts, supplyChanged };
}

/**
 * Fees, taxes and VAT of the day's lines (issue 10 item 3, migration 0250), one UPDATE: each line's
 * contract is the organisation's contract valid at the day's start for the line's price area, else
 * its contract without a price area (administration kind contract: organisationRef, priceAreaRef, gridFeeTypeRefs,
 * energyFeeTypeRefs, taxCategoryRef, vatCategoryRef). The fee types', tax category's and VAT
 * category's values are those of their versions valid at the day's start (entity_segment: a price
 * change is a new version from a date). On the line's supply energy (metered + estimated + other +
 * losses) in MWh: grid fees and energy fees at their price per MWh (a price in EUR where the area
 * settles in another currency is converted at the day's average exchange rate), summed hour by hour:
 * a fee type with a price category (priceCategoryRef) counts only in the hours of the category's
 * time intervals valid then, a public holiday as day 8; tax at the tax category's rate per MWh in the area's
 * currency, in the grid area's tax area where the category has a rate for it (taxAreaRates, the
 * grid area's taxAreaRef, of its version valid at the day's start); VAT last, the VAT category's percentage of the energy cost, the fees and
 * the tax.
 */
async function chargeDay(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  procedureResultId: number,
  currency: string,
): Promise<void> {
  const tenant = ctx.tenant.uuid;
  const S = sql`${new Date(chunk.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(chunk.end).toISOString()}::timestamptz`;
  /** The value of an entity's version valid at the day's start. */
  const valueAt = (uuid: SQL, field: string) =>
    sql`(SELECT (s.attributes ->> ${field})::numeric FROM entity_segment s
          WHERE s.entity_uuid = ${uuid} AND s.tenant = ${tenant}::uuid AND ${segmentValidAt('s', S)}
          LIMIT 1)`;
  const zone = ctx.tenant.timeZone;
  /**
   * Whether fee version `s` applies in the hour starting at `hour`: it has no price category, or one
   * of the category's time intervals holds the hour on the area's wall clock (its days of the week,
   * 1 Monday .. 7 Sunday, and 8 for a public holiday, which counts instead of its weekday).
   */
  const applies = (s: SQL, hour: SQL) => {
    const local = sql`(${hour} AT TIME ZONE ${zone})`;
    return sql`(${s}.attributes ->> 'priceCategoryRef' IS NULL OR EXISTS (
      SELECT 1 FROM entity_segment i
       WHERE i.tenant = ${tenant}::uuid AND i.type = 'pricecategorytimeinterval'
         AND ${segmentValidAt('i', hour)}
         AND i.attributes ->> 'priceCategoryRef' = ${s}.attributes ->> 'priceCategoryRef'
         AND (i.attributes -> 'daysOfWeek') @> to_jsonb(CASE
               WHEN EXISTS (SELECT 1 FROM entity_segment p
                             WHERE p.tenant = ${tenant}::uuid AND p.type = 'publicholiday'
                               AND ${segmentValidAt('p', hour)}
                               AND p.attributes ->> 'date' = to_char(${local}, 'YYYY-MM-DD')) THEN 8
               ELSE extract(isodow FROM ${local})::int END)
         AND ${local}::time >= (i.attributes ->> 'fromTime')::time
         AND ${local}::time < (i.attributes ->> 'toTime')::time))`;
  };
  /**
   * A line's fees of one kind: per hour of the day, the line's energy in MWh x the price of each fee
   * type of the contract that applies in that hour, in the area's currency (EUR prices converted
   * where the area settles in another).
   */
  const feeSum = (refs: string) =>
    sql`(SELECT coalesce(sum(h.kwh / 1000 * (s.attributes ->> 'price')::numeric *
                  CASE WHEN coalesce(s.attributes ->> 'currency', 'EUR') = 'EUR' AND ${currency} <> 'EUR'
                       THEN rate.eur ELSE 1 END), 0)
           FROM jsonb_array_elements_text(c.attributes -> ${refs}) AS f(uuid)
           JOIN entity_segment s ON s.entity_uuid = f.uuid::uuid AND s.tenant = ${tenant}::uuid
            AND ${segmentValidAt('s', S)}
           JOIN hours h ON h.organisation_uuid = x.organisation_uuid AND h.price_area_uuid = x.price_area_uuid
          WHERE ${applies(sql`s`, sql`h.hour_start`)})`;
  /**
   * A line's tax: per grid area of the line, its energy in MWh x the tax category's rate in the grid
   * area's tax area (taxAreaRates; the grid area's taxAreaRef) or else the category's own rate, of
   * the category's version valid at the day's start.
   */
  const taxSum = sql`(SELECT coalesce(sum(g.kwh / 1000 * coalesce(
             (SELECT (r ->> 'rate')::numeric
                FROM jsonb_array_elements(coalesce(t.attributes -> 'taxAreaRates', '[]'::jsonb)) AS r
               WHERE r ->> 'taxAreaRef' = ga.attributes ->> 'taxAreaRef' LIMIT 1),
             (t.attributes ->> 'rate')::numeric, 0)), 0)
           FROM grids g
           JOIN entity_segment t ON t.entity_uuid = rw_uuid(c.attributes ->> 'taxCategoryRef') AND t.tenant = ${tenant}::uuid
            AND ${segmentValidAt('t', S)}
           LEFT JOIN entity_segment ga ON ga.entity_uuid = g.grid_area_uuid AND ${segmentValidAt('ga', S)}
          WHERE g.organisation_uuid = x.organisation_uuid AND g.price_area_uuid = x.price_area_uuid)`;
  await ctx.db.execute(sql`
    WITH rate AS (
      SELECT coalesce(avg(v.value), 1) AS eur
        FROM time_series ts JOIN time_series_value v ON v.tenant = ts.tenant AND v.series_id = ts.id
       WHERE ts.tenant = ${tenant}::uuid AND ts.type_name = 'currency_exchange_rate'
         AND v.start_time >= ${S} AND v.start_time < ${E} AND v.value IS NOT NULL
    ), hours AS (
      -- Each line's energy per hour (every category), for fees that depend on the hour.
      SELECT organisation_uuid, price_area_uuid, hour_start, sum(energy_kwh) AS kwh
        FROM priced_energy
       WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}
       GROUP BY 1, 2, 3
    ), grids AS (
      -- Each line's energy per grid area (every category), for the tax of the grid area's tax area.
      SELECT organisation_uuid, price_area_uuid, grid_area_uuid, sum(energy_kwh) AS kwh
        FROM priced_energy
       WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}
       GROUP BY 1, 2, 3
    ), lines AS (
      SELECT l.organisation_uuid, l.price_area_uuid,
             (l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh) / 1000 AS mwh,
             l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost AS energy_cost,
             (SELECT c.entity_uuid FROM entity_segment c
               WHERE c.tenant = ${tenant}::uuid AND c.type = 'contract' AND ${segmentValidAt('c', S)}
                 AND c.attributes ->> 'organisationRef' = l.organisation_uuid::text
                 AND (c.attributes ->> 'priceAreaRef' = l.price_area_uuid::text OR c.attributes ->> 'priceAreaRef' IS NULL)
               ORDER BY (c.attributes ->> 'priceAreaRef') IS NULL, c.name LIMIT 1) AS contract
        FROM settlement_line l
       WHERE l.tenant = ${tenant}::uuid AND l.procedure_result_id = ${procedureResultId}::bigint AND l.day = ${chunk.day}::date
    ), charged AS (
      SELECT x.organisation_uuid, x.price_area_uuid, x.contract, x.energy_cost,
             ${feeSum('gridFeeTypeRefs')} AS grid_fee,
             ${feeSum('energyFeeTypeRefs')} AS energy_fee,
             ${taxSum} AS tax,
             coalesce(${valueAt(sql`rw_uuid(c.attributes ->> 'vatCategoryRef')`, 'percentage')}, 0) AS vat_percent
        FROM lines x CROSS JOIN rate
        JOIN entity_segment c ON c.entity_uuid = x.contract AND ${segmentValidAt('c', S)}
    )
    UPDATE settlement_line l
       SET contract_uuid = ch.contract, grid_fee_cost = ch.grid_fee, energy_fee_cost = ch.energy_fee, tax_cost = ch.tax,
           vat_cost = (ch.energy_cost + ch.grid_fee + ch.energy_fee + ch.tax) * ch.vat_percent / 100
      FROM charged ch
     WHERE l.tenant = ${tenant}::uuid AND l.procedure_result_id = ${procedureResultId}::bigint AND l.day = ${chunk.day}::date
       AND l.organisation_uuid = ch.organisation_uuid AND l.price_area_uuid = ch.price_area_uuid`);
}
