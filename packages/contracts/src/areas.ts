import { z } from 'zod';
import { TEXT_LIMITS, text } from './limits.js';

/** Country areas (product.md §1) with their time zones (DOMAIN.md "Areas and tenants"). */
export const COUNTRY_AREAS = {
  norway: 'Europe/Oslo',
  sweden: 'Europe/Stockholm',
  denmark: 'Europe/Copenhagen',
  switzerland: 'Europe/Zurich',
  belgium: 'Europe/Brussels',
  spain: 'Europe/Madrid',
  portugal: 'Europe/Lisbon',
  netherlands: 'Europe/Amsterdam',
  finland: 'Europe/Helsinki',
} as const;

export type CountryAreaName = keyof typeof COUNTRY_AREAS;
export const COUNTRY_AREA_NAMES = Object.keys(COUNTRY_AREAS) as CountryAreaName[];

/** The currencies amounts are settled and shown in (ISO 4217). */
export const CURRENCIES = ['NOK', 'SEK', 'DKK', 'CHF', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * Each country area's currency (its country's): settlement costs, fees and taxes of the area are in
 * it, spot prices in EUR are converted to it (docs/formats/nordpool.md "Currency").
 */
export const COUNTRY_CURRENCIES: Readonly<Record<CountryAreaName, Currency>> = {
  norway: 'NOK',
  sweden: 'SEK',
  denmark: 'DKK',
  switzerland: 'CHF',
  belgium: 'EUR',
  spain: 'EUR',
  portugal: 'EUR',
  netherlands: 'EUR',
  finland: 'EUR',
};

/** A country area's currency, by its kind; none for the areas that settle nothing. */
export const countryCurrency = (kind: string | null | undefined): Currency | undefined =>
  kind && kind in COUNTRY_CURRENCIES ? COUNTRY_CURRENCIES[kind as CountryAreaName] : undefined;

/** An area's currency; the areas that settle nothing (exchange, administration, master data) count in EUR. */
export const areaCurrency = (kind: string | null | undefined): Currency => countryCurrency(kind) ?? 'EUR';

/**
 * The areas that also settle for a transmission-system party (product.md §2: the TPA settlement,
 * its tpa configuration twins, the TPA's metered-energy-aggregation file and reports), by kind.
 */
export const TPA_SETTLEMENT_AREAS: readonly CountryAreaName[] = ['netherlands'];

/** The area of `kind` settles for a TPA too (TPA_SETTLEMENT_AREAS). */
export const settlesForTpa = (kind: string | null | undefined): boolean =>
  (TPA_SETTLEMENT_AREAS as readonly string[]).includes(kind ?? '');

/** Area kinds as the lowercased, space-free area name (product.md §1). */
export const AREA_KINDS = [...COUNTRY_AREA_NAMES, 'exchange', 'administration', 'masterdata'] as const;
export type AreaKind = (typeof AREA_KINDS)[number];

export const MASTER_DATA_AREA = {
  name: 'Master Data',
  kind: 'masterdata',
  timeZone: 'Europe/Oslo',
} as const;

/** The transmission-unit countries (product.md §1). */
export const TRANSMISSION_UNIT_COUNTRIES: readonly AreaKind[] = ['norway', 'sweden', 'denmark'];

/** Lowercased, space-free form of an area name: "Master Data" -> "masterdata". */
export const areaKey = (name: string): string => name.toLowerCase().replace(/\s+/g, '');

export const isAreaKind = (key: string): key is AreaKind => (AREA_KINDS as readonly string[]).includes(key);

/** A settlement area as the server lists it for the signed-in user. */
export const settlementAreaSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  timeZone: text(TEXT_LIMITS.code),
  settlementPartner: z.boolean(),
});
export type SettlementArea = z.infer<typeof settlementAreaSchema>;
