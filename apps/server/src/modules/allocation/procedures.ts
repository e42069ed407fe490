import { PROCESS_EVENT_CODES } from '@railwatt/contracts';
import { currentConfig } from '../processing-config/service.js';
import { DAYS_AT_ONCE, defineProcedure } from '../processing/define-procedure.js';
import { allocateEnergyOutsideTrainRun } from './energy-outside-train-run.js';
import { allocateShuntingAndStabling } from './shunting-and-stabling.js';

/**
 * The code of energy-outside-train-run's event for records nobody can be billed for (no previous
 * run within the limit, no vehicle keeper): "Match energy failed" of calls.md §8 says exactly that
 * the energy could not be matched to a payer, so no new code was needed.
 */
export const NO_PAYER_CODE = 'match-energy-failed' satisfies keyof typeof PROCESS_EVENT_CODES;
export const LIMITS_EXCEEDED_CODE = 'shunting-limits-exceeded' satisfies keyof typeof PROCESS_EVENT_CODES;

/**
 * shunting-and-stabling and energy-outside-train-run, listed in src/procedures.ts ALL_PROCEDURES.
 * Each chunk reads its configuration valid at the chunk's start and reports one event per kind of
 * record left without a payer.
 */
export const shuntingAndStablingProcedure = defineProcedure({
  name: 'shunting-and-stabling',
  configuration: ['shunting-and-stabling', 'train-preprocessing'],
  events: [LIMITS_EXCEEDED_CODE],
  followers: ['energy-outside-train-run'],
  keepsDueDays: true,
  concurrency: DAYS_AT_ONCE,
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'shunting-and-stabling', scope.start);
    const late = await currentConfig(ctx, 'train-preprocessing', scope.start);
    const result = await allocateShuntingAndStabling(
      ctx,
      { start: scope.start, end: scope.end },
      {
        limitMinutes: config.timeLimitAfterRunMinutes,
        maxDaysLate: late.maxDaysLate,
        procedureResultId: scope.run.procedureResultId,
      },
    );
    report.records(result.records);
    if (result.exceeded > 0) {
      // LOW: energy beyond the limit is not an error in the data; the next step bills it (the
      // previous run's RU or the vehicle keeper). The event tells how much left this step.
      report.event({
        errorCode: LIMITS_EXCEEDED_CODE,
        severity: 'LOW',
        incidents: result.exceeded,
        message:
          `${PROCESS_EVENT_CODES[LIMITS_EXCEEDED_CODE]}: ${result.exceeded} of ${result.records} records have no ` +
          `train run within ${config.timeLimitAfterRunMinutes} minutes (left to energy-outside-train-run)` +
          (result.delayedTask ? `; judged again when due at ${result.delayedTask.dueAt}` : ''),
        time: scope.start,
      });
    }
  },
});
/**
 * The last allocation step. No follower: price-and-supply and settlement are started by a person
 * (ARCHITECTURE.md "A CEBD file from upload to settlement" says why).
 */
export const energyOutsideTrainRunProcedure = defineProcedure({
  name: 'energy-outside-train-run',
  configuration: ['energy-outside-train-run'],
  events: [NO_PAYER_CODE],
  followers: [],
  concurrency: DAYS_AT_ONCE,
  keepsDueDays: true,
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'energy-outside-train-run', scope.start);
    const result = await allocateEnergyOutsideTrainRun(
      ctx,
      { start: scope.start, end: scope.end },
      { limitMinutes: config.timeLimitMinutes, procedureResultId: scope.run.procedureResultId },
    );
    report.records(result.records);
    if (result.noPayer > 0) {
      report.event({
        errorCode: NO_PAYER_CODE,
        incidents: result.noPayer,
        message:
          `${PROCESS_EVENT_CODES[NO_PAYER_CODE]}: ${result.noPayer} of ${result.records} records have neither a ` +
          `previous train run within ${config.timeLimitMinutes} minutes nor a vehicle keeper`,
        time: scope.start,
      });
    }
  },
});
