import type { EntityKind } from './kinds.js';

/**
 * Every uuid reference a saved entity may hold, declared once: kind -> attribute -> the kind(s) it
 * must name. The server refuses a save whose reference does not resolve to an entity of one of
 * those kinds in the same area (issue 6 §2); the forms and the import read the same table to know
 * which fields are references. A list attribute (consumptionPointRefs ...) checks every element.
 */
export const ENTITY_REFERENCES = {
  tractionunit: {
    owner: ['organisation'],
    tractionUnitTypeRef: ['tractionunittype'],
    exportLimitationRef: ['exportlimitation'],
    consumptionPointRefs: ['consumptionpoint'],
  },
  tractionunittype: {
    legalCombinations: ['tractionunittype'],
    motorTypeRef: ['motortype'],
    trainProfileRef: ['trainprofile'],
  },
  consumptionpoint: { tractionUnitRef: ['tractionunit'] },
  exportlimitation: { blockedReceivers: ['organisation'] },
  organisation: {
    exchangeAdminRef: ['organisation'],
    parentOrganisationRef: ['organisation'],
    settlementAreaRef: ['settlementarea'],
  },
  trafficcategory: { trafficCategoryTypeRef: ['trafficcategorytype'] },
  pricecategorytimeinterval: { priceCategoryRef: ['pricecategory'] },
  gridfeetype: { priceCategoryRef: ['pricecategory'] },
  energyfeetype: { priceCategoryRef: ['pricecategory'] },
  contract: {
    organisationRef: ['organisation'],
    supplierRef: ['organisation'],
    priceAreaRef: ['pricearea'],
    gridFeeTypeRefs: ['gridfeetype'],
    energyFeeTypeRefs: ['energyfeetype'],
    taxCategoryRef: ['taxcategory'],
    vatCategoryRef: ['vatcategory'],
  },
  gridarea: {
    energyUseSettlementAreaRef: ['energyusesettlementarea'],
    priceAreaRef: ['pricearea'],
    taxAreaRef: ['taxarea'],
  },
  // A dotted field names a reference inside each object of a list attribute.
  taxcategory: { 'taxAreaRates.taxAreaRef': ['taxarea'] },
  supplymeteringpoint: { supplyMeteringPointTypeRef: ['supplymeteringpointtype'], gridAreaRef: ['gridarea'] },
  fixedmeteringpoint: {
    fixedMeteringPointTypeRef: ['fixedmeteringpointtype'],
    gridAreaRef: ['gridarea'],
    organisationRef: ['organisation'],
  },
  gridareacrossing: { fromGridAreaRef: ['gridarea'], toGridAreaRef: ['gridarea'] },
  // A border crossing joins areas of any of these kinds; the Excel import resolves a name by the
  // first (grid area), as for every reference field (entity-columns.ts REF_TARGETS).
  bordercrossing: {
    fromAreaRef: ['gridarea', 'energyusesettlementarea', 'pricearea', 'settlementarea'],
    toAreaRef: ['gridarea', 'energyusesettlementarea', 'pricearea', 'settlementarea'],
  },
  track: { tractionSystemRef: ['tractionsystem'] },
  reportedtrainmeteringpoint: { trackRef: ['track'], gridAreaRef: ['gridarea'] },
  payloadpoint: { payloadPointTypeRef: ['payloadpointtype'], trackRef: ['track'] },
} as const satisfies Partial<Record<EntityKind, Record<string, readonly EntityKind[]>>>;

export interface EntityReference {
  field: string;
  targets: readonly EntityKind[];
}

/** The reference fields of a kind (empty for kinds without references). */
export function referencesOf(kind: EntityKind): EntityReference[] {
  const fields = (ENTITY_REFERENCES as Partial<Record<EntityKind, Record<string, readonly EntityKind[]>>>)[kind] ?? {};
  return Object.entries(fields).map(([field, targets]) => ({ field, targets }));
}

/**
 * The uuids an entity's attributes hold in reference field `field`: a uuid, a list of uuids, or
 * for a dotted field ('taxAreaRates.taxAreaRef') the named attribute of each object of the list.
 */
export function referenceValues(attributes: Readonly<Record<string, unknown>>, field: string): string[] {
  const [head, sub] = field.split('.', 2) as [string, string | undefined];
  const value = attributes[head];
  const values = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  if (sub === undefined) return values.map(String);
  return values.flatMap((v) => {
    const inner = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[sub] : undefined;
    return inner === null || inner === undefined ? [] : [String(inner)];
  });
}

/** The attribute a reference field belongs to: 'taxAreaRates' for 'taxAreaRates.taxAreaRef'. */
export const referenceAttribute = (field: string): string => field.split('.', 1)[0]!;

/** The message of a reference that does not resolve: 'Unknown organisation', 'Unknown traction unit type' ... */
export const unknownReferenceMessage = (targets: readonly EntityKind[]): string =>
  `Unknown ${targets.map((t) => REFERENCE_NOUNS[t] ?? t).join(' or ')}`;

const REFERENCE_NOUNS: Partial<Record<EntityKind, string>> = {
  organisation: 'organisation',
  tractionunit: 'traction unit',
  tractionunittype: 'traction unit type',
  consumptionpoint: 'consumption point',
  motortype: 'motor type',
  trainprofile: 'train profile',
  exportlimitation: 'export limitation',
  settlementarea: 'settlement area',
  energyusesettlementarea: 'energy use settlement area',
  pricearea: 'price area',
  pricecategory: 'price category',
  trafficcategorytype: 'traffic category type',
  gridarea: 'grid area',
  gridfeetype: 'grid fee type',
  energyfeetype: 'energy fee type',
  tractionsystem: 'traction system',
  track: 'track',
  supplymeteringpointtype: 'supply metering point type',
  fixedmeteringpointtype: 'fixed metering point type',
  payloadpointtype: 'payload point type',
};
