import { z } from 'zod';
import { DATE_OUT_OF_RANGE_MESSAGE, LIST_LIMITS, TEXT_LIMITS, list, text, withinProductRange } from '../limits.js';

const optText = text(TEXT_LIMITS.comment).nullable().optional();
const optRef = z.uuid().nullable().optional();
/** Factors, prices and rates: finite and bounded, as SQL reads them from jsonb. */
const optNumber = z.number().min(-1e9).max(1e9).nullable().optional();

/** User-facing administration kinds (/administration/entities). Fields the spec does not name are kept few. */
export const trafficCategoryTypeAttributesSchema = z.object({ description: optText });
export const trafficCategoryAttributesSchema = z.object({
  description: optText,
  trafficCategoryTypeRef: optRef,
  consumptionFactor: optNumber, // kWh per gross tonne-km
});
export const priceCategoryAttributesSchema = z.object({ description: optText });
export const priceCategoryTimeIntervalAttributesSchema = z.object({
  priceCategoryRef: z.uuid(),
  /** 1 Monday .. 7 Sunday; 8 public holiday. */
  daysOfWeek: list(z.number().int().min(1).max(8), LIST_LIMITS.small).default([1, 2, 3, 4, 5, 6, 7]),
  fromTime: text(TEXT_LIMITS.code).regex(/^\d{2}:\d{2}$/, 'format is invalid'),
  toTime: text(TEXT_LIMITS.code).regex(/^\d{2}:\d{2}$/, 'format is invalid'),
});
export const publicHolidayAttributesSchema = z.object({
  date: z.iso.date().refine(withinProductRange, DATE_OUT_OF_RANGE_MESSAGE),
  description: optText,
});
/**
 * product.md §5 "each energy fee type and grid fee type at most once", read as: the fee lines of a
 * contract name each grid fee type and each energy fee type at most once (a fee charged twice on
 * one contract is a data error; a price change is a new segment of the fee type).
 */
export const FEE_LINE_MESSAGES = {
  gridFeeTypeRefs: 'Each grid fee type may appear at most once',
  energyFeeTypeRefs: 'Each energy fee type may appear at most once',
} as const;

const distinct = (refs: readonly string[]): boolean => new Set(refs.map((r) => r.toLowerCase())).size === refs.length;

export const contractAttributesSchema = z.object({
  organisationRef: optRef,
  supplierRef: optRef,
  priceAreaRef: optRef,
  description: optText,
  /** The contract's fee lines: the grid fee types and energy fee types it charges. */
  gridFeeTypeRefs: list(z.uuid(), LIST_LIMITS.refs).refine(distinct, FEE_LINE_MESSAGES.gridFeeTypeRefs).default([]),
  energyFeeTypeRefs: list(z.uuid(), LIST_LIMITS.refs).refine(distinct, FEE_LINE_MESSAGES.energyFeeTypeRefs).default([]),
  /** The tax and the VAT the settlement charges on the contract's energy (issue 10 item 3). */
  taxCategoryRef: optRef,
  vatCategoryRef: optRef,
});
export const trainProfileAttributesSchema = z.object({
  description: optText,
  consumptionFactor: optNumber, // kWh per gross tonne-km
});
export const feeTypeAttributesSchema = z.object({
  description: optText,
  /** Currency per MWh. */
  price: optNumber,
  currency: text(TEXT_LIMITS.code).default('EUR'),
  /**
   * The fee applies only in the hours of this price category's time intervals (days of the week,
   * 8 = public holiday, from - to on the area's wall clock); none: every hour (issue 10 item 3).
   */
  priceCategoryRef: optRef,
});
/** A tax area named twice in one tax category's rates. */
export const TAX_AREA_RATES_MESSAGE = 'Each tax area may appear at most once';
/**
 * Tax by tax category and tax area (DOMAIN.md "Processing" step 8): the category's rate per MWh in
 * the area's currency, and the rates that differ in some tax areas (a grid area lies in the tax area
 * its taxAreaRef names). Energy in a grid area outside every listed tax area pays `rate`.
 */
export const taxCategoryAttributesSchema = z.object({
  description: optText,
  rate: optNumber,
  taxAreaRates: list(z.object({ taxAreaRef: z.uuid(), rate: z.number().min(-1e9).max(1e9) }), LIST_LIMITS.small)
    .refine((rates) => distinct(rates.map((r) => r.taxAreaRef)), TAX_AREA_RATES_MESSAGE)
    .default([]),
});
export const vatCategoryAttributesSchema = z.object({ description: optText, percentage: optNumber });
export const tractionSystemAttributesSchema = z.object({
  code: z.enum(['00', '01', '02', '03', '04', '05']),
  description: optText,
});
