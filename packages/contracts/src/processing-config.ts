import { z } from 'zod';
import { DEFAULT_TIME_RANGE } from './constants.js';
import { instantSchema } from './domain/entity.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';
import type { ProcedureName } from './processing.js';

/** The three estimations of non-metered runs (DOMAIN.md step 5, modules/settlement/estimation.ts). */
export const ESTIMATION_METHODS = [
  'reported-train-consumption',
  'reported-train-consumption-with-track',
  'payload-with-trainprofile',
] as const satisfies readonly ProcedureName[];
export type EstimationMethod = (typeof ESTIMATION_METHODS)[number];

/**
 * Processing configurations (calls.md §3 "Processing config", §7 "Processes and configuration",
 * issue 9 item 2): per procedure a list of time-segmented versions over 1970-01-01 to 2070-01-01 UTC
 * (calls.md §9); the segment nearest to now is the one used; each version may carry comments.
 * The fields per procedure come from DOMAIN.md "Processing steps"; each has a default, so a
 * procedure without a stored version runs with `defaultConfig(procedure)`.
 */

/** The procedures with a configuration: the Monitor processes of product.md §2 and settlement. */
export const CONFIG_PROCEDURES = [
  'cebd-preprocessing',
  'profile',
  'annual-distribution',
  'price-and-supply',
  'on-account',
  'train-preprocessing',
  'combine',
  'calculate-consumption-factor',
  'shunting-and-stabling',
  'energy-outside-train-run',
  'freight-consumption-factor',
  'metered-energy-aggregation',
  'settlement',
] as const;
export type ConfigProcedure = (typeof CONFIG_PROCEDURES)[number];

/** calls.md §7 spells it "shunting-stabling"; the Monitor route "shunting-and-stabling". Both name one configuration. */
export const CONFIG_PROCEDURE_ALIASES: Readonly<Record<string, ConfigProcedure>> = {
  'shunting-stabling': 'shunting-and-stabling',
};

/** Procedures whose configuration is only shown (product.md §2: energy-outside-train-run). */
export const READ_ONLY_CONFIG_PROCEDURES: readonly ConfigProcedure[] = ['energy-outside-train-run'];

/** Procedures with a tpa twin (calls.md §7: settlement and train-preprocessing take tpa and refTime). */
export const TPA_CONFIG_PROCEDURES: readonly ConfigProcedure[] = ['settlement', 'train-preprocessing'];

/**
 * metered-energy-aggregation's procedure option (calls.md §7, DOMAIN.md "Processing" step 10): the
 * FIRST aggregation goes out a few days after the day, the SECOND some days later with what arrived
 * since. The option defaults to the second.
 */
export const METERED_ENERGY_AGGREGATIONS = ['FIRST', 'SECOND'] as const;
export const meteredEnergyAggregationSchema = z.enum(METERED_ENERGY_AGGREGATIONS);
export type MeteredEnergyAggregation = z.infer<typeof meteredEnergyAggregationSchema>;
export const DEFAULT_METERED_ENERGY_AGGREGATION: MeteredEnergyAggregation = 'SECOND';

export const SECOND_AGGREGATION_MESSAGE =
  'Days back in time for second aggregation must be larger than that for the first aggregation';
export const EXPECTED_VALUE_LIMITS_MESSAGE = 'The lower expected value must be below the upper expected value';
export const GROSS_WEIGHT_LIMITS_MESSAGE = 'The minimum gross weight must be below the maximum gross weight';

const int = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);
const num = (min: number, max: number, fallback: number) => z.number().min(min).max(max).default(fallback);

const cebdPreprocessing = z
  .object({
    /** Missing 5-minute values (of 12) in an hour before the hour is an error (codes 54-60). */
    maxMissingValuesPerHour: int(0, 12, 2),
    /** Share of low-quality values (percent) above which a delivery is flagged. */
    lowQualitySharePercent: num(0, 100, 10),
    /** Expected energy per 5-minute value (kWh): outside [lower, upper] is an error. */
    expectedValueLowerKwh: num(-100000, 100000, -50),
    expectedValueUpperKwh: num(-100000, 100000, 500),
  })
  .refine((c) => c.expectedValueLowerKwh < c.expectedValueUpperKwh, {
    message: EXPECTED_VALUE_LIMITS_MESSAGE,
    path: ['expectedValueUpperKwh'],
  });

const trainPreprocessing = z
  .object({
    /** Gross weight per vehicle (tonnes) outside these limits: 'weight outside limits'. */
    minGrossWeightPerVehicleTonnes: num(0, 10000, 10),
    maxGrossWeightPerVehicleTonnes: num(0, 10000, 200),
    /** A train run received more days after its operating day is 'data received too late'. */
    maxDaysLate: int(0, 365, 5),
    /**
     * How the chain estimates non-metered runs after the runs are checked: reported-train-consumption
     * always (the reported gross tonne-km, shared between the grid areas of the route's stations),
     * then, when another method is named here, that method refines the runs it can place along the
     * track (DOMAIN.md step 5).
     */
    estimationMethod: z.enum(ESTIMATION_METHODS).default('reported-train-consumption'),
  })
  .refine((c) => c.minGrossWeightPerVehicleTonnes < c.maxGrossWeightPerVehicleTonnes, {
    message: GROSS_WEIGHT_LIMITS_MESSAGE,
    path: ['maxGrossWeightPerVehicleTonnes'],
  });

