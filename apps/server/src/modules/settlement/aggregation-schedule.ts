import { dayInZone, dayStartInZone, type MeteredEnergyAggregation, type ProcedureResult } from '@railwatt/contracts';
import { systemContexts, type ServiceContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { listConfig } from '../processing-config/service.js';
import { startRun, type RunQueue } from '../processing/service.js';

/**
 * The daily first and second metered-energy-aggregation (DOMAIN.md "Processing" step 10, issue 10
 * item 4): in every area that has stored a configuration for the procedure (a person set it up
 * there; the code defaults alone start nothing), the FIRST aggregation of the day
 * daysBackFirstAggregation days before the area's today, and the SECOND of the day
 * daysBackSecondAggregation days before. Each is an ordinary procedure run of its area day
 * (startRun with the aggregation as its extra param), so the process log, the data log and the
 * delivery follow as for a run a person starts. A run of the same day already under way is left
 * alone (process_already_running) and said so in the round's answer.
 */

export const AGGREGATION_SCHEDULE_ACTOR = 'system';

const addDays = (day: string, n: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** The days a round on `today` (the area's calendar day) aggregates, first then second. */
export function aggregationDays(
  today: string,
  config: { daysBackFirstAggregation: number; daysBackSecondAggregation: number },
): { aggregation: MeteredEnergyAggregation; day: string }[] {
  return [
    { aggregation: 'FIRST', day: addDays(today, -config.daysBackFirstAggregation) },
    { aggregation: 'SECOND', day: addDays(today, -config.daysBackSecondAggregation) },
  ];
}

export interface ScheduledAggregation {
  area: string;
  aggregation: MeteredEnergyAggregation;
  day: string;
  result?: ProcedureResult;
  /** Why no run was started (a run of the day under way, or another refusal). */
  skipped?: string;
}

/** One round (the `metered-energy-aggregation-schedule` job): the runs it started or skipped per area. */
export async function runScheduledAggregations(
  deps: { database: Database; queue: RunQueue; log: ServiceContext['log'] },
  now: Date = new Date(),
): Promise<ScheduledAggregation[]> {
  const contexts = await systemContexts(deps.database, {
    username: AGGREGATION_SCHEDULE_ACTOR,
    log: deps.log,
    why: 'the daily metered-energy-aggregation round',
  });
  const answers: ScheduledAggregation[] = [];
  for (const ctx of contexts) {
    const area = ctx.tenant;
    const config = await listConfig(ctx, 'metered-energy-aggregation', { refTime: now.toISOString() });
    if (config.uuid === null) continue;
    const value = config.current.value as { daysBackFirstAggregation: number; daysBackSecondAggregation: number };
    for (const { aggregation, day } of aggregationDays(dayInZone(now, area.timeZone), value)) {
      const answer: ScheduledAggregation = { area: area.kind, aggregation, day };
      try {
        answer.result = await startRun(
          ctx,
          deps.queue,
          'metered-energy-aggregation',
          {
            timeRange: {
              start: dayStartInZone(day, area.timeZone),
              end: dayStartInZone(addDays(day, 1), area.timeZone),
            },
            refs: [],
          },
          {
            bySystem: true,
            cause: `the daily ${aggregation === 'FIRST' ? 'first' : 'second'} aggregation`,
            runOptions: { aggregation },
          },
        );
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        answer.skipped = error.message;
        deps.log.warn(
          { area: area.kind, aggregation, day, reason: error.message },
          'scheduled aggregation not started',
        );
      }
      answers.push(answer);
    }
  }
  return answers;
}
