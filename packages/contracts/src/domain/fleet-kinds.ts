import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';

/** Optional non-negative number (forms send '' for an empty field; the server stores null). */
/** Bounded: a value stored in jsonb and read by SQL must stay a finite, sane number. */
const MAX_QUANTITY = 1e9;
const optNumber = z.number().min(0).max(MAX_QUANTITY).nullable().optional();
/** A duration in minutes (product.md §3: "minutes where times"). */
const optMinutes = z.number().int().min(0).max(MAX_QUANTITY).nullable().optional();
const optRef = z.uuid().nullable().optional();

/**
 * The UIC check digit of the first 11 digits of an EVN (UIC leaflet 920-1, a Luhn variant): weights
 * 2,1,2,... from the left, the digit sum of the products, up to the next multiple of ten.
 * '21812471217' gives 3.
 */
export function uicCheckDigit(eleven: string): number {
  let sum = 0;
  for (let i = 0; i < eleven.length; i++) {
    const p = Number(eleven[i]) * (i % 2 === 0 ? 2 : 1);
    sum += p > 9 ? p - 9 : p;
  }
  return (10 - (sum % 10)) % 10;
}

/** Messages of the EVN and VKM rules, in the form-message wording of product.md §5 (digits, is_not, regex). */
export const FLEET_FIELD_MESSAGES = {
  evnDigits: 'The EVN field must be exactly 12 digits',
  evnCheckDigit: 'The EVN field is not valid',
  vkmFormat: 'The VKM field format is invalid',
} as const;

/** True when the last digit of a 12-digit EVN is the UIC check digit of the first eleven. */
export const hasValidEvnCheckDigit = (evn: string): boolean =>
  /^\d{12}$/.test(evn) && uicCheckDigit(evn.slice(0, 11)) === Number(evn[11]);

/**
 * European Vehicle Number: exactly 12 digits (spaces and dashes of the printed form are not stored)
 * whose last digit is the UIC check digit of the first eleven.
 */
export const evnSchema = text(TEXT_LIMITS.identifier)
  .regex(/^\d{12}$/, FLEET_FIELD_MESSAGES.evnDigits)
  .refine((evn) => !/^\d{12}$/.test(evn) || hasValidEvnCheckDigit(evn), FLEET_FIELD_MESSAGES.evnCheckDigit);

/**
 * VKM (Vehicle Keeper Marking, the OTIF/ERA register): 2 to 5 upper-case Latin letters. A lower-case
 * marking is refused rather than upper-cased, so the CPID built from it is the one the keeper registered.
 */
export const VKM_PATTERN = /^[A-Z]{2,5}$/;
export const vkmSchema = text(TEXT_LIMITS.code).regex(VKM_PATTERN, FLEET_FIELD_MESSAGES.vkmFormat);

export const tractionUnitAttributesSchema = z.object({
  evn: evnSchema,
  description: text(TEXT_LIMITS.comment).nullable().optional(),
  /** Owner organisation (the vehicle keeper responsible for the unit). */
  owner: z.uuid(),
  status: text(TEXT_LIMITS.code).nullable().optional(),
  tractionUnitTypeRef: optRef,
  exportLimitationRef: optRef,
  lifeCycleStateForOverview: text(TEXT_LIMITS.code).nullable().optional(),
  /** The consumption points (EMS) on this unit; each also points back with tractionUnitRef. */
  consumptionPointRefs: list(z.uuid(), LIST_LIMITS.refs).default([]),
});
export type TractionUnitAttributes = z.infer<typeof tractionUnitAttributesSchema>;

export const POSITION_VALIDATION_RULES = ['NONE', 'WITHIN_AREA', 'ON_TRACK', 'WITHIN_AREA_AND_ON_TRACK'] as const;

