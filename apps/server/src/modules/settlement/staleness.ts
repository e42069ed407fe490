import { sql } from 'drizzle-orm';
import type { ReadContext } from '../../context.js';
import { jsonColumn, rows } from '../domain/sql.js';

/**
 * When the prices and supply that settlement reads are stale (issue 18 item 5): price-and-supply
 * wrote `supply_balance` (its `priced_at`) and `priced_energy` from the time-series store as it was
 * then; a supply, spot-price or exchange-rate value of the same hour stored later (a corrected supply
 * file, prices imported again: a changed value is a new row with its own `stored_at`) or removed later
 * (`time_series_value_superseded.superseded_at`) is not in the figures until price-and-supply runs
 * again. Hours price-and-supply never balanced are not compared (nothing of theirs is settled).
 */

/** The time series price-and-supply reads (price-and-supply.ts). */
export const PRICE_AND_SUPPLY_INPUTS = ['supply_energy', 'spot_price', 'currency_exchange_rate'] as const;

export interface SupplyChange {
  /** The earliest pricing of an hour with a later change, and the latest change (ISO instants). */
  pricedAt: string;
  changedAt: string;
  /** Values stored or removed after their hour was priced. */
  values: number;
  /** A few of the changed series (type and identifier) with the file that changed them. */
  changes: { typeName: string; identifier: string; fileName: string | null }[];
}

/** Supply and price values of [start, end) stored or removed after price-and-supply priced their hour; null when none. */
export async function supplyChangedAfterPricing(
  ctx: ReadContext,
  range: { start: string; end: string },
): Promise<SupplyChange | null> {
  const tenant = ctx.tenant.uuid;
  const S = sql`${new Date(range.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(range.end).toISOString()}::timestamptz`;
  const types = sql`${sql.param([...PRICE_AND_SUPPLY_INPUTS])}::text[]`;
  const [found] = await rows<{
    values: number;
    priced_at: string | null;
    changed_at: string | null;
    changes: { typeName: string; identifier: string; fileName: string | null }[] | string | null;
  }>(
    ctx.db,
    sql`WITH priced AS (
          SELECT hour_start, min(priced_at) AS priced_at FROM supply_balance
           WHERE tenant = ${tenant}::uuid AND hour_start >= ${S} AND hour_start < ${E}
           GROUP BY 1
        ), series AS (
          SELECT id, type_name, identifier FROM time_series WHERE tenant = ${tenant}::uuid AND type_name = ANY(${types})
        ), changed AS MATERIALIZED (
          SELECT s.type_name, s.identifier, v.data_log_id, v.stored_at AS at, p.priced_at
            FROM series s
            JOIN time_series_value v ON v.tenant = ${tenant}::uuid AND v.series_id = s.id
            JOIN priced p ON p.hour_start = date_trunc('hour', v.start_time, 'UTC')
           WHERE v.start_time >= ${S} AND v.start_time < ${E} AND v.stored_at > p.priced_at
          UNION ALL
          SELECT s.type_name, s.identifier, x.superseded_by_data_log_id, x.superseded_at, p.priced_at
            FROM series s
            JOIN time_series_value_superseded x ON x.tenant = ${tenant}::uuid AND x.series_id = s.id
            JOIN priced p ON p.hour_start = date_trunc('hour', x.start_time, 'UTC')
           WHERE x.start_time >= ${S} AND x.start_time < ${E} AND x.superseded_at > p.priced_at
        )
        SELECT count(*)::int AS values, rw_iso(min(priced_at)) AS priced_at, rw_iso(max(at)) AS changed_at,
               (SELECT coalesce(jsonb_agg(jsonb_build_object('typeName', c.type_name, 'identifier', c.identifier,
                                                             'fileName', c.file_name)), '[]'::jsonb)
                  FROM (SELECT DISTINCT ch.type_name, ch.identifier, d.file_name
                          FROM changed ch LEFT JOIN data_log d ON d.id = ch.data_log_id
                         ORDER BY 1, 2, 3 LIMIT 10) c) AS changes
          FROM changed`,
  );
  if (!found || found.values === 0 || found.priced_at === null || found.changed_at === null) return null;
  const changes = jsonColumn(found.changes, []);
  return { values: found.values, pricedAt: found.priced_at, changedAt: found.changed_at, changes };
}

/** "supply_energy SMP-OSLO-S (supply-2026-10-01.csv)": a change as an event names it. */
export const describeChange = (c: SupplyChange['changes'][number]): string =>
  `${c.typeName} ${c.identifier}${c.fileName ? ` (${c.fileName})` : ''}`;