const meteredEnergyAggregation = z
  .object({
    daysBackFirstAggregation: int(0, 366, 5),
    daysBackSecondAggregation: int(0, 366, 40),
    /** calls.md §7: the procedure option defaults to the second aggregation. */
    defaultAggregation: meteredEnergyAggregationSchema.default(DEFAULT_METERED_ENERGY_AGGREGATION),
  })
  .refine((c) => c.daysBackSecondAggregation > c.daysBackFirstAggregation, {
    message: SECOND_AGGREGATION_MESSAGE,
    path: ['daysBackSecondAggregation'],
  });

/** Each procedure's configuration (the `value` of a segment). Unknown keys are dropped. */
export const PROCESSING_CONFIG_SCHEMAS = {
  'cebd-preprocessing': cebdPreprocessing,
  profile: z.object({ profileReference: text(TEXT_LIMITS.name).default('') }),
  'annual-distribution': z.object({ profileReference: text(TEXT_LIMITS.name).default('') }),
  /**
   * Share of grid losses (percent) billed to the organisations, pro rata to their energy in the grid
   * area and hour (DOMAIN.md step 7: "losses ... shared out pro rata"); the rest stays with the
   * infrastructure manager. 100 by default: the supply is billed whole.
   */
  'price-and-supply': z.object({ lossSharePercent: num(0, 100, 100) }),
  'on-account': z.object({ onAccountSharePercent: num(0, 100, 100) }),
  'train-preprocessing': trainPreprocessing,
  /** How far (minutes) a metered record may lie outside a run and still be attached to it. */
  combine: z.object({ timeToleranceMinutes: int(0, 1440, 5) }),
  'calculate-consumption-factor': z.object({ minTrainRuns: int(1, 100000, 10) }),
  /** Energy within this many minutes after a run goes to the run's RU (shunting and stabling). */
  'shunting-and-stabling': z.object({ timeLimitAfterRunMinutes: int(0, 10080, 60) }),
  /** Energy outside any run within this limit goes to the previous run's RU, else the vehicle keeper. */
  'energy-outside-train-run': z.object({ timeLimitMinutes: int(0, 10080, 1440) }),
  'freight-consumption-factor': z.object({ defaultKwhPerGrossTonneKm: num(0, 10, 0.02) }),
  'metered-energy-aggregation': meteredEnergyAggregation,
  settlement: z.object({
    tpa: z.boolean().default(false),
    /** A settlement result must be approved before it is billed. */
    requireApproval: z.boolean().default(true),
    /** Days after the month's end within which results are approved. */
    approvalDeadlineDays: int(0, 365, 10),
  }),
} as const satisfies Record<ConfigProcedure, z.ZodType>;

export type ProcessingConfigValue<P extends ConfigProcedure = ConfigProcedure> = z.output<
  (typeof PROCESSING_CONFIG_SCHEMAS)[P]
>;

/** The transmission-unit model's settlement configuration, per settlement area (norway, sweden, denmark). */
export const tuSettlementConfigSchema = z.object({
  settleByTransmissionUnit: z.boolean().default(true),
  transmissionLossPercent: num(0, 100, 0),
});

/** The configuration a procedure runs with when no version is stored. */
export const defaultConfig = (procedure: ConfigProcedure): Record<string, unknown> =>
  PROCESSING_CONFIG_SCHEMAS[procedure].parse({}) as Record<string, unknown>;

/** A form field of a configuration (the edit page builds its form from these, like domain/forms.ts). */
export interface ConfigField {
  name: string;
  kind: 'integer' | 'number' | 'boolean' | 'text' | 'select';
  options?: readonly string[];
  /** Translation key suffix of the unit (minutes, days, percent, kwh, tonnes). */
  unit?: string;
}

