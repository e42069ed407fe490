/**
 * Every domain entity kind of product.md §3, keyed by its canonical lowercase name. The wire `type`
 * of an entity is the PascalCase name (as the spec's "Domain entity types" list writes it); paths
 * and save bodies may use any case and a dotted Java-style prefix ('com.x.TractionUnitType').
 */
export const ENTITY_KINDS = {
  tractionunit: 'TractionUnit',
  tractionunittype: 'TractionUnitType',
  motortype: 'MotorType',
  consumptionpoint: 'ConsumptionPoint',
  organisation: 'Organisation',
  exportlimitation: 'ExportLimitation',
  tractionsystem: 'TractionSystem',
  trafficcategorytype: 'TrafficCategoryType',
  trafficcategory: 'TrafficCategory',
  pricecategory: 'PriceCategory',
  pricecategorytimeinterval: 'PriceCategoryTimeInterval',
  publicholiday: 'PublicHoliday',
  contract: 'Contract',
  trainprofile: 'TrainProfile',
  gridfeetype: 'GridFeeType',
  energyfeetype: 'EnergyFeeType',
  taxcategory: 'TaxCategory',
  vatcategory: 'VatCategory',
  settlementarea: 'SettlementArea',
  energyusesettlementarea: 'EnergyUseSettlementArea',
  gridarea: 'GridArea',
  surveillancearea: 'SurveillanceArea',
  pricearea: 'PriceArea',
  taxarea: 'TaxArea',
  uncertaintyarea: 'UncertaintyArea',
  supplymeteringpointtype: 'SupplyMeteringPointType',
  supplymeteringpoint: 'SupplyMeteringPoint',
  fixedmeteringpointtype: 'FixedMeteringPointType',
  fixedmeteringpoint: 'FixedMeteringPoint',
  gridareacrossing: 'GridAreaCrossing',
  bordercrossing: 'BorderCrossing',
  emstype: 'EmsType',
  consumptiontype: 'ConsumptionType',
  track: 'Track',
  reportedtrainmeteringpoint: 'ReportedTrainMeteringPoint',
  payloadpointtype: 'PayloadPointType',
  payloadpoint: 'PayloadPoint',
} as const;

export type EntityKind = keyof typeof ENTITY_KINDS;
export type EntityTypeName = (typeof ENTITY_KINDS)[EntityKind];

/** Infrastructure area kinds (product.md §3 "Area types"); they carry GeoJSON geometry. */
export const AREA_KINDS_INFRASTRUCTURE = [
  'settlementarea',
  'energyusesettlementarea',
  'gridarea',
  'surveillancearea',
  'pricearea',
  'taxarea',
  'uncertaintyarea',
] as const satisfies readonly EntityKind[];
export type InfrastructureAreaKind = (typeof AREA_KINDS_INFRASTRUCTURE)[number];

/** The administration kinds users edit under /administration/entities. */
export const ADMINISTRATION_KINDS = [
  'trafficcategorytype',
  'trafficcategory',
  'pricecategory',
  'pricecategorytimeinterval',
  'publicholiday',
  'contract',
  'trainprofile',
  'gridfeetype',
  'energyfeetype',
  'taxcategory',
  'vatcategory',
] as const satisfies readonly EntityKind[];

/**
 * The infrastructure entity kinds users edit under /infrastructure/entity (product.md §2, the child
 * forms of entity/registration), in the spec's order.
 */
export const INFRASTRUCTURE_ENTITY_KINDS = [
  'supplymeteringpointtype',
  'supplymeteringpoint',
  'fixedmeteringpointtype',
  'fixedmeteringpoint',
  'gridareacrossing',
  'bordercrossing',
  'emstype',
  'consumptiontype',
  'track',
  'reportedtrainmeteringpoint',
  'payloadpointtype',
  'payloadpoint',
] as const satisfies readonly EntityKind[];
export type InfrastructureEntityKind = (typeof INFRASTRUCTURE_ENTITY_KINDS)[number];
export type AdministrationKind = (typeof ADMINISTRATION_KINDS)[number];

export const FLEET_KINDS = [
  'tractionunit',
  'tractionunittype',
  'motortype',
  'consumptionpoint',
  'exportlimitation',
] as const satisfies readonly EntityKind[];

/**
 * 'com.x.TractionUnitType' -> 'tractionunittype'; 'traction-unit' and 'TRACTIONUNIT' map too.
 * Undefined for anything that is not a kind.
 */
export function toEntityKind(type: string | undefined | null): EntityKind | undefined {
  if (!type) return undefined;
  const last = type.split('.').pop() ?? '';
  const key = last.toLowerCase().replace(/[\s_-]/g, '');
  return key in ENTITY_KINDS ? (key as EntityKind) : undefined;
}

export const isInfrastructureAreaKind = (kind: string): kind is InfrastructureAreaKind =>
  (AREA_KINDS_INFRASTRUCTURE as readonly string[]).includes(kind);