export const tractionUnitTypeAttributesSchema = z.object({
  maxSpeed: optNumber, // km/h
  maxPower: optNumber, // MW
  generation: z.boolean().default(false),
  consumption: z.boolean().default(true),
  positionValidationRules: list(z.enum(POSITION_VALIDATION_RULES), LIST_LIMITS.small).default([]),
  replacementSearchTime: optMinutes,
  positionInterpolationTime: optMinutes,
  movementWithoutConsumptionTime: optMinutes,
  movementWithoutConsumptionKm: optNumber,
  movementWithoutConsumptionMax: optNumber,
  startPositionSearchTime: optMinutes,
  maxEnergyWithoutMovement: optNumber, // kWh
  /** Traction unit types this type may run coupled with. */
  legalCombinations: list(z.uuid(), LIST_LIMITS.refs).default([]),
  motorTypeRef: optRef,
  trainProfileRef: optRef,
});
export type TractionUnitTypeAttributes = z.infer<typeof tractionUnitTypeAttributesSchema>;

export const MOTOR_CATEGORIES = ['electric', 'hybrid diesel', 'hybrid battery'] as const;
export const motorTypeAttributesSchema = z.object({
  motorCategory: z.enum(MOTOR_CATEGORIES),
  disableMatchEnergy: z.boolean().default(false),
  neverAcceptZeroAccumulatedConsumption: z.boolean().default(false),
  maxHybridTimeWithoutConsumption: optMinutes,
});
export type MotorTypeAttributes = z.infer<typeof motorTypeAttributesSchema>;

export const ENERGY_TYPES = [
  'ACTIVE_CONSUMED',
  'ACTIVE_REGENERATED',
  'REACTIVE_CONSUMED',
  'REACTIVE_REGENERATED',
] as const;

/**
 * The CPID of a consumption point: `${nvr}_${vkm}_${evn}_${emsId}` (NVR country code, vehicle
 * keeper marking, EVN, EMS id joined by underscores), e.g. '76_NSB_917600100013_EMS1'.
 */
export const buildCpid = (p: { nvr: string; vkm: string; evn: string; emsId: string }): string =>
  `${p.nvr}_${p.vkm}_${p.evn}_${p.emsId}`;
/** The name of a consumption point: EVN followed by the EMS id, e.g. '917600100013EMS1'. */
export const buildConsumptionPointName = (p: { evn: string; emsId: string }): string => `${p.evn}${p.emsId}`;

/**
 * NVR: the National Vehicle Register that holds the unit, written as the register's country code
 * (ISO 3166-1 alpha-2: NO, SE, BE ...). Letters keep CPIDs readable (BE_AKBE_918800180013_EMS1) and
 * apart from the EVN's numeric UIC country code.
 */
export const NVR_PATTERN = /^[A-Z]{2}$/;

export const consumptionPointAttributesSchema = z.object({
  /** Derived on save with buildCpid; sent values are overwritten. */
  cpid: text(TEXT_LIMITS.name).optional(),
  evn: evnSchema,
  nvr: text(TEXT_LIMITS.code).regex(NVR_PATTERN, 'format is invalid'),
  vkm: vkmSchema,
  emsId: text(TEXT_LIMITS.identifier)
    .min(1)
    .regex(/^[A-Za-z0-9-]+$/, 'format is invalid'),
  emsType: text(TEXT_LIMITS.identifier).nullable().optional(),
  energyTypes: list(z.enum(ENERGY_TYPES), LIST_LIMITS.small).min(1).default(['ACTIVE_CONSUMED', 'ACTIVE_REGENERATED']),
  channels: z.number().int().min(1).max(99),
  tractionUnitRef: optRef,
});
export type ConsumptionPointAttributes = z.infer<typeof consumptionPointAttributesSchema>;

export const exportLimitationAttributesSchema = z.object({
  description: text(TEXT_LIMITS.comment).nullable().optional(),
  /** Receivers (exchange organisations) the unit's data must not be exported to. */
  blockedReceivers: list(z.uuid(), LIST_LIMITS.refs).default([]),
  exportAllowed: z.boolean().default(false),
});

/** POST /domain/tractionunit/save: a traction unit with its type and consumption points, one transaction. */
export const tractionUnitSaveRequestSchema = z.object({
  tractionUnit: z.looseObject({ uuid: z.uuid().optional() }),
  /** A new or changed type; omitted when the unit refers to an existing type. */
  tractionUnitType: z.looseObject({ uuid: z.uuid().optional() }).optional(),
  consumptionPoints: list(z.looseObject({ uuid: z.uuid().optional() }), LIST_LIMITS.small).default([]),
});
export type TractionUnitSaveRequest = z.infer<typeof tractionUnitSaveRequestSchema>;