export const CONFIG_FIELDS: Record<ConfigProcedure, readonly ConfigField[]> = {
  'cebd-preprocessing': [
    { name: 'maxMissingValuesPerHour', kind: 'integer' },
    { name: 'lowQualitySharePercent', kind: 'number', unit: 'percent' },
    { name: 'expectedValueLowerKwh', kind: 'number', unit: 'kwh' },
    { name: 'expectedValueUpperKwh', kind: 'number', unit: 'kwh' },
  ],
  profile: [{ name: 'profileReference', kind: 'text' }],
  'annual-distribution': [{ name: 'profileReference', kind: 'text' }],
  'price-and-supply': [{ name: 'lossSharePercent', kind: 'number', unit: 'percent' }],
  'on-account': [{ name: 'onAccountSharePercent', kind: 'number', unit: 'percent' }],
  'train-preprocessing': [
    { name: 'minGrossWeightPerVehicleTonnes', kind: 'number', unit: 'tonnes' },
    { name: 'maxGrossWeightPerVehicleTonnes', kind: 'number', unit: 'tonnes' },
    { name: 'maxDaysLate', kind: 'integer', unit: 'days' },
    { name: 'estimationMethod', kind: 'select', options: ESTIMATION_METHODS },
  ],
  combine: [{ name: 'timeToleranceMinutes', kind: 'integer', unit: 'minutes' }],
  'calculate-consumption-factor': [{ name: 'minTrainRuns', kind: 'integer' }],
  'shunting-and-stabling': [{ name: 'timeLimitAfterRunMinutes', kind: 'integer', unit: 'minutes' }],
  'energy-outside-train-run': [{ name: 'timeLimitMinutes', kind: 'integer', unit: 'minutes' }],
  'freight-consumption-factor': [{ name: 'defaultKwhPerGrossTonneKm', kind: 'number' }],
  'metered-energy-aggregation': [
    { name: 'daysBackFirstAggregation', kind: 'integer', unit: 'days' },
    { name: 'daysBackSecondAggregation', kind: 'integer', unit: 'days' },
    { name: 'defaultAggregation', kind: 'select', options: METERED_ENERGY_AGGREGATIONS },
  ],
  settlement: [
    { name: 'requireApproval', kind: 'boolean' },
    { name: 'approvalDeadlineDays', kind: 'integer', unit: 'days' },
  ],
};

export const TU_SETTLEMENT_FIELDS: readonly ConfigField[] = [
  { name: 'settleByTransmissionUnit', kind: 'boolean' },
  { name: 'transmissionLossPercent', kind: 'number', unit: 'percent' },
];

/** A configuration's value as the wire carries it; the procedure's schema checks it on save. */
export const configValueSchema = z.record(text(TEXT_LIMITS.identifier), z.unknown());

/** One version: the validity range [start, end), the configuration, comments. */
export const processingConfigSegmentSchema = z.object({
  id: z.number().int(),
  timeRange: z.object({ start: instantSchema, end: instantSchema }),
  value: configValueSchema,
  comments: text(TEXT_LIMITS.comment).nullable(),
  lastModified: instantSchema,
  lastModifiedBy: text(TEXT_LIMITS.identifier),
  /** History rows only: when a later change replaced this version. */
  supersededAt: instantSchema.nullable().optional(),
});
export type ProcessingConfigSegment = z.infer<typeof processingConfigSegmentSchema>;

/** GET answer: the current versions in time order and the one in use (nearest to refTime, default now). */
export const processingConfigListSchema = z.object({
  /** The configuration's identity (GET /domain/settlementconfiguration/versions/{uuid}); null before a save. */
  uuid: z.uuid().nullable(),
  procedure: z.enum(CONFIG_PROCEDURES),
  tpa: z.boolean(),
  segments: list(processingConfigSegmentSchema, LIST_LIMITS.rows),
  /** The version in use, or the code defaults (id 0) when nothing is stored. */
  current: processingConfigSegmentSchema,
});
export type ProcessingConfigList = z.infer<typeof processingConfigListSchema>;

/**
 * POST body (calls.md §7: name and type set to the config class name): the configuration applies
 * from `validFrom` to `validTo` (default 2070-01-01), splitting the versions it overlaps.
 */
export const processingConfigSaveSchema = z.object({
  name: text(TEXT_LIMITS.name).optional(),
  type: text(TEXT_LIMITS.identifier).optional(),
  tpa: z.boolean().default(false),
  validFrom: instantSchema,
  validTo: instantSchema.default(DEFAULT_TIME_RANGE.end),
  comments: text(TEXT_LIMITS.comment).nullable().optional(),
  value: configValueSchema,
});
export type ProcessingConfigSave = z.input<typeof processingConfigSaveSchema>;

export const tuSettlementListSchema = list(
  z.object({
    settlementAreaId: z.uuid(),
    settlementAreaName: text(TEXT_LIMITS.name),
    uuid: z.uuid().nullable(),
    segments: list(processingConfigSegmentSchema, LIST_LIMITS.rows),
    current: processingConfigSegmentSchema,
  }),
  LIST_LIMITS.small,
);
export type TuSettlementList = z.infer<typeof tuSettlementListSchema>;

/** The Monitor URL segment or calls.md spelling -> the configured procedure (undefined: unknown). */
export function configProcedureOf(name: string): ConfigProcedure | undefined {
  if ((CONFIG_PROCEDURES as readonly string[]).includes(name)) return name as ConfigProcedure;
  return CONFIG_PROCEDURE_ALIASES[name];
}
