import type { EntityRef } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';

/**
 * settlement (DOMAIN.md "Processing" step 11, issue 10 item 5) for one chunk (an area day) of a
 * result: the day's priced energy (price-and-supply's `priced_energy`) summed per organisation and
 * price area into `settlement_line` rows of the result (metered, estimated, other, losses and their
 * costs). A result's figures are the sum of its days; approving it (approve-procedure-results) makes
 * them the month's bill, and only the highest approved version counts (DataHub's rule, DOMAIN.md).
 *
 * A result limited to refs (organisations or price areas) settles only those. The day is refused
 * nothing: when the day has allocated energy that price-and-supply has not balanced, the result
 * records 'prices-and-supply-missing' (HIGH) with the hours missing, and settles what is priced.
 * On-account energy joins with the on-account procedure (issue 10 item 4).
 */
export interface SettleResult {
  lines: number;
  /** Hours of the day with allocated energy and no balance of price-and-supply. */
  unbalancedHours: number;
}

export async function settleDay(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  options: { procedureResultId: number; refs: readonly EntityRef[] },
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
  // Hours with allocated energy that price-and-supply has not balanced: never run for the hour, or
  // run before the energy was last allocated (a re-run of combine since: the prices are stale).
  const [missing] = await rows<{ hours: number }>(
    ctx.db,
    sql`SELECT count(DISTINCT date_trunc('hour', a.period_end - interval '1 microsecond', 'UTC'))::int AS hours
          FROM allocated_energy a
         WHERE a.tenant = ${tenant}::uuid AND a.period_end > ${S} AND a.period_end <= ${E}
           AND a.organisation_uuid IS NOT NULL AND a.grid_area_uuid IS NOT NULL AND a.price_area_uuid IS NOT NULL
           AND (cardinality(${refs}) = 0 OR a.organisation_uuid = ANY(${refs}) OR a.price_area_uuid = ANY(${refs}))
           AND NOT EXISTS (SELECT 1 FROM supply_balance b
                            WHERE b.tenant = a.tenant AND b.grid_area_uuid = a.grid_area_uuid
                              AND b.hour_start = date_trunc('hour', a.period_end - interval '1 microsecond', 'UTC')
                              AND b.priced_at >= a.allocated_at)`,
  );
  return { lines: written?.lines ?? 0, unbalancedHours: missing?.hours ?? 0 };
}
