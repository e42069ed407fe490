import { CEBD_CODE_MESSAGES, ENTITY_KINDS, PROCESS_EVENT_CODES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { currentConfig } from '../processing-config/service.js';
import { CEBD_PREPROCESSING_CODES, preprocessCebd, type CebdPreprocessingResult } from './cebd-preprocessing.js';
import { cebdChunkDue, clearCebdRecheck } from './cebd-recheck.js';
import { combine, COMBINE_CONCURRENCY, COMBINE_SEVERITY, withdrawSilentRunEvents } from './combine.js';
import { DAYS_AT_ONCE, defineProcedure } from './define-procedure.js';
import { preprocessTrainRuns, TRAIN_CHECK_SEVERITY } from './train-preprocessing.js';

/**
 * The procedures of this folder (ARCHITECTURE.md "A CEBD file from upload to settlement"): the two
 * preprocessings and combine, listed with the others in src/procedures.ts ALL_PROCEDURES.
 */

/** The refs' type of a consumption point (a run limited to consumption points). */
const CONSUMPTION_POINT = ENTITY_KINDS.consumptionpoint;

// cebd-preprocessing: the chunk's records validated and placed (set-based, modules/processing/
// cebd-preprocessing.ts) with the configuration valid at the chunk's start; one event per code
// found, its incidents the number of records. A run limited to consumption points (its refs: the
// check of a file on arrival, chain.ts startArrivalCheck) checks their records alone; the month-end
// run (option onlyDue) skips a day without a re-check mark or unchecked record (cebd-recheck.ts,
// isDue). A chunk that checked its whole day answers the day's re-check mark; every chunk that
// checked marks its day due for combine (due-days.ts), which the nightly allocation runs.
export const cebdPreprocessingProcedure = defineProcedure({
  name: 'cebd-preprocessing',
  configuration: ['cebd-preprocessing'],
  events: Object.values(CEBD_PREPROCESSING_CODES).map(String),
  followers: ['combine'],
  concurrency: DAYS_AT_ONCE,
  async isDue(ctx, scope) {
    await lockCebdDay(ctx, scope);
    return cebdChunkDue(ctx, scope);
  },
  async run(ctx, scope, report) {
    await lockCebdDay(ctx, scope);
    const consumptionPoints = scope.run.refs.filter((r) => r.type === CONSUMPTION_POINT).map((r) => r.uuid);
    const config = await currentConfig(ctx, 'cebd-preprocessing', scope.start);
    const result = await preprocessCebd(
      ctx,
      { start: scope.start, end: scope.end },
      {
        limits: {
          minPeriodsPerHour: 12 - config.maxMissingValuesPerHour,
          maxLowQualityShare: config.lowQualitySharePercent / 100,
          expectedKwh: { lower: config.expectedValueLowerKwh, upper: config.expectedValueUpperKwh },
        },
        ...(consumptionPoints.length > 0 ? { consumptionPoints } : {}),
      },
    );
    if (consumptionPoints.length === 0) await clearCebdRecheck(ctx, scope);
    report.records(result.records);
    for (const [code, incidents] of Object.entries(result.byCode)) {
      if (incidents > 0) {
        report.event({
          errorCode: code,
          incidents,
          message: `${CEBD_CODE_MESSAGES[Number(code)] ?? 'Validation'}: ${incidents} of ${result.records} records${
            Number(code) === CEBD_PREPROCESSING_CODES.otherDcs ? otherDcsDetail(result.otherDcs) : ''
          }`,
          time: scope.start,
        });
      }
    }
  },
});

/**
 * One chunk of an area day of cebd-preprocessing at a time, whichever run it belongs to: a file's
 * check on arrival runs beside other runs of its days (migration 0376), so the second chunk of a day
 * waits here for the first to commit and then reads what it wrote. Released with the chunk's
 * transaction (taking it twice in one transaction is a no-op).
 */
async function lockCebdDay(ctx: Parameters<typeof cebdChunkDue>[0], scope: { start: string }): Promise<void> {
  await ctx.db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`cebd-preprocessing ${ctx.tenant.uuid} ${scope.start}`}::text))`,
  );
}

// train-preprocessing: the current train runs of the chunk's operating day checked
// (modules/processing/train-preprocessing.ts); one event per code, its incidents the runs. It keeps
// due days: a train-run file marks the operating days it changed (trainrun/service.ts).
export const trainPreprocessingProcedure = defineProcedure({
  name: 'train-preprocessing',
  configuration: ['train-preprocessing'],
  events: Object.keys(TRAIN_CHECK_SEVERITY),
  // The estimation of non-metered runs (issue 10 item 1) reads the checked runs of the period: first
  // from the runs' reported figures (reported-train-consumption, which names the refinement next).
  followers: ['combine', 'reported-train-consumption'],
  concurrency: DAYS_AT_ONCE,
  keepsDueDays: true,
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'train-preprocessing', scope.start);
    const result = await preprocessTrainRuns(ctx, scope.chunk.day, config, {
      procedureResultId: scope.run.procedureResultId,
    });
    for (const [code, found] of Object.entries(result.byCode)) {
      const key = code as keyof typeof TRAIN_CHECK_SEVERITY;
      report.event({
        errorCode: code,
        severity: TRAIN_CHECK_SEVERITY[key],
        incidents: found.runs,
        message: `${PROCESS_EVENT_CODES[key]}: ${found.runs} of ${result.runs} train runs of ${scope.chunk.day} (${found.examples.join(', ')})`,
        time: scope.start,
      });
    }
  },
});
// combine: the chunk's preprocessed records attached to train runs (modules/processing/combine.ts),
// with the tolerance valid at the chunk's start; one event per code found.
export const combineProcedure = defineProcedure({
  name: 'combine',
  configuration: ['combine'],
  events: Object.keys(COMBINE_SEVERITY),
  // Combine replaces the allocation of its period, so the two allocation steps after it run again.
  followers: ['shunting-and-stabling'],
  concurrency: COMBINE_CONCURRENCY,
  // Marked by each check of a day's records and of its train runs; the nightly allocation runs it.
  keepsDueDays: true,
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'combine', scope.start);
    const result = await combine(
      ctx,
      { start: scope.start, end: scope.end, day: scope.chunk.day },
      {
        toleranceMinutes: config.timeToleranceMinutes,
        procedureResultId: scope.run.procedureResultId,
      },
    );
    report.records(result.records);
    await withdrawSilentRunEvents(
      ctx,
      { start: scope.start, end: scope.end, day: scope.chunk.day },
      {
        procedureResultId: scope.run.procedureResultId,
        stillSilent: result.events['no-metered-data-received']?.incidents ?? 0,
      },
    );
    for (const [code, found] of Object.entries(result.events)) {
      const key = code as keyof typeof COMBINE_SEVERITY;
      const examples = found.examples.length > 0 ? ` (${found.examples.join(', ')})` : '';
      const of =
        key === 'no-metered-data-received' || key === 'energy-consumption-0'
          ? `${found.incidents} train runs`
          : `${found.incidents} of ${result.records} records`;
      report.event({
        errorCode: code,
        severity: COMBINE_SEVERITY[key],
        incidents: found.incidents,
        message: `${PROCESS_EVENT_CODES[key]}: ${of}${examples}`,
        time: scope.start,
      });
    }
  },
});

/**
 * Code 55's senders (issue 18 item 5): "sent by DCS-B, expected Exchange A (orgId 123)" per pair,
 * and that the records were still settled (55 is a remark about the delivery: combine allocates them).
 */
export function otherDcsDetail(pairs: CebdPreprocessingResult['otherDcs']): string {
  const named = pairs.map(
    (p) =>
      `sent by ${p.actual}, expected ${p.expected}${p.expectedOrgId ? ` (orgId ${p.expectedOrgId})` : ''}: ${p.records} records`,
  );
  return `${named.length > 0 ? ` (${named.join('; ')})` : ''}; the records were still allocated and settled`;
}
