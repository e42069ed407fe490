import type {
  PriceAreaBalance,
  SettlementBaseVerificationQuery,
  SettlementBaseVerificationRow,
  SettlementCategory,
  SettlementHour,
  SettlementLine,
  SettlementRecord,
  SettlementWarnings,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { checkedRecords, inSum } from '../processing/allocated-energy.js';
import { ownDataIsWholeArea } from '../domain/policy.js';
import { rows } from '../domain/sql.js';
import { organisationFilter as orgFilter, seesOrganisation, visibleOrganisations } from '../organisation/visibility.js';
import { ApiError } from '../../errors.js';
import { LINE_HAS_ENERGY } from './settle.js';
import { supplyChangedAfterPricing } from './staleness.js';

/**
 * What the settlement screens read (issue 10 items 5-7): the month's base verification per
 * organisation and price area, the balance per price area, a settlement result's lines, and the
 * hourly values behind one figure. Energies and costs are summed as exact numerics and sent as
 * numbers; the screens round (calls.md §9: 4 decimals).
 *
 * Who sees what (organisation/visibility.ts, the one rule for every call): the area-wide roles see
 * every organisation; a consumer sees the organisations it belongs to (user_organisation) and no
 * price-area balance (the supply of an area is every organisation's).
 */

/** [start, end) of the month in the area's zone, as SQL expressions. */
function monthRange(ctx: ServiceContext, year: number, month: number): { S: SQL; E: SQL } {
  const zone = ctx.tenant.timeZone;
  const first = sql`make_date(${year}::int, ${month}::int, 1)`;
  return {
    S: sql`(${first}::timestamp AT TIME ZONE ${zone})`,
    E: sql`((${first} + interval '1 month')::timestamp AT TIME ZONE ${zone})`,
  };
}

/** Grid areas of an energy use settlement area (their energyUseSettlementAreaRef), or every grid area. */
const gridFilter = (column: SQL, tenant: string, eusa: string | undefined): SQL =>
  eusa === undefined
    ? sql`true`
    : sql`${column} IN (SELECT g.entity_uuid FROM entity_latest g
                         WHERE g.tenant = ${tenant}::uuid AND g.type = 'gridarea'
                           AND g.attributes ->> 'energyUseSettlementAreaRef' = ${eusa})`;

const named = (uuid: string, type: string, name: string | null) => ({ uuid, type, name });

/** GET /timeseries/settlement/settlementbaseverification. */
export async function baseVerification(
  ctx: ServiceContext,
  query: SettlementBaseVerificationQuery,
): Promise<SettlementBaseVerificationRow[]> {
  const tenant = ctx.tenant.uuid;
  const visible = await visibleOrganisations(ctx);
  const { S, E } = monthRange(ctx, query.startYear, query.startMonth);
  const found = await rows<{
    org: string;
    org_name: string | null;
    pa: string;
    pa_name: string | null;
    metered: number;
    estimated: number;
    other: number;
    losses: number;
    metered_cost: number;
    estimated_cost: number;
    other_cost: number;
    losses_cost: number;
    on_account: number;
  }>(
    ctx.db,
    sql`SELECT e.organisation_uuid AS org, o.name AS org_name, e.price_area_uuid AS pa, p.name AS pa_name,
               coalesce((SELECT sum(a.energy_kwh) FROM on_account a
                          WHERE a.tenant = ${tenant}::uuid AND a.month_start = ${S} AND a.organisation_uuid = e.organisation_uuid
                            AND a.price_area_uuid = e.price_area_uuid), 0)::float8 AS on_account,
               coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'metered'), 0)::float8 AS metered,
               coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'estimated'), 0)::float8 AS estimated,
               coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'other'), 0)::float8 AS other,
               coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'losses'), 0)::float8 AS losses,
               coalesce(sum(e.cost) FILTER (WHERE e.category = 'metered'), 0)::float8 AS metered_cost,
               coalesce(sum(e.cost) FILTER (WHERE e.category = 'estimated'), 0)::float8 AS estimated_cost,
               coalesce(sum(e.cost) FILTER (WHERE e.category = 'other'), 0)::float8 AS other_cost,
               coalesce(sum(e.cost) FILTER (WHERE e.category = 'losses'), 0)::float8 AS losses_cost
          FROM priced_energy e
          LEFT JOIN entity_latest o ON o.entity_uuid = e.organisation_uuid
          LEFT JOIN entity_latest p ON p.entity_uuid = e.price_area_uuid
         WHERE e.tenant = ${tenant}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E}
           AND ${orgFilter(sql`e.organisation_uuid`, visible)}
           AND ${gridFilter(sql`e.grid_area_uuid`, tenant, query.eusa)}
         GROUP BY e.organisation_uuid, o.name, e.price_area_uuid, p.name
         ORDER BY p.name, o.name, e.organisation_uuid`,
  );
  return found.map((r) => {
    const organisation = named(r.org, 'Organisation', r.org_name);
    const priceArea = named(r.pa, 'PriceArea', r.pa_name);
    return {
      organisation,
      priceArea,
      supplyEnergy: r.metered + r.estimated + r.other + r.losses,
      otherEnergy: r.other,
      estimatedEnergy: r.estimated,
      meteredEnergy: r.metered,
      onAccountEnergy: r.on_account,
      lossesEnergy: r.losses,
      supplyCost: r.metered_cost + r.estimated_cost + r.other_cost + r.losses_cost,
      meteredCost: r.metered_cost,
      estimatedCost: r.estimated_cost,
      otherCost: r.other_cost,
      lossesCost: r.losses_cost,
      refs: [organisation, priceArea],
    };
  });
}

/** GET /timeseries/settlement/settlementbaseverification/balance: empty for a consumer. */
export async function priceAreaBalances(
  ctx: ServiceContext,
  query: SettlementBaseVerificationQuery,
): Promise<PriceAreaBalance[]> {
  if (!ownDataIsWholeArea(ctx.actor)) return [];
  const tenant = ctx.tenant.uuid;
  const { S, E } = monthRange(ctx, query.startYear, query.startMonth);
  const found = await rows<{
    pa: string;
    pa_name: string | null;
    supply: number;
    losses: number;
    no_supply: number;
    no_price: number;
    metered: number;
    estimated: number;
    other: number;
    billed_losses: number;
    metered_cost: number;
    difference: number;
  }>(
    ctx.db,
    sql`WITH balance AS (
          SELECT b.price_area_uuid AS pa, sum(b.supply_kwh) AS supply, sum(b.losses_kwh) AS losses,
                 count(*) FILTER (WHERE b.supply_missing AND b.allocated_kwh <> 0) AS no_supply,
                 count(*) FILTER (WHERE b.spot_price_eur_mwh IS NULL AND b.allocated_kwh <> 0) AS no_price
            FROM supply_balance b
           WHERE b.tenant = ${tenant}::uuid AND b.hour_start >= ${S} AND b.hour_start < ${E}
             AND ${gridFilter(sql`b.grid_area_uuid`, tenant, query.eusa)}
           GROUP BY 1
        ), energy AS (
          SELECT e.price_area_uuid AS pa,
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'metered'), 0) AS metered,
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'estimated'), 0) AS estimated,
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'other'), 0) AS other,
                 coalesce(sum(e.energy_kwh) FILTER (WHERE e.category = 'losses'), 0) AS billed_losses,
                 coalesce(sum(e.cost) FILTER (WHERE e.category = 'metered'), 0) AS metered_cost
            FROM priced_energy e
           WHERE e.tenant = ${tenant}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E}
             AND ${gridFilter(sql`e.grid_area_uuid`, tenant, query.eusa)}
           GROUP BY 1
        )
        SELECT b.pa, p.name AS pa_name, b.supply::float8 AS supply, b.losses::float8 AS losses,
               b.no_supply::int AS no_supply, b.no_price::int AS no_price,
               coalesce(e.metered, 0)::float8 AS metered, coalesce(e.estimated, 0)::float8 AS estimated,
               coalesce(e.other, 0)::float8 AS other, coalesce(e.billed_losses, 0)::float8 AS billed_losses,
               coalesce(e.metered_cost, 0)::float8 AS metered_cost,
               (b.supply - coalesce(e.metered, 0) - coalesce(e.estimated, 0) - coalesce(e.other, 0) - b.losses)::float8
                 AS difference
          FROM balance b
          LEFT JOIN energy e ON e.pa = b.pa
          LEFT JOIN entity_latest p ON p.entity_uuid = b.pa
         ORDER BY p.name, b.pa`,
  );
  return found.map((r) => ({
    priceArea: named(r.pa, 'PriceArea', r.pa_name),
    supplyEnergy: r.supply,
    meteredEnergy: r.metered,
    estimatedEnergy: r.estimated,
    otherEnergy: r.other,
    lossesEnergy: r.losses,
    unbilledLossesEnergy: r.losses - r.billed_losses,
    difference: r.difference,
    hoursWithoutSupply: r.no_supply,
    hoursWithoutPrice: r.no_price,
    averagePrice: r.metered === 0 ? null : (r.metered_cost / r.metered) * 1000,
  }));
}

/** GET /timeseries/settlement/lines: a settlement result's figures per organisation and price area. */
export async function settlementLines(ctx: ServiceContext, procedureResultId: number): Promise<SettlementLine[]> {
  const visible = await visibleOrganisations(ctx);
  const found = await rows<{
    org: string;
    org_name: string | null;
    pa: string;
    pa_name: string | null;
    metered: number;
    estimated: number;
    other: number;
    losses: number;
    on_account: number;
    metered_cost: number;
    estimated_cost: number;
    other_cost: number;
    losses_cost: number;
    on_account_cost: number;
    grid_fee: number;
    energy_fee: number;
    tax: number;
    vat: number;
    total: number;
  }>(
    ctx.db,
    sql`SELECT l.organisation_uuid AS org, o.name AS org_name, l.price_area_uuid AS pa, p.name AS pa_name,
               sum(l.metered_kwh)::float8 AS metered, sum(l.estimated_kwh)::float8 AS estimated,
               sum(l.other_kwh)::float8 AS other, sum(l.losses_kwh)::float8 AS losses,
               sum(l.on_account_kwh)::float8 AS on_account,
               sum(l.metered_cost)::float8 AS metered_cost, sum(l.estimated_cost)::float8 AS estimated_cost,
               sum(l.other_cost)::float8 AS other_cost, sum(l.losses_cost)::float8 AS losses_cost,
               sum(l.on_account_cost)::float8 AS on_account_cost,
               sum(l.grid_fee_cost)::float8 AS grid_fee, sum(l.energy_fee_cost)::float8 AS energy_fee,
               sum(l.tax_cost)::float8 AS tax, sum(l.vat_cost)::float8 AS vat,
               sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost + l.energy_fee_cost
                   + l.tax_cost + l.vat_cost)::float8 AS total
          FROM settlement_line l
          LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
          LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
         WHERE l.tenant = ${ctx.tenant.uuid}::uuid AND l.procedure_result_id = ${procedureResultId}::bigint
           AND ${orgFilter(sql`l.organisation_uuid`, visible)}
         GROUP BY l.organisation_uuid, o.name, l.price_area_uuid, p.name
         ORDER BY p.name, o.name, l.organisation_uuid`,
  );
  return found.map((r) => ({
    procedureResultId,
    organisation: named(r.org, 'Organisation', r.org_name),
    priceArea: named(r.pa, 'PriceArea', r.pa_name),
    meteredEnergy: r.metered,
    estimatedEnergy: r.estimated,
    otherEnergy: r.other,
    lossesEnergy: r.losses,
    onAccountEnergy: r.on_account,
    supplyEnergy: r.metered + r.estimated + r.other + r.losses,
    meteredCost: r.metered_cost,
    estimatedCost: r.estimated_cost,
    otherCost: r.other_cost,
    lossesCost: r.losses_cost,
    onAccountCost: r.on_account_cost,
    supplyCost: r.metered_cost + r.estimated_cost + r.other_cost + r.losses_cost,
    gridFeeCost: r.grid_fee,
    energyFeeCost: r.energy_fee,
    taxCost: r.tax,
    vatCost: r.vat,
    totalCost: r.total,
    dueCost: r.total - r.on_account_cost,
  }));
}

/** GET /timeseries/settlement/hourly: the hourly values behind one organisation's figure (issue 10 item 7). */
export async function settlementHourly(
  ctx: ServiceContext,
  query: {
    startYear: number;
    startMonth: number;
    organisation: string;
    priceArea: string;
    category: SettlementCategory;
  },
): Promise<SettlementHour[]> {
  const visible = await visibleOrganisations(ctx);
  if (!seesOrganisation(visible, query.organisation)) return [];
  const { S, E } = monthRange(ctx, query.startYear, query.startMonth);
  const found = await rows<{
    hour: string;
    grid: string;
    grid_name: string | null;
    energy: number;
    price: number | null;
    cost: number | null;
  }>(
    ctx.db,
    sql`SELECT rw_iso(e.hour_start) AS hour, e.grid_area_uuid AS grid, g.name AS grid_name,
               e.energy_kwh::float8 AS energy, e.price::float8 AS price, e.cost::float8 AS cost
          FROM priced_energy e
          LEFT JOIN entity_latest g ON g.entity_uuid = e.grid_area_uuid
         WHERE e.tenant = ${ctx.tenant.uuid}::uuid AND e.hour_start >= ${S} AND e.hour_start < ${E}
           AND e.organisation_uuid = ${query.organisation}::uuid AND e.price_area_uuid = ${query.priceArea}::uuid
           AND e.category = ${query.category}
         ORDER BY e.hour_start, g.name`,
  );
  return found.map((r) => ({
    hourStart: r.hour,
    gridArea: named(r.grid, 'GridArea', r.grid_name),
    energy: r.energy,
    price: r.price,
    cost: r.cost,
  }));
}

/**
 * GET /timeseries/settlement/records: the records allocated to the organisation in the grid area
 * whose 5-minute period lies in the hour (period end in (hour, hour + 1 h]), with their train run and
 * the CEBD file (the record's data_log_id). The allocation keeps sums (allocated_energy_hourly,
 * migration 0380): the hour's sums of the organisation and grid area, each joined to the records of
 * its consumption point within its island (processing/allocated-energy.ts `inSum`, by the record table's key).
 * Their consumed minus regenerated energy sums to the hour's metered value of price-and-supply (as
 * long as nothing was allocated since it ran).
 */
export async function settlementRecords(
  ctx: ServiceContext,
  query: { organisation: string; gridArea: string; hourStart: string },
): Promise<SettlementRecord[]> {
  const visible = await visibleOrganisations(ctx);
  if (!seesOrganisation(visible, query.organisation)) return [];
  const H = sql`date_trunc('hour', ${query.hourStart}::timestamptz, 'UTC')`;
  const found = await rows<{
    cp: string;
    cp_name: string | null;
    period_end: string;
    consumed: number;
    regenerated: number;
    category: string;
    train_number: string | null;
    data_log_id: number | null;
    file_name: string | null;
  }>(
    ctx.db,
    sql`SELECT a.consumption_point_uuid AS cp, cp.name AS cp_name, rw_iso(c.period_end) AS period_end,
               coalesce(c.active_consumed, 0)::float8 AS consumed, coalesce(c.active_regenerated, 0)::float8 AS regenerated,
               a.category, r.train_number, c.data_log_id::int AS data_log_id, d.file_name
          FROM allocated_energy_hourly a
          JOIN ${checkedRecords} c ON ${inSum(sql`a`, sql`c`)}
          LEFT JOIN entity_latest cp ON cp.entity_uuid = a.consumption_point_uuid
          LEFT JOIN train_run r ON r.id = a.train_run_id AND r.tenant = a.tenant
          LEFT JOIN data_log d ON d.id = c.data_log_id
         WHERE a.tenant = ${ctx.tenant.uuid}::uuid AND a.organisation_uuid = ${query.organisation}::uuid
           AND a.grid_area_uuid = ${query.gridArea}::uuid AND a.hour_start = ${H}
         ORDER BY cp.name, c.period_end`,
  );
  return found.map((r) => ({
    consumptionPoint: named(r.cp, 'ConsumptionPoint', r.cp_name),
    periodEnd: r.period_end,
    activeConsumed: r.consumed,
    activeRegenerated: r.regenerated,
    category: r.category,
    trainNumber: r.train_number,
    dataLogId: r.data_log_id,
    fileName: r.file_name,
  }));
}

/**
 * GET /timeseries/settlement/warnings (issue 18 item 5): what the settlement result's figures lack
 * (lines without a contract, among the organisations the actor sees) or no longer match: supply or
 * prices of its period changed after price-and-supply priced them (staleness.ts), price-and-supply
 * ran again after the settlement started, energy allocated after pricing (the run's
 * 'prices-and-supply-missing' events). A consumer is not told about supply (it is every organisation's).
 */
export async function settlementWarnings(ctx: ServiceContext, procedureResultId: number): Promise<SettlementWarnings> {
  const tenant = ctx.tenant.uuid;
  const [result] = await rows<{ name: string; start: string; end: string; started: string }>(
    ctx.db,
    sql`SELECT procedure_name AS name, rw_iso(period_start) AS start, rw_iso(period_end) AS end,
               rw_iso(execute_start_time) AS started
          FROM procedure_result WHERE tenant = ${tenant}::uuid AND id = ${procedureResultId}::bigint`,
  );
  if (!result || result.name !== 'settlement')
    throw ApiError.badRequest('invalid_input', `Procedure result ${procedureResultId} is not a settlement result`);
  const visible = await visibleOrganisations(ctx);
  const missing = await rows<{
    org: string;
    org_name: string | null;
    pa: string;
    pa_name: string | null;
    days: number;
  }>(
    ctx.db,
    sql`SELECT l.organisation_uuid AS org, o.name AS org_name, l.price_area_uuid AS pa, p.name AS pa_name,
               count(DISTINCT l.day)::int AS days
          FROM settlement_line l
          LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
          LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
         WHERE l.tenant = ${tenant}::uuid AND l.procedure_result_id = ${procedureResultId}::bigint
           AND l.contract_uuid IS NULL AND ${LINE_HAS_ENERGY}
           AND ${orgFilter(sql`l.organisation_uuid`, visible)}
         GROUP BY l.organisation_uuid, o.name, l.price_area_uuid, p.name
         ORDER BY p.name, o.name, l.organisation_uuid
         LIMIT 1000`,
  );
  const wholeArea = ownDataIsWholeArea(ctx.actor);
  const range = { start: result.start, end: result.end };
  const [priced] = await rows<{ at: string | null }>(
    ctx.db,
    sql`SELECT rw_iso(max(priced_at)) AS at FROM supply_balance
         WHERE tenant = ${tenant}::uuid AND hour_start >= ${result.start}::timestamptz AND hour_start < ${result.end}::timestamptz`,
  );
  const [allocated] = await rows<{ hours: number | null }>(
    ctx.db,
    sql`SELECT sum(incidents)::int AS hours FROM processing_event
         WHERE tenant = ${tenant}::uuid AND procedure_result_id = ${procedureResultId}::bigint
           AND error_code = 'prices-and-supply-missing'`,
  );
  const repriced = priced?.at != null && Date.parse(priced.at) > Date.parse(result.started) ? priced.at : null;
  return {
    procedureResultId,
    missingContracts: missing.map((m) => ({
      organisation: named(m.org, 'Organisation', m.org_name),
      priceArea: named(m.pa, 'PriceArea', m.pa_name),
      days: m.days,
    })),
    supplyChanged: wholeArea ? await supplyChangedAfterPricing(ctx, range) : null,
    repricedAfterSettlement: repriced ? { pricedAt: repriced } : null,
    allocatedAfterPricing: allocated?.hours ? { hours: allocated.hours } : null,
  };
}
