import { dayInZone, dayStartInZone, MAX_RUN_DAYS, type AreaKind } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rows } from '../modules/domain/sql.js';
import { defineJob } from '../modules/jobs/define-job.js';
import { SYSTEM_USERNAME } from '../modules/processing/chain.js';
import type { JobDependencies } from './dependencies.js';
import { systemRoundAreas, type SystemRoundDeps } from './system-round.js';

export const CEBD_MONTH_END_JOB = 'cebd-month-end';

/**
 * At 03:00 UTC on the first of a month: the month has ended in every European area, and the day's
 * other rounds (the aggregation at 02:00) have started.
 */
export const CEBD_MONTH_END_CRON = '0 3 1 * *';

/** The month before the one `now` falls in, in the area's zone: its first day and the next month's. */
export function lastMonth(now: Date, timeZone: string): { start: string; end: string; label: string } {
  const [year, month] = dayInZone(now, timeZone).split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
  const next = new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
  return { start: dayStartInZone(first, timeZone), end: dayStartInZone(next, timeZone), label: first.slice(0, 7) };
}

/**
 * The month-end re-check (issue 19 item 2): in every area with CEBD records in the last month, a
 * cebd-preprocessing run by the system with run option onlyDue: only the days a master-data change
 * marked (cebd_recheck) and the days holding records not checked yet are checked again, the rest were
 * checked when their files arrived. The run starts back at an older marked day (a change saved after
 * its month's run), at most a run's longest period. The chain follows it for the whole period
 * (combine and the allocations), as after any run. Each run goes through the `procedure-follow-up`
 * job, which waits while another cebd-preprocessing run of those days is under way (a file's check)
 * instead of losing the month.
 */
export async function startMonthEndRechecks(
  deps: SystemRoundDeps,
  now: Date = new Date(),
): Promise<{ area: AreaKind; start: string; end: string }[]> {
  const contexts = await systemRoundAreas(deps, 'the month-end CEBD re-check');
  const started: { area: AreaKind; start: string; end: string }[] = [];
  for (const ctx of contexts) {
    const area = ctx.tenant;
    const month = lastMonth(now, area.timeZone);
    const earliest = Date.parse(month.end) - MAX_RUN_DAYS * 86_400_000;
    const [found] = await rows<{ records: boolean; marked: string | null }>(
      ctx.db,
      sql`SELECT EXISTS (SELECT 1 FROM cebd_record r WHERE r.tenant = ${area.uuid}::uuid
                            AND r.period_end > ${month.start}::timestamptz AND r.period_end <= ${month.end}::timestamptz) AS records,
                 (SELECT rw_iso(min(m.day_start)) FROM cebd_recheck m WHERE m.tenant = ${area.uuid}::uuid
                     AND m.day_start >= ${new Date(earliest).toISOString()}::timestamptz) AS marked`,
    );
    if (!found?.records && !found?.marked) continue;
    const start = new Date(
      found.marked && Date.parse(found.marked) < Date.parse(month.start) ? found.marked : month.start,
    ).toISOString();
    const end = new Date(month.end).toISOString();
    await deps.followUp(ctx, {
      procedure: 'cebd-preprocessing',
      start,
      end,
      cause: `started by the system: the month-end re-check of ${month.label}`,
      runOptions: { onlyDue: true },
    });
    started.push({ area: area.kind, start, end });
  }
  return started;
}

/**
 * The month-end round as a job: on the first of a month at 03:00 UTC, as the system in the
 * Administration area (its job_run rows show there), it queues each area's re-check through the
 * chain's follow-up queue.
 */
export const cebdMonthEndJob = defineJob({
  name: CEBD_MONTH_END_JOB,
  payload: z.object({}),
  retryLimit: 2,
  expireInSeconds: 15 * 60,
  schedule: { cron: CEBD_MONTH_END_CRON, actor: SYSTEM_USERNAME },
  handler: async (ctx, _payload, _run, { database, chain }: JobDependencies) => {
    const started = await startMonthEndRechecks({ database, followUp: chain.followUp, log: ctx.log });
    return `Month-end CEBD re-check queued in ${started.length} areas${
      started.length ? `: ${started.map((s) => `${s.area} ${s.start} .. ${s.end}`).join(', ')}` : ''
    }`;
  },
});
