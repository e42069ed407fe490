import type { AdministrationKind, EntityKind, InfrastructureEntityKind } from './kinds.js';
import { ENTITY_REFERENCES } from './references.js';

/**
 * Form descriptors: per kind, the attribute fields its registration form shows, in order, and how
 * each is entered. The web's entity kit builds the form from this and validates it with the kind's
 * zod schema (KIND_ATTRIBUTE_SCHEMAS); forms.test.ts keeps both in step (same fields, same
 * required flags, references as references.ts declares them). Name, valid from and comments are
 * the generic entity's and every form has them.
 */
export type FormInput =
  | 'text'
  | 'textarea'
  | 'number'
  | 'integer'
  | 'date'
  | 'time'
  | 'boolean'
  /** 'lat,lon' (product.md §5). */
  | 'location'
  /** One uuid of an entity of `targets` (a picker over /domain/{type}/minimal/all). */
  | 'reference'
  /** Several uuids of entities of `targets`, each at most once (a contract's fee lines ...). */
  | 'references'
  /** One of `options`. */
  | 'enum'
  /** Days of the week 1 Monday .. 7 Sunday, 8 public holiday. */
  | 'weekdays'
  /** Rates that differ by area: a list of { taxAreaRef (one of `targets`), rate }. */
  | 'areaRates';

export interface FormField {
  name: string;
  input: FormInput;
  required: boolean;
  /** product.md §6 "fields flagged for_erex_admin_only": shown and writable only for the erex-administrator. */
  adminOnly?: boolean;
  /** Reference kinds (reference, references). */
  targets?: readonly EntityKind[];
  /** Enum options. */
  options?: readonly string[];
}

/**
 * product.md §6 "fields flagged for_erex_admin_only". The spec names no field; we flag the switch
 * that takes a metering point out of price-and-supply, since it changes every party's settlement.
 */
export const ADMIN_ONLY_FIELDS: Partial<Record<EntityKind, readonly string[]>> = {
  supplymeteringpoint: ['excludedFromSettlement'],
  fixedmeteringpoint: ['excludedFromSettlement'],
};

export const isAdminOnlyField = (kind: EntityKind, field: string): boolean =>
  ADMIN_ONLY_FIELDS[kind]?.includes(field) ?? false;

const targetsOf = (kind: EntityKind, field: string): readonly EntityKind[] =>
  (ENTITY_REFERENCES as Partial<Record<EntityKind, Record<string, readonly EntityKind[]>>>)[kind]?.[field] ?? [];

type Spec = [name: string, input: FormInput, required?: boolean];

function describe(kind: EntityKind, specs: readonly Spec[]): FormField[] {
  return specs.map(([name, input, required = false]) => ({
    name,
    input,
    required,
    ...(isAdminOnlyField(kind, name) ? { adminOnly: true } : {}),
    ...(input === 'reference' || input === 'references' ? { targets: targetsOf(kind, name) } : {}),
    ...(input === 'areaRates' ? { targets: targetsOf(kind, `${name}.taxAreaRef`) } : {}),
  }));
}

const TYPE_FORM: readonly Spec[] = [
  ['code', 'text'],
  ['description', 'textarea'],
];

/** The kinds with a generic registration form: infrastructure, administration and export limitations. */
export type EntityFormKind = InfrastructureEntityKind | AdministrationKind | 'exportlimitation';

