import {
  cebdPreprocessingProcedure,
  combineProcedure,
  trainPreprocessingProcedure,
} from './modules/processing/procedures.js';
import type { ProcedureDefinition } from './modules/processing/define-procedure.js';
import { energyOutsideTrainRunProcedure, shuntingAndStablingProcedure } from './modules/allocation/procedures.js';
import {
  calculateConsumptionFactorProcedure,
  estimationProcedures,
  fixedVolumeProcedures,
  freightConsumptionFactorProcedure,
  meteredEnergyAggregationProcedure,
  onAccountProcedure,
  priceAndSupplyProcedure,
  settlementProcedure,
} from './modules/settlement/procedures.js';

/**
 * Every procedure of contracts PROCEDURES, one definition each (modules/processing/define-procedure.ts),
 * in the order a CEBD file meets them (ARCHITECTURE.md "A CEBD file from upload to settlement"). The
 * app hands this list to the `procedure-run` job and the chain (buildApp's `procedures`); each entry's
 * `followers` is what the system runs after it. procedures.test.ts holds that every procedure has
 * exactly one definition.
 */
export const ALL_PROCEDURES: readonly ProcedureDefinition[] = [
  cebdPreprocessingProcedure,
  trainPreprocessingProcedure,
  ...estimationProcedures,
  combineProcedure,
  shuntingAndStablingProcedure,
  energyOutsideTrainRunProcedure,
  priceAndSupplyProcedure,
  settlementProcedure,
  onAccountProcedure,
  calculateConsumptionFactorProcedure,
  freightConsumptionFactorProcedure,
  meteredEnergyAggregationProcedure,
  ...fixedVolumeProcedures,
];
