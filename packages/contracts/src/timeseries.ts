import { z } from 'zod';
import type { EntityKind } from './domain/kinds.js';

/**
 * Time series (DOMAIN.md "Time series"): a type name, a ref to the entity it belongs to, a resolution
 * and values with a quality code. Declared once here: the parsers, the store, the calls and the
 * screens read these tables.
 */

/** Quality codes (calls.md §9): 127 measured, 61 uncertain, 56 estimated, 46 non-existent. */
export const QUALITY_CODES = { measured: 127, uncertain: 61, estimated: 56, nonExistent: 46 } as const;
export type QualityCode = (typeof QUALITY_CODES)[keyof typeof QUALITY_CODES];
export const QUALITY_CODE_VALUES = Object.values(QUALITY_CODES) as QualityCode[];
export const qualityCodeSchema = z.union(
  QUALITY_CODE_VALUES.map((q) => z.literal(q)) as [
    z.ZodLiteral<127>,
    z.ZodLiteral<61>,
    z.ZodLiteral<56>,
    z.ZodLiteral<46>,
  ],
);

/** Resolutions as ISO 8601 durations (the table view's codes P1Y, P1M, P1D, PT1H among them). */
export const RESOLUTIONS = ['PT5M', 'PT15M', 'PT1H', 'P1D', 'P1M', 'P1Y'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const resolutionSchema = z.enum(RESOLUTIONS);

/** Length of a fixed resolution in milliseconds; days, months and years follow the area's calendar. */
export const FIXED_RESOLUTION_MS: Partial<Record<Resolution, number>> = {
  PT5M: 5 * 60_000,
  PT15M: 15 * 60_000,
  PT1H: 60 * 60_000,
};

/** Traction system codes (calls.md §9). */
export const TRACTION_SYSTEM_CODES = {
  '00': 'unspecified',
  '01': '25kV 50Hz',
  '02': '15kV 16.7Hz',
  '03': '3kV DC',
  '04': '1.5kV DC',
  '05': '0.75/0.6kV DC',
} as const;
export type TractionSystemCode = keyof typeof TRACTION_SYSTEM_CODES;

export interface TimeSeriesTypeInfo {
  /** The entity kind a series of this type refers to (its identifier is that entity's name, or CPID). */
  refKind: EntityKind;
  unit: string;
  resolution: Resolution;
  /** Where its values come from, for the upload screens and the data log. */
  source: 'cebd' | 'supply' | 'fixed' | 'market' | 'weather' | 'parameter';
  /** Market price series shown only in Denmark (calls.md §9). */
  denmarkOnly?: true;
}

const market = (unit: string, refKind: EntityKind = 'pricearea'): TimeSeriesTypeInfo => ({
  refKind,
  unit,
  resolution: 'PT1H',
  source: 'market',
});

/**
 * Every time-series type. CEBD records become four energy series per consumption point (the
 * position and traction system of each record are kept beside them, see the store); the market
 * price series are those of calls.md §9.
 */
export const TIME_SERIES_TYPES = {
  cebd_active_energy_consumed: { refKind: 'consumptionpoint', unit: 'kWh', resolution: 'PT5M', source: 'cebd' },
  cebd_active_energy_regenerated: { refKind: 'consumptionpoint', unit: 'kWh', resolution: 'PT5M', source: 'cebd' },
  cebd_reactive_energy_consumed: { refKind: 'consumptionpoint', unit: 'kvarh', resolution: 'PT5M', source: 'cebd' },
  cebd_reactive_energy_regenerated: {
    refKind: 'consumptionpoint',
    unit: 'kvarh',
    resolution: 'PT5M',
    source: 'cebd',
  },
  /** Energy delivered by a substation (supply metering point), hourly or finer. */
  supply_energy: { refKind: 'supplymeteringpoint', unit: 'kWh', resolution: 'PT1H', source: 'supply' },
  /** Energy of a fixed installation (fixed metering point). */
  fixed_installation_energy: { refKind: 'fixedmeteringpoint', unit: 'kWh', resolution: 'PT1H', source: 'fixed' },
  /** Heating degree days per settlement area, for profiles and annual distribution. */
  degree_days: { refKind: 'settlementarea', unit: 'Kd', resolution: 'P1D', source: 'weather' },
  spot_price: market('EUR/MWh'),
  inherited_prices_and_fees: { ...market('EUR/MWh'), denmarkOnly: true },
  /** Local currency per EUR, per settlement area (its country's currency). */
  currency_exchange_rate: market('per EUR', 'settlementarea'),
  elspot_price: market('EUR/MWh'),
  imbalance_energy: market('MWh'),
  imbalance_price: market('EUR/MWh'),
  independent_contract_energy: market('MWh'),
  independent_contract_price: market('EUR/MWh'),
  metered_energy_supply: market('MWh'),
  price_correction_amount: market('EUR'),
  spot_energy: market('MWh'),
  spot_linked_contract_energy: market('MWh'),
  spot_linked_contract_price_factor: market('factor'),
  /**
   * Parameters the user maintains on the parameter overview (issue 10 item 1), a value per month:
   * consumption factors (kWh per gross tonne-km) per train profile and per traffic category, which
   * calculate-consumption-factor and freight-consumption-factor derive from metered runs and the
   * estimation reads before the kinds' own factor; the monthly on-account energy per organisation.
   */
  consumption_factor_trainprofile: {
    refKind: 'trainprofile',
    unit: 'kWh/gtkm',
    resolution: 'P1M',
    source: 'parameter',
  },
  consumption_factor_trafficcategory: {
    refKind: 'trafficcategory',
    unit: 'kWh/gtkm',
    resolution: 'P1M',
    source: 'parameter',
  },
  on_account_energy: { refKind: 'organisation', unit: 'kWh', resolution: 'P1M', source: 'parameter' },
} as const satisfies Record<string, TimeSeriesTypeInfo>;

export type TimeSeriesTypeName = keyof typeof TIME_SERIES_TYPES;
export const TIME_SERIES_TYPE_NAMES = Object.keys(TIME_SERIES_TYPES) as TimeSeriesTypeName[];
export const timeSeriesTypeNameSchema = z.enum(TIME_SERIES_TYPE_NAMES as [TimeSeriesTypeName, ...TimeSeriesTypeName[]]);

/** The four series one CEBD record gives, in the order of its fields. */
export const CEBD_SERIES = {
  activeConsumed: 'cebd_active_energy_consumed',
  activeRegenerated: 'cebd_active_energy_regenerated',
  reactiveConsumed: 'cebd_reactive_energy_consumed',
  reactiveRegenerated: 'cebd_reactive_energy_regenerated',
} as const satisfies Record<string, TimeSeriesTypeName>;

/** The parameter types of the parameter overview (source 'parameter'). */
export const PARAMETER_TYPE_NAMES = TIME_SERIES_TYPE_NAMES.filter((n) => TIME_SERIES_TYPES[n].source === 'parameter');
