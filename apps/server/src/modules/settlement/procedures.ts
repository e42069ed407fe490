import {
  areaCurrency,
  ESTIMATION_METHODS,
  PROCESS_EVENT_CODES,
  settlesForTpa,
  type EstimationMethod,
  type ProcedureName,
  type ProcessEventCode,
  type Severity,
} from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { currentConfig } from '../processing-config/service.js';
import { DAYS_AT_ONCE, defineProcedure, type ChunkReport } from '../processing/define-procedure.js';
import { deriveConsumptionFactors } from './consumption-factor.js';
import { estimateNonMeteredRuns, estimationSeverity } from './estimation.js';
import { queueAggregationDelivery } from './aggregation-delivery.js';
import { aggregateMeteredEnergy } from './metered-energy-aggregation.js';
import { distributeFixedVolumes } from './other-energy.js';
import { computeOnAccount } from './on-account.js';
import { priceAndSupply, PRICE_AND_SUPPLY_SEVERITY } from './price-and-supply.js';
import { settleDay } from './settle.js';
import { describeChange } from './staleness.js';

/**
 * price-and-supply and settlement as procedures (issue 10 items 2 and 5), with the estimations,
 * consumption factors, on-account, metered-energy-aggregation and the fixed installations' volumes;
 * listed in src/procedures.ts ALL_PROCEDURES. Each runs per area day like every procedure;
 * settlement's result is versioned (each run a new procedure result) and approved through
 * approve-procedure-results. None has a follower: a person starts settlement once price-and-supply
 * has priced the period (ARCHITECTURE.md "A CEBD file from upload to settlement").
 */
export const priceAndSupplyProcedure = defineProcedure({
  name: 'price-and-supply',
  configuration: ['price-and-supply'],
  events: Object.keys(PRICE_AND_SUPPLY_SEVERITY),
  followers: [],
  concurrency: DAYS_AT_ONCE,
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'price-and-supply', scope.start);
    const result = await priceAndSupply(
      ctx,
      { start: scope.start, end: scope.end },
      { lossSharePercent: config.lossSharePercent, procedureResultId: scope.run.procedureResultId },
    );
    reportCounted(report, scope, result.events, PRICE_AND_SUPPLY_SEVERITY, `${result.gridHours} grid-area hours`);
  },
});

/**
 * After the estimate from the runs' reported figures (reported-train-consumption), the refinement
 * train-preprocessing's configuration names (estimationMethod), if another.
 */
async function refinement(ctx: ServiceContext, periodStart: string): Promise<ProcedureName[]> {
  const { estimationMethod } = await currentConfig(ctx, 'train-preprocessing', periodStart);
  return estimationMethod === 'reported-train-consumption' ? [] : [estimationMethod];
}

// The three estimations of non-metered runs (estimation.ts), log-only procedures: train-
// preprocessing's success runs reported-train-consumption, then the method its configuration
// names, if another (its configuredFollowers).
const estimation = (method: EstimationMethod) =>
  defineProcedure({
    name: method,
    events: Object.keys(estimationSeverity(method)),
    ...(method === 'reported-train-consumption' ? { configuredFollowers: refinement } : {}),
    async run(ctx, scope, report) {
      const result = await estimateNonMeteredRuns(ctx, scope.chunk.day, {
        procedureResultId: scope.run.procedureResultId,
        method,
      });
      reportCounted(report, scope, result.events, estimationSeverity(method), `${result.runs} non-metered train runs`);
    },
  });
export const estimationProcedures = ESTIMATION_METHODS.map(estimation);

