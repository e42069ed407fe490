import { z } from 'zod';
import { instantSchema } from './domain/entity.js';
import { TEXT_LIMITS, text } from './limits.js';

/**
 * Settlement and verification (issue 10 items 2 and 5, calls.md §3 "Settlement base verification
 * row", §7 GET /timeseries/settlement/settlementbaseverification). Energies in kWh (consumed minus
 * regenerated), costs in the area's currency; rounding happens only where a figure is shown
 * (calls.md §9: 4 decimals).
 */

/** The energy categories an organisation's supply is made of: supply = metered + estimated + other + losses. */
export const SETTLEMENT_CATEGORIES = ['metered', 'estimated', 'other', 'losses'] as const;
export type SettlementCategory = (typeof SETTLEMENT_CATEGORIES)[number];

/** GET /timeseries/settlement/settlementbaseverification: the month (in the area's zone) and an optional energy use settlement area. */
export const settlementBaseVerificationQuerySchema = z.object({
  startYear: z.coerce.number().int().min(1970).max(2069),
  startMonth: z.coerce.number().int().min(1).max(12),
  /** An energy use settlement area: only its grid areas (grid areas carry energyUseSettlementAreaRef). */
  eusa: z.uuid().optional(),
});
export type SettlementBaseVerificationQuery = z.infer<typeof settlementBaseVerificationQuerySchema>;

const namedRefSchema = z.object({
  uuid: z.uuid(),
  type: text(TEXT_LIMITS.identifier),
  name: text(TEXT_LIMITS.name).nullable(),
});

/**
 * calls.md §3 "Settlement base verification row": organisation, price area, supplyEnergy,
 * otherEnergy, estimatedEnergy, meteredEnergy, onAccountEnergy with entity refs. Ours besides:
 * lossesEnergy (the organisation's share of the grid losses: the term that closes supply = metered
 * + estimated + other + losses) and the cost of each, in the area's currency.
 */
export const settlementBaseVerificationRowSchema = z.object({
  organisation: namedRefSchema,
  priceArea: namedRefSchema,
  supplyEnergy: z.number(),
  otherEnergy: z.number(),
  estimatedEnergy: z.number(),
  meteredEnergy: z.number(),
  onAccountEnergy: z.number(),
  lossesEnergy: z.number(),
  supplyCost: z.number(),
  meteredCost: z.number(),
  estimatedCost: z.number(),
  otherCost: z.number(),
  lossesCost: z.number(),
  refs: z.array(namedRefSchema).max(4),
});
export type SettlementBaseVerificationRow = z.infer<typeof settlementBaseVerificationRowSchema>;

/**
 * Ours: the month's balance per price area (the sum of its grid areas): supply measured at the
 * substations against metered + estimated + other + losses. `difference` is supply minus the sum of
 * the four; the balance closes when it is 0 (to the kWh). Hours with energy but no supply are counted.
 */
export const priceAreaBalanceSchema = z.object({
  priceArea: namedRefSchema,
  supplyEnergy: z.number(),
  meteredEnergy: z.number(),
  estimatedEnergy: z.number(),
  otherEnergy: z.number(),
  lossesEnergy: z.number(),
  /** Losses not billed to an organisation (100 - lossSharePercent of the price-and-supply configuration). */
  unbilledLossesEnergy: z.number(),
  difference: z.number(),
  hoursWithoutSupply: z.number().int(),
  hoursWithoutPrice: z.number().int(),
  /** Average spot price charged (area currency per MWh), weighted by metered energy; null without energy. */
  averagePrice: z.number().nullable(),
});
export type PriceAreaBalance = z.infer<typeof priceAreaBalanceSchema>;

/** GET /timeseries/settlement/lines (ours): a settlement result's lines per organisation and price area. */
export const settlementLinesQuerySchema = z.object({ procedureResultId: z.coerce.number().int().positive() });

