import { currentConfig } from '../processing-config/service.js';
import { preprocessCebd } from './cebd-preprocessing.js';
import { registerProcedure } from './registry.js';

/**
 * The procedures implemented so far, registered with the procedure runs (jobs/procedure-run.ts
 * imports this module). Every other procedure of contracts PROCEDURES still runs as "nothing to do
 * yet" (run.ts nothingToDoYet).
 */

/** calls.md §8 codes 54-60 as the processing events name them. */
export const CEBD_CODE_MESSAGES: Record<number, string> = {
  54: 'Data received from unknown EMS',
  55: 'Data from EMS received via other DCs',
  56: 'Too many missing values',
  57: 'Too frequent low quality codes',
  58: 'Value outside expected limits',
  59: 'Data outside area',
  60: 'Master data missing',
};

let registered = false;

export function registerImplementedProcedures(): void {
  if (registered) return;
  registered = true;
  // cebd-preprocessing: the chunk's records validated and placed (set-based, modules/processing/
  // cebd-preprocessing.ts) with the configuration valid at the chunk's start; one event per code
  // found, its incidents the number of records.
  registerProcedure('cebd-preprocessing', {
    async run(ctx, scope, report) {
      const config = await currentConfig(ctx, 'cebd-preprocessing', scope.start);
      const result = await preprocessCebd(
        ctx,
        { start: scope.start, end: scope.end },
        {
          limits: {
            minPeriodsPerHour: 12 - config.maxMissingValuesPerHour,
            maxLowQualityShare: config.lowQualitySharePercent / 100,
          },
        },
      );
      for (const [code, incidents] of Object.entries(result.byCode)) {
        if (incidents > 0) {
          report.event({
            errorCode: code,
            incidents,
            message: `${CEBD_CODE_MESSAGES[Number(code)] ?? 'Validation'}: ${incidents} of ${result.records} records`,
            time: scope.start,
          });
        }
      }
    },
  });
}
