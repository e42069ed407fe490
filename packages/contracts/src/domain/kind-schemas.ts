import { z } from 'zod';
import {
  contractAttributesSchema,
  feeTypeAttributesSchema,
  priceCategoryAttributesSchema,
  priceCategoryTimeIntervalAttributesSchema,
  publicHolidayAttributesSchema,
  taxCategoryAttributesSchema,
  tractionSystemAttributesSchema,
  trafficCategoryAttributesSchema,
  trafficCategoryTypeAttributesSchema,
  trainProfileAttributesSchema,
  vatCategoryAttributesSchema,
} from './administration.js';
import {
  consumptionPointAttributesSchema,
  exportLimitationAttributesSchema,
  motorTypeAttributesSchema,
  tractionUnitAttributesSchema,
  tractionUnitTypeAttributesSchema,
} from './fleet-kinds.js';
import {
  gridAreaAttributesSchema,
  infrastructureAreaAttributesSchema,
  settlementAreaAttributesSchema,
} from './infrastructure.js';
import type { EntityKind } from './kinds.js';
import { organisationAttributesSchema } from './organisation.js';

/** The fields each kind keeps in its segments' attributes; the server validates saves with these. */
export const KIND_ATTRIBUTE_SCHEMAS = {
  tractionunit: tractionUnitAttributesSchema,
  tractionunittype: tractionUnitTypeAttributesSchema,
  motortype: motorTypeAttributesSchema,
  consumptionpoint: consumptionPointAttributesSchema,
  organisation: organisationAttributesSchema,
  exportlimitation: exportLimitationAttributesSchema,
  tractionsystem: tractionSystemAttributesSchema,
  trafficcategorytype: trafficCategoryTypeAttributesSchema,
  trafficcategory: trafficCategoryAttributesSchema,
  pricecategory: priceCategoryAttributesSchema,
  pricecategorytimeinterval: priceCategoryTimeIntervalAttributesSchema,
  publicholiday: publicHolidayAttributesSchema,
  contract: contractAttributesSchema,
  trainprofile: trainProfileAttributesSchema,
  gridfeetype: feeTypeAttributesSchema,
  energyfeetype: feeTypeAttributesSchema,
  taxcategory: taxCategoryAttributesSchema,
  vatcategory: vatCategoryAttributesSchema,
  settlementarea: settlementAreaAttributesSchema,
  energyusesettlementarea: infrastructureAreaAttributesSchema,
  gridarea: gridAreaAttributesSchema,
  surveillancearea: infrastructureAreaAttributesSchema,
  pricearea: infrastructureAreaAttributesSchema,
  taxarea: infrastructureAreaAttributesSchema,
  uncertaintyarea: infrastructureAreaAttributesSchema,
} as const satisfies Record<EntityKind, z.ZodObject>;
