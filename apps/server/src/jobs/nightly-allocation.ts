import { dayInZone, dayStartInZone, type AreaKind, type ProcedureName } from '@railwatt/contracts';
import { z } from 'zod';
import { defineJob } from '../modules/jobs/define-job.js';
import { SYSTEM_USERNAME } from '../modules/processing/chain.js';
import { earliestDueDay } from '../modules/processing/due-days.js';
import type { JobDependencies } from './dependencies.js';
import { systemRoundAreas, type SystemRoundDeps } from './system-round.js';

/**
 * Every night at 01:30 UTC: yesterday has ended in every European area (02:30 or 03:30 on their clocks)
 * and its CEBD files have had the evening to arrive and be checked.
 */
export const NIGHTLY_ALLOCATION_CRON = '30 1 * * *';

/**
 * How far back the nightly run looks for due days. A day marked earlier (a correction of an old
 * month) is processed by the month-end re-check's chain or a run from the run page.
 */
export const NIGHTLY_LOOKBACK_DAYS = 62;

/** The steps that keep due days (due-days.ts), in the order of the chain. */
const ALLOCATION_STEPS: readonly ProcedureName[] = [
  'train-preprocessing',
  'combine',
  'shunting-and-stabling',
  'energy-outside-train-run',
];

/**
 * The nightly allocation (issue 19, ARCHITECTURE.md "Allocated as the days arrive"): in every area
 * with a due day before today (a CEBD file checked, a train-run file stored, a step before failed),
 * a train-preprocessing run by the system with option onlyDue from the earliest due day to the end
 * of yesterday. The chain follows it with onlyDue (chain.ts queueFollowers): combine,
 * shunting-and-stabling and energy-outside-train-run each process only their due days, so a month's
 * allocation is done a day at a time as the days arrive, and month end has the last day and the
 * days a late file changed left to do. Each run goes through the `procedure-follow-up` job, which
 * waits while another run of those days is under way.
 */
export async function startNightlyAllocation(
  deps: SystemRoundDeps,
  now: Date = new Date(),
): Promise<{ area: AreaKind; start: string; end: string }[]> {
  const contexts = await systemRoundAreas(deps, 'the nightly allocation');
  const started: { area: AreaKind; start: string; end: string }[] = [];
  for (const ctx of contexts) {
    const zone = ctx.tenant.timeZone;
    const today = dayInZone(now, zone);
    const end = new Date(dayStartInZone(today, zone)).toISOString();
    const lookback = new Date(Date.parse(`${today}T00:00:00Z`) - NIGHTLY_LOOKBACK_DAYS * 86_400_000);
    const from = dayStartInZone(lookback.toISOString().slice(0, 10), zone);
    const due = await earliestDueDay(ctx.db, ctx.tenant.uuid, ALLOCATION_STEPS, from);
    if (!due || Date.parse(due) >= Date.parse(end)) continue;
    const start = new Date(due).toISOString();
    await deps.followUp(ctx, {
      procedure: 'train-preprocessing',
      start,
      end,
      cause: `started by the system: the nightly allocation of ${dayInZone(new Date(start), zone)} to ${dayInZone(
        new Date(Date.parse(end) - 1),
        zone,
      )}`,
      runOptions: { onlyDue: true },
    });
    started.push({ area: ctx.tenant.kind, start, end });
  }
  return started;
}

/**
 * The nightly allocation as a job: as the system in the Administration area, it queues each area's
 * run through the chain's follow-up queue.
 */
export const nightlyAllocationJob = defineJob({
  name: 'nightly-allocation',
  payload: z.object({}),
  retryLimit: 2,
  expireInSeconds: 15 * 60,
  schedule: { cron: NIGHTLY_ALLOCATION_CRON, actor: SYSTEM_USERNAME },
  handler: async (ctx, _payload, _run, { database, chain }: JobDependencies) => {
    const started = await startNightlyAllocation({ database, followUp: chain.followUp, log: ctx.log });
    return `Nightly allocation queued in ${started.length} areas${
      started.length ? `: ${started.map((s) => `${s.area} ${s.start} .. ${s.end}`).join(', ')}` : ''
    }`;
  },
});
