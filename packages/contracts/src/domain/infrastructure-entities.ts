import { z } from 'zod';
import { TEXT_LIMITS, text } from '../limits.js';

/**
 * The twelve infrastructure entity kinds of product.md §2 (entity/registration child forms). What
 * they are (DOMAIN.md): supply metering points measure the energy a substation feeds into a grid
 * area (the supply side of price-and-supply), fixed metering points measure fixed installations,
 * grid area crossings and border crossings are where a track leaves one area for another, tracks
 * carry a traction system, reported train metering points and payload points are places on the line
 * where trains are reported or weighed. Each has a type kind where the spec names one.
 */

/** product.md §5: a location is 'lat,lon' with lat within 90 and lon within 180. */
export const LOCATION_MESSAGE = 'The value must be a geographic location (e.g. "1,1")';

const LOCATION_PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** True for 'lat,lon' with |lat| <= 90 and |lon| <= 180 ('59.91,10.75', '1,1', '-33.9, 18.4'). */
export function isLocation(value: string): boolean {
  const match = LOCATION_PATTERN.exec(value);
  if (!match) return false;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** [lat, lon] of a valid location string, else undefined. */
export function parseLocation(value: string): [number, number] | undefined {
  if (!isLocation(value)) return undefined;
  const match = LOCATION_PATTERN.exec(value)!;
  return [Number(match[1]), Number(match[2])];
}

export const locationSchema = text(TEXT_LIMITS.code).refine(isLocation, LOCATION_MESSAGE);

/** product.md §5 "the two areas must differ" (grid area crossing, border crossing: from and to). */
export const AREAS_MUST_DIFFER_MESSAGE = 'The two areas must differ';

/**
 * product.md §5: a supply metering point's name is unique (the name EXCLUDE constraint, 'uniquename')
 * and is the identifier the supply/substation input names it by (UTILTS LOC, sdv metering point id).
 * Those files carry it as one token, so the name has no spaces and only letters, digits and . _ : -.
 */
export const SUPPLY_METERING_POINT_NAME_PATTERN = /^[A-Za-z0-9._:-]+$/;
export const SUPPLY_METERING_POINT_NAME_MESSAGE =
  'The name must be the identifier of the supply metering point in the supply/substation input (letters, digits and . _ : - without spaces)';

const optText = text(TEXT_LIMITS.comment).nullable().optional();
const optCode = text(TEXT_LIMITS.code).nullable().optional();
const optRef = z.uuid().nullable().optional();
const optLocation = locationSchema.nullable().optional();
/** Bounded: a value stored in jsonb and read by SQL must stay a finite, sane number. */
const optQuantity = z.number().min(0).max(1e9).nullable().optional();
/**
 * An erex-administrator-only flag (product.md §6 "fields flagged for_erex_admin_only", listed in
 * forms.ts ADMIN_ONLY_FIELDS). No default: a save that leaves it out keeps what is stored.
 */
const adminFlag = z.boolean().nullable().optional();

const typeAttributes = { code: optCode, description: optText };

export const supplyMeteringPointTypeAttributesSchema = z.object(typeAttributes);
export const supplyMeteringPointAttributesSchema = z.object({
  supplyMeteringPointTypeRef: z.uuid(),
  /** The grid area the substation feeds (supply energy is summed per grid area and hour). */
  gridAreaRef: z.uuid(),
  location: optLocation,
  description: optText,
  /** Left out of price-and-supply while set: the administrator's switch (for_erex_admin_only). */
  excludedFromSettlement: adminFlag,
});

export const fixedMeteringPointTypeAttributesSchema = z.object(typeAttributes);
export const fixedMeteringPointAttributesSchema = z.object({
  fixedMeteringPointTypeRef: z.uuid(),
  gridAreaRef: z.uuid(),
  /** The organisation the fixed installation's energy is settled to. */
  organisationRef: optRef,
  location: optLocation,
  description: optText,
  excludedFromSettlement: adminFlag,
});

export const gridAreaCrossingAttributesSchema = z
  .object({
    fromGridAreaRef: z.uuid(),
    toGridAreaRef: z.uuid(),
    location: optLocation,
    description: optText,
  })
  .refine((a) => a.fromGridAreaRef.toLowerCase() !== a.toGridAreaRef.toLowerCase(), {
    message: AREAS_MUST_DIFFER_MESSAGE,
    path: ['toGridAreaRef'],
  });

export const borderCrossingAttributesSchema = z
  .object({
    /** The areas on either side (grid, energy use settlement, price or settlement areas: references.ts). */
    fromAreaRef: z.uuid(),
    toAreaRef: z.uuid(),
    /** The border station. */
    location: locationSchema,
    description: optText,
  })
  .refine((a) => a.fromAreaRef.toLowerCase() !== a.toAreaRef.toLowerCase(), {
    message: AREAS_MUST_DIFFER_MESSAGE,
    path: ['toAreaRef'],
  });

/** An on-board energy measurement system model (EN 50463). */
export const emsTypeAttributesSchema = z.object({
  manufacturer: text(TEXT_LIMITS.name).nullable().optional(),
  model: text(TEXT_LIMITS.name).nullable().optional(),
  description: optText,
});

export const consumptionTypeAttributesSchema = z.object(typeAttributes);

export const trackAttributesSchema = z.object({
  tractionSystemRef: z.uuid(),
  /** Line or track number as the infrastructure manager writes it. */
  trackNumber: optCode,
  lengthKm: optQuantity,
  fromLocation: optLocation,
  toLocation: optLocation,
  description: optText,
});

export const reportedTrainMeteringPointAttributesSchema = z.object({
  location: locationSchema,
  trackRef: optRef,
  gridAreaRef: optRef,
  description: optText,
});

export const payloadPointTypeAttributesSchema = z.object(typeAttributes);
export const payloadPointAttributesSchema = z.object({
  payloadPointTypeRef: z.uuid(),
  location: locationSchema,
  trackRef: optRef,
  description: optText,
});
