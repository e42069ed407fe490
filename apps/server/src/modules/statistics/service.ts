import {
  CPID_CATEGORIES,
  DASHBOARD_CATEGORIES,
  DASHBOARD_DAYS,
  STATISTICS_BUCKETS,
  type CebdDeliveryInfo,
  type CebdStatistics,
  type CompletenessRow,
  type DashboardCategory,
  type DashboardEvent,
  type DashboardStatisticsItem,
  type OffsetLag,
  type QueueSize,
  type StatisticsQuery,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import type { Executor } from '../domain/sql.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import {
  cebdDays,
  countByCategory,
  countWaitingJobs,
  deliveryInfo,
  eventsByProcess,
  incompleteUnits,
  offsetLag,
  uniqueConsumptionPoints,
  type Range,
} from './repository.js';

/**
 * The dashboard's statistics and completeness verification (issue 9 item 6; calls.md §3, §7, §9).
 * Every figure is counted by one statement of repository.ts; this module picks the range and shapes
 * the answer (one item per category, zeros included, so the screen's table has a fixed set of rows).
 */

/**
 * The ids of the jobs waiting in pg-boss (created, or waiting for a retry), of every area: the route
 * asks the job runner; the area's own are picked through job_run under row-level security.
 */
export type WaitingJobs = () => Promise<readonly string[]>;

const DAY_MS = 86_400_000;

/**
 * Runs the statements of one answer in one transaction of the area (one snapshot), without JIT:
 * these aggregates are estimated costly enough for PostgreSQL to compile them, which took longer
 * (2.3 s in bench/statistics.ts) than running them. PGlite ignores the setting.
 */
async function read<T>(ctx: ServiceContext, work: (ex: Executor) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('jit', 'off', true)`);
    return work(tx);
  });
}

/** The request's range, or the last DASHBOARD_DAYS days up to `now` (the dashboard's window). */
export function rangeOf(query: StatisticsQuery, now = new Date()): Range {
  if (query.timeRange) return query.timeRange;
  return { start: new Date(now.getTime() - DASHBOARD_DAYS * DAY_MS).toISOString(), end: now.toISOString() };
}

const zeros = (): Record<DashboardCategory, number> =>
  Object.fromEntries(DASHBOARD_CATEGORIES.map((c) => [c, 0])) as Record<DashboardCategory, number>;

/** GET /statistics/queue-size. */
export async function queueSize(ctx: ServiceContext, waiting: WaitingJobs): Promise<QueueSize> {
  const queue = zeros();
  const ids = await waiting();
  for (const { category, n } of await countWaitingJobs(ctx.db, ctx.tenant.uuid, ids)) queue[category] = n;
  return queue;
}

/** GET /statistics/dashboardstatistics: every category, in the order of calls.md §9. */
export async function dashboardStatistics(
  ctx: ServiceContext,
  query: StatisticsQuery,
  waiting: WaitingJobs,
): Promise<DashboardStatisticsItem[]> {
  const range = rangeOf(query);
  const queue = await queueSize(ctx, waiting);
  const { counts, points } = await read(ctx, async (ex) => ({
    counts: await countByCategory(ex, ctx.tenant.uuid, range),
    points: await uniqueConsumptionPoints(ex, ctx.tenant.uuid, range),
  }));
  return DASHBOARD_CATEGORIES.map((type) => {
    const columns = Object.fromEntries(
      STATISTICS_BUCKETS.map((b) => [b, counts.find((c) => c.category === type && c.bucket === b)?.n ?? 0]),
    ) as Record<(typeof STATISTICS_BUCKETS)[number], number>;
    return {
      type,
      ...columns,
      sum: STATISTICS_BUCKETS.reduce((total, b) => total + columns[b], 0),
      queue: queue[type],
      uniqueCPIDs: CPID_CATEGORIES.includes(type) ? (points.find((p) => p.category === type)?.n ?? 0) : null,
    };
  });
}

/** GET /statistics/dashboardevents. */
export async function dashboardEvents(ctx: ServiceContext, query: StatisticsQuery): Promise<DashboardEvent[]> {
  return read(ctx, (ex) => eventsByProcess(ex, ctx.tenant.uuid, rangeOf(query)));
}

/** GET /statistics/cebd: the days in zoneId, by default the area's own zone. */
export async function cebdStatistics(ctx: ServiceContext, zoneId: string | undefined): Promise<CebdStatistics> {
  const zone = zoneId ?? ctx.tenant.timeZone;
  const days = await read(ctx, (ex) => cebdDays(ex, ctx.tenant.uuid, zone, new Date().toISOString()));
  return { zoneId: zone, days };
}

/** GET /statistics/offset-lag. */
export async function waitingWork(ctx: ServiceContext): Promise<OffsetLag> {
  return read(ctx, (ex) => offsetLag(ex, ctx.tenant.uuid));
}

/** GET /statistics/completenessverification/tractionunits (threshold validated by the contract: 24 h or more). */
export async function completenessVerification(
  ctx: ServiceContext,
  thresholdHours: number,
  now = new Date(),
): Promise<CompletenessRow[]> {
  // Per organisation (the owner of each unit): an actor sees the units of the organisations it may see.
  const visible = await visibleOrganisations(ctx);
  return read(ctx, (ex) => incompleteUnits(ex, ctx.tenant.uuid, thresholdHours, now.toISOString(), visible));
}

/** GET /statistics/cebd-delivery-info. */
export async function cebdDeliveryInfo(ctx: ServiceContext, orgType: string): Promise<CebdDeliveryInfo[]> {
  const visible = await visibleOrganisations(ctx);
  return read(ctx, (ex) => deliveryInfo(ex, ctx.tenant.uuid, orgType, new Date().toISOString(), visible));
}