export const settlementLineSchema = z.object({
  procedureResultId: z.number().int(),
  organisation: namedRefSchema,
  priceArea: namedRefSchema,
  meteredEnergy: z.number(),
  estimatedEnergy: z.number(),
  otherEnergy: z.number(),
  lossesEnergy: z.number(),
  onAccountEnergy: z.number(),
  supplyEnergy: z.number(),
  meteredCost: z.number(),
  estimatedCost: z.number(),
  otherCost: z.number(),
  lossesCost: z.number(),
  onAccountCost: z.number(),
  supplyCost: z.number(),
  /** Fees, tax and VAT from the organisation's contract (issue 10 item 3); total = supply cost + all four. */
  gridFeeCost: z.number(),
  energyFeeCost: z.number(),
  taxCost: z.number(),
  vatCost: z.number(),
  totalCost: z.number(),
  /** What remains due after the on-account amount already invoiced: totalCost - onAccountCost. */
  dueCost: z.number(),
});
export type SettlementLine = z.infer<typeof settlementLineSchema>;

/** GET /timeseries/settlement/hourly (ours, issue 10 item 7): the hourly values behind one settled figure. */
export const settlementHourlyQuerySchema = z.object({
  startYear: z.coerce.number().int().min(1970).max(2069),
  startMonth: z.coerce.number().int().min(1).max(12),
  organisation: z.uuid(),
  priceArea: z.uuid(),
  category: z.enum(SETTLEMENT_CATEGORIES).default('metered'),
});
export const settlementHourSchema = z.object({
  hourStart: instantSchema,
  gridArea: namedRefSchema,
  energy: z.number(),
  price: z.number().nullable(),
  cost: z.number().nullable(),
});
export type SettlementHour = z.infer<typeof settlementHourSchema>;

/**
 * GET /timeseries/settlement/records (ours, issue 10 item 7): the 5-minute CEBD records behind one
 * hourly metered value (an organisation's energy in a grid area and hour), each with the file it
 * came in: what an auditor follows from a settled figure down to the source.
 */
export const settlementRecordsQuerySchema = z.object({
  organisation: z.uuid(),
  gridArea: z.uuid(),
  hourStart: instantSchema,
});
export const settlementRecordSchema = z.object({
  consumptionPoint: namedRefSchema,
  periodEnd: instantSchema,
  activeConsumed: z.number(),
  activeRegenerated: z.number(),
  /** The allocation's category (allocated_energy_hourly): train-run, shunting-and-stabling or energy-outside-train-run. */
  category: text(TEXT_LIMITS.code),
  trainNumber: text(TEXT_LIMITS.name).nullable(),
  /** The data-log entry of the CEBD file the record came in, and its file name. */
  dataLogId: z.number().int().nullable(),
  fileName: text(TEXT_LIMITS.address).nullable(),
});
export type SettlementRecord = z.infer<typeof settlementRecordSchema>;

/**
 * GET /timeseries/settlement/warnings (ours, issue 18 item 5): what a controller must know before
 * trusting a settlement result's figures.
 * - missingContracts: lines billed without fees, tax and VAT because the organisation has no
 *   contract valid in the price area (the run's 'contract-missing' event names them too), with the
 *   number of days so billed.
 * - supplyChanged: supply, spot price or exchange-rate values of the result's period stored (or
 *   removed) after price-and-supply priced their hour: the prices the settlement reads are stale
 *   until price-and-supply runs again. `changes` names a few series and the files they came in.
 * - repricedAfterSettlement: price-and-supply ran for the period after this settlement started: its
 *   figures are no longer those of the prices and supply in place (run the settlement again).
 * - allocatedAfterPricing: hours whose energy was allocated after price-and-supply priced them.
 */
export const settlementWarningsQuerySchema = settlementLinesQuerySchema;
export const settlementWarningsSchema = z.object({
  procedureResultId: z.number().int(),
  missingContracts: z
    .array(z.object({ organisation: namedRefSchema, priceArea: namedRefSchema, days: z.number().int() }))
    .max(1000),
  supplyChanged: z
    .object({
      pricedAt: instantSchema,
      changedAt: instantSchema,
      values: z.number().int(),
      changes: z
        .array(
          z.object({
            typeName: text(TEXT_LIMITS.identifier),
            identifier: text(TEXT_LIMITS.name),
            fileName: text(TEXT_LIMITS.name).nullable(),
          }),
        )
        .max(10),
    })
    .nullable(),
  repricedAfterSettlement: z.object({ pricedAt: instantSchema }).nullable(),
  allocatedAfterPricing: z.object({ hours: z.number().int() }).nullable(),
});
export type SettlementWarnings = z.infer<typeof settlementWarningsSchema>;