const SPECS: Record<EntityFormKind, readonly Spec[]> = {
  supplymeteringpointtype: TYPE_FORM,
  supplymeteringpoint: [
    ['supplyMeteringPointTypeRef', 'reference', true],
    ['gridAreaRef', 'reference', true],
    ['location', 'location'],
    ['description', 'textarea'],
    ['excludedFromSettlement', 'boolean'],
  ],
  fixedmeteringpointtype: TYPE_FORM,
  fixedmeteringpoint: [
    ['fixedMeteringPointTypeRef', 'reference', true],
    ['gridAreaRef', 'reference', true],
    ['organisationRef', 'reference'],
    ['location', 'location'],
    ['description', 'textarea'],
    ['excludedFromSettlement', 'boolean'],
  ],
  gridareacrossing: [
    ['fromGridAreaRef', 'reference', true],
    ['toGridAreaRef', 'reference', true],
    ['location', 'location'],
    ['description', 'textarea'],
  ],
  bordercrossing: [
    ['fromAreaRef', 'reference', true],
    ['toAreaRef', 'reference', true],
    ['location', 'location', true],
    ['description', 'textarea'],
  ],
  emstype: [
    ['manufacturer', 'text'],
    ['model', 'text'],
    ['description', 'textarea'],
  ],
  consumptiontype: TYPE_FORM,
  track: [
    ['tractionSystemRef', 'reference', true],
    ['trackNumber', 'text'],
    ['lengthKm', 'number'],
    ['fromLocation', 'location'],
    ['toLocation', 'location'],
    ['description', 'textarea'],
  ],
  reportedtrainmeteringpoint: [
    ['location', 'location', true],
    ['trackRef', 'reference'],
    ['gridAreaRef', 'reference'],
    ['description', 'textarea'],
  ],
  payloadpointtype: TYPE_FORM,
  payloadpoint: [
    ['payloadPointTypeRef', 'reference', true],
    ['location', 'location', true],
    ['trackRef', 'reference'],
    ['description', 'textarea'],
  ],
  trafficcategorytype: [['description', 'textarea']],
  trafficcategory: [
    ['trafficCategoryTypeRef', 'reference'],
    ['consumptionFactor', 'number'],
    ['description', 'textarea'],
  ],
  pricecategory: [['description', 'textarea']],
  pricecategorytimeinterval: [
    ['priceCategoryRef', 'reference', true],
    ['daysOfWeek', 'weekdays'],
    ['fromTime', 'time', true],
    ['toTime', 'time', true],
  ],
  publicholiday: [
    ['date', 'date', true],
    ['description', 'textarea'],
  ],
  contract: [
    ['organisationRef', 'reference'],
    ['supplierRef', 'reference'],
    ['priceAreaRef', 'reference'],
    ['gridFeeTypeRefs', 'references'],
    ['energyFeeTypeRefs', 'references'],
    ['taxCategoryRef', 'reference'],
    ['vatCategoryRef', 'reference'],
    ['description', 'textarea'],
  ],
  trainprofile: [
    ['consumptionFactor', 'number'],
    ['description', 'textarea'],
  ],
  gridfeetype: [
    ['price', 'number'],
    ['currency', 'text'],
    ['priceCategoryRef', 'reference'],
    ['description', 'textarea'],
  ],
  energyfeetype: [
    ['price', 'number'],
    ['currency', 'text'],
    ['priceCategoryRef', 'reference'],
    ['description', 'textarea'],
  ],
  taxcategory: [
    ['rate', 'number'],
    ['taxAreaRates', 'areaRates'],
    ['description', 'textarea'],
  ],
  vatcategory: [
    ['percentage', 'number'],
    ['description', 'textarea'],
  ],
  exportlimitation: [
    ['exportAllowed', 'boolean'],
    ['blockedReceivers', 'references'],
    ['description', 'textarea'],
  ],
};

export const ENTITY_FORMS: Readonly<Record<EntityFormKind, readonly FormField[]>> = Object.fromEntries(
  Object.entries(SPECS).map(([kind, specs]) => [kind, describe(kind as EntityKind, specs)]),
) as Record<EntityFormKind, FormField[]>;

export const hasEntityForm = (kind: string): kind is EntityFormKind => kind in SPECS;

/**
 * The columns an entity overview shows after the name: up to three main attributes per kind (the
 * references and identifying values a user scans for).
 */
export const mainFieldsOf = (kind: EntityFormKind): string[] =>
  ENTITY_FORMS[kind]
    .filter((f) => f.input !== 'textarea' && !f.adminOnly)
    .slice(0, 3)
    .map((f) => f.name);
