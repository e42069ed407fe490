import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';
import { parameterAt } from '../parameter-overview/service.js';

/**
 * on-account (DOMAIN.md "Processing" step 9, issue 10 item 4) for the month holding `at` (the area's
 * calendar): each organisation's a-conto amount per price area, written to `on_account` (the
 * month's rows replaced), set-based in two statements.
 *
 * Our reading of "a monthly amount in arrears, reconciled by the final settlement":
 * - The base is the month before's settlement: its highest approved result (DOMAIN.md: only the
 *   highest approved version counts) whose period covers that month; per organisation and price
 *   area its supply energy (metered + estimated + other + losses) and its whole bill (energy,
 *   fees, tax and VAT).
 * - The amount is onAccountSharePercent (the configuration) of it: energy = share x supply, cost =
 *   share x bill.
 * - Where the user set the organisation's on_account_energy parameter for the month (parameter
 *   overview), that energy replaces the share, spread over its price areas in proportion to the
 *   month before; the cost follows at the month before's price per kWh.
 * - The final settlement of the month carries the amounts on its lines (onAccount energy and cost)
 *   and shows what remains due (settle.ts).
 * An organisation without an approved month before gets no on-account amount.
 */
export interface OnAccountResult {
  month: string;
  /** The settlement result the amounts are based on (null: none approved for the month before). */
  basedOn: number | null;
  organisations: number;
  energy: number;
  cost: number;
}

export async function computeOnAccount(
  ctx: ServiceContext,
  at: string,
  options: { sharePercent: number; procedureResultId?: number },
): Promise<OnAccountResult> {
  const tenant = ctx.tenant.uuid;
  const zone = ctx.tenant.timeZone;
  const [month] = await rows<{ start: string; end: string; prev: string }>(
    ctx.db,
    sql`SELECT rw_iso(date_trunc('month', ${at}::timestamptz AT TIME ZONE ${zone}) AT TIME ZONE ${zone}) AS start,
               rw_iso((date_trunc('month', ${at}::timestamptz AT TIME ZONE ${zone}) + interval '1 month') AT TIME ZONE ${zone}) AS end,
               rw_iso((date_trunc('month', ${at}::timestamptz AT TIME ZONE ${zone}) - interval '1 month') AT TIME ZONE ${zone}) AS prev`,
  );
  const M = sql`${month!.start}::timestamptz`;
  const P = sql`${month!.prev}::timestamptz`;
  await ctx.db.execute(sql`DELETE FROM on_account WHERE tenant = ${tenant}::uuid AND month_start = ${M}`);
  const [basis] = await rows<{ id: number | null }>(
    ctx.db,
    sql`SELECT max(id)::int AS id FROM procedure_result
         WHERE tenant = ${tenant}::uuid AND procedure_name = 'settlement' AND status = 'approved'
           AND period_start <= ${P} AND period_end >= ${M}
           -- The plain settlement's versions only: the TPA settlement (settlement's tpa option) is a chain of its own.
           AND coalesce(run_options ->> 'tpa', 'false') = 'false'`,
  );
  const basedOn = basis?.id ?? null;
  if (basedOn === null) return { month: month!.start, basedOn, organisations: 0, energy: 0, cost: 0 };
  const share = sql`(${options.sharePercent}::numeric / 100)`;
  const [written] = await rows<{ organisations: number; energy: string | null; cost: string | null }>(
    ctx.db,
    sql`WITH previous AS (
          SELECT organisation_uuid AS org, price_area_uuid AS pa,
                 sum(metered_kwh + estimated_kwh + other_kwh + losses_kwh) AS kwh,
                 sum(metered_cost + estimated_cost + other_cost + losses_cost + grid_fee_cost + energy_fee_cost
                     + tax_cost + vat_cost) AS bill
            FROM settlement_line
           WHERE tenant = ${tenant}::uuid AND procedure_result_id = ${basedOn}::bigint
           GROUP BY 1, 2
        ), per_org AS (
          SELECT org, sum(kwh) AS kwh, ${parameterAt('on_account_energy', sql`org`, M)} AS parameter
            FROM previous GROUP BY org
        ), amounts AS (
          SELECT p.org, p.pa,
                 CASE WHEN o.parameter IS NOT NULL AND o.kwh <> 0 THEN o.parameter * p.kwh / o.kwh
                      ELSE p.kwh * ${share} END AS kwh,
                 CASE WHEN o.parameter IS NOT NULL AND o.kwh <> 0 AND p.kwh <> 0
                      THEN o.parameter * p.kwh / o.kwh * p.bill / p.kwh
                      ELSE p.bill * ${share} END AS cost,
                 CASE WHEN o.parameter IS NOT NULL AND o.kwh <> 0 THEN 'parameter' ELSE 'previous-settlement' END AS source
            FROM previous p JOIN per_org o ON o.org = p.org
        ), written AS (
          INSERT INTO on_account (tenant, month_start, organisation_uuid, price_area_uuid, energy_kwh, cost,
                                  based_on_result_id, source, procedure_result_id)
          SELECT ${tenant}::uuid, ${M}, org, pa, kwh, cost, ${basedOn}::bigint, source,
                 ${options.procedureResultId ?? null}::bigint
            FROM amounts
          RETURNING organisation_uuid, energy_kwh, cost
        )
        SELECT count(DISTINCT organisation_uuid)::int AS organisations, sum(energy_kwh)::text AS energy,
               sum(cost)::text AS cost FROM written`,
  );
  return {
    month: month!.start,
    basedOn,
    organisations: written?.organisations ?? 0,
    energy: Number(written?.energy ?? 0),
    cost: Number(written?.cost ?? 0),
  };
}