// calculate-consumption-factor (per train profile) and freight-consumption-factor (per traffic
// category): a month's factors from its metered runs (consumption-factor.ts), computed at the last
// day of each month of the run and at the run's last day.
const monthEnds = (scope: { chunk: { day: string; index: number; count: number } }) => {
  const next = new Date(`${scope.chunk.day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.getUTCDate() === 1 || scope.chunk.index === scope.chunk.count - 1;
};
const FACTOR_EVENTS = ['consumption-factors-stored', 'too-few-train-runs'] satisfies ProcessEventCode[];
export const calculateConsumptionFactorProcedure = defineProcedure({
  name: 'calculate-consumption-factor',
  configuration: ['calculate-consumption-factor'],
  events: FACTOR_EVENTS,
  async run(ctx, scope, report) {
    if (!monthEnds(scope)) return;
    const config = await currentConfig(ctx, 'calculate-consumption-factor', scope.start);
    const result = await deriveConsumptionFactors(ctx, scope.start, {
      by: 'trainprofile',
      minTrainRuns: config.minTrainRuns,
    });
    reportFactors(report, scope.start, result);
  },
});
export const freightConsumptionFactorProcedure = defineProcedure({
  name: 'freight-consumption-factor',
  configuration: ['freight-consumption-factor'],
  events: FACTOR_EVENTS,
  async run(ctx, scope, report) {
    if (!monthEnds(scope)) return;
    const config = await currentConfig(ctx, 'freight-consumption-factor', scope.start);
    const result = await deriveConsumptionFactors(ctx, scope.start, {
      by: 'trafficcategory',
      minTrainRuns: 1,
      defaultFactor: config.defaultKwhPerGrossTonneKm,
    });
    reportFactors(report, scope.start, result);
  },
});

// on-account: the month's a-conto amounts from the month before's approved settlement (on-account.ts),
// computed once per month: at its first day, and at the run's first day.
export const onAccountProcedure = defineProcedure({
  name: 'on-account',
  configuration: ['on-account'],
  events: ['no-approved-settlement'] satisfies ProcessEventCode[],
  async run(ctx, scope, report) {
    if (!(scope.chunk.day.endsWith('-01') || scope.chunk.index === 0)) return;
    const config = await currentConfig(ctx, 'on-account', scope.start);
    const result = await computeOnAccount(ctx, scope.start, {
      sharePercent: config.onAccountSharePercent,
      procedureResultId: scope.run.procedureResultId,
    });
    if (result.basedOn === null)
      report.event({
        errorCode: 'no-approved-settlement',
        severity: 'MEDIUM',
        message: `${PROCESS_EVENT_CODES['no-approved-settlement']} for the month before ${result.month.slice(0, 10)}: no on-account amounts`,
        time: scope.start,
      });
  },
});

// metered-energy-aggregation: the day's hourly metered energy per consumption point, a file per
// paying organisation (and the TPA in the Netherlands) in the data log (metered-energy-aggregation.ts),
// the run's FIRST or SECOND aggregation (default: the configuration's); once the chunk has
// committed, the files' delivery is queued (aggregation-delivery.ts).
export const meteredEnergyAggregationProcedure = defineProcedure({
  name: 'metered-energy-aggregation',
  configuration: ['metered-energy-aggregation'],
  async run(ctx, scope, report) {
    const config = await currentConfig(ctx, 'metered-energy-aggregation', scope.start);
    const result = await aggregateMeteredEnergy(
      ctx,
      { start: scope.start, end: scope.end, day: scope.chunk.day },
      {
        aggregation: scope.run.options.aggregation ?? config.defaultAggregation,
        tpa: settlesForTpa(ctx.tenant.kind),
        deliver: true,
      },
    );
    const ids = result.files.map((f) => f.dataLogId);
    report.afterCommit((runCtx) => queueAggregationDelivery(runCtx, ids));
  },
});

// profile and annual-distribution: monthly and yearly volumes of the fixed installations spread
// over the day's hours as estimated hourly values (other-energy.ts).
export const fixedVolumeProcedures = (
  [
    ['profile', 'month'],
    ['annual-distribution', 'year'],
  ] as const
).map(([name, by]) =>
  defineProcedure({
    name,
    configuration: [name],
    async run(ctx, scope) {
      await distributeFixedVolumes(ctx, { start: scope.start, end: scope.end }, { by });
    },
  }),
);

export const settlementProcedure = defineProcedure({
  name: 'settlement',
  configuration: ['settlement'],
  events: ['prices-and-supply-missing', 'contract-missing', 'prices-and-supply-outdated'] satisfies ProcessEventCode[],
  followers: [],
  concurrency: DAYS_AT_ONCE,
  async run(ctx, scope, report) {
    const result = await settleDay(
      ctx,
      { start: scope.start, end: scope.end, day: scope.chunk.day },
      {
        procedureResultId: scope.run.procedureResultId,
        refs: scope.run.refs,
        currency: areaCurrency(ctx.tenant.kind),
        withOnAccount: scope.chunk.day.endsWith('-01') || scope.chunk.index === 0,
      },
    );
    if (result.unbalancedHours > 0) {
      report.event({
        errorCode: 'prices-and-supply-missing',
        severity: 'HIGH',
        incidents: result.unbalancedHours,
        message: `${PROCESS_EVENT_CODES['prices-and-supply-missing']}: ${result.unbalancedHours} hours of ${scope.chunk.day} have allocated energy that price-and-supply has not balanced since it was allocated`,
        time: scope.start,
      });
    }
    // Billed without fees, tax and VAT: never silently (issue 18 item 5).
    const missing = result.missingContracts;
    if (missing.length > 0) {
      const named = missing.slice(0, 10).map((m) => `${m.organisation} in ${m.priceArea}`);
      report.event({
        errorCode: 'contract-missing',
        severity: 'HIGH',
        incidents: missing.length,
        message: `${PROCESS_EVENT_CODES['contract-missing']}: ${named.join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} on ${scope.chunk.day}: energy billed without fees, tax and VAT`,
        entityIdentifier: missing.length === 1 ? `${missing[0]!.organisation} / ${missing[0]!.priceArea}` : null,
        time: scope.start,
      });
    }
    const changed = result.supplyChanged;
    if (changed) {
      report.event({
        errorCode: 'prices-and-supply-outdated',
        severity: 'HIGH',
        incidents: changed.values,
        message: `${PROCESS_EVENT_CODES['prices-and-supply-outdated']}: ${changed.values} values of ${scope.chunk.day} stored after price-and-supply priced the day (${changed.changes.slice(0, 3).map(describeChange).join(', ')}): rerun price-and-supply, then the settlement`,
        time: scope.start,
      });
    }
  },
});

/**
 * One event per code found in the chunk: its incidents "of" the chunk's `total` (e.g. "24 grid-area
 * hours"), with a few examples, at the code's severity.
 */
function reportCounted<C extends ProcessEventCode>(
  report: ChunkReport,
  scope: { start: string; chunk: { day: string } },
  events: Record<C, { incidents: number; examples: string[] }>,
  severity: Record<C, Severity>,
  total: string,
): void {
  for (const code of Object.keys(events) as C[]) {
    const found = events[code];
    if (found.incidents === 0) continue;
    report.event({
      errorCode: code,
      severity: severity[code],
      incidents: found.incidents,
      message: `${PROCESS_EVENT_CODES[code]}: ${found.incidents} of ${total} of ${scope.chunk.day} (${found.examples.join(', ')})`,
      time: scope.start,
    });
  }
}

/** One LOW event naming the factors stored, and one MEDIUM naming those with too few runs. */
function reportFactors(
  report: ChunkReport,
  time: string,
  result: Awaited<ReturnType<typeof deriveConsumptionFactors>>,
): void {
  const stored = Object.entries(result.factors);
  if (stored.length > 0)
    report.event({
      errorCode: 'consumption-factors-stored',
      severity: 'LOW',
      incidents: stored.length,
      message: `${PROCESS_EVENT_CODES['consumption-factors-stored']} for ${result.month.slice(0, 7)}: ${stored
        .map(([name, f]) => `${name} ${f.factor.toFixed(6)} kWh/gtkm (${f.runs} runs)`)
        .join('; ')}`,
      time,
    });
  if (result.tooFew.length > 0)
    report.event({
      errorCode: 'too-few-train-runs',
      severity: 'MEDIUM',
      incidents: result.tooFew.length,
      message: `${PROCESS_EVENT_CODES['too-few-train-runs']}: ${result.tooFew.slice(0, 5).join(', ')}`,
      time,
    });
}
