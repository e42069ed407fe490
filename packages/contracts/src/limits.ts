import { z } from 'zod';
import { DEFAULT_TIME_RANGE } from './constants.js';

/**
 * Input limits: every request body, string and list the server accepts is bounded here, so one
 * request cannot take the server (or the embedded database) down. `limits.test.ts` walks every
 * schema the contracts export and fails when a string has no maximum length or a list no maximum
 * count: a new contract cannot forget.
 */

/** Deepest nesting of objects and arrays a JSON request body may have (checked before parsing). */
export const MAX_JSON_DEPTH = 32;
/** Largest JSON request body in bytes (1 MB); multipart uploads have their own, larger limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Maximum lengths of strings, by what they hold. */
export const TEXT_LIMITS = {
  /** Codes, enum-like values, currency, country and zone ids. */
  code: 64,
  /** Identifiers: usernames, orgId, EMS id, VKM, CPID, types, sort fields, property names. */
  identifier: 100,
  /** Names of entities, people, files, sheets. */
  name: 200,
  /** Search strings and text filters. */
  search: 200,
  /** One e-mail address (RFC 5321 path limit). */
  email: 254,
  /** Addresses: hosts, directories, URIs. */
  address: 2000,
  /** Comments, descriptions, messages, e-mail lists. */
  comment: 4000,
  /** Passwords, private keys, tokens. */
  secret: 16000,
  /** Messages the server writes into answers; they may quote a workbook cell (up to 32,767 characters). */
  message: 100000,
} as const;

/** Maximum counts of lists in bodies and answers. */
export const LIST_LIMITS = {
  /** Small enumerations (organisation types, market functions, energy types, days of week). */
  small: 100,
  /** References held by one entity (consumption points, legal combinations, blocked receivers). */
  refs: 1000,
  /** Items selected for one call (uuids of a status change, usernames of edit-all, identifiers). */
  selection: 10000,
  /** Rows of one answer (lists, pages, exports). */
  rows: 100000,
  /** Positions of one polygon ring, rings of one polygon, polygons of one multipolygon. */
  positions: 100000,
  rings: 1000,
} as const;

export const NUL_MESSAGE = 'Must not contain NUL characters';

/**
 * A string of at most `max` characters without NUL (PostgreSQL text cannot hold it). Every string
 * of a contract is one of these, or a fixed format (uuid, ISO date-time, date).
 */
export const text = (max: number) =>
  z
    .string()
    .max(max, `At most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), NUL_MESSAGE);

/**
 * A string the server writes into an answer (error messages, failure texts): bounded like every
 * string, but NUL is not refused, since such a message may quote what a refused file held, and a
 * refusal must never turn into a failed answer.
 */
export const serverText = (max: number) => z.string().max(max);

/** A list of at most `max` items. */
export const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `At most ${max} items`);

const EARLIEST_MS = Date.parse(DEFAULT_TIME_RANGE.start);
const LATEST_MS = Date.parse(DEFAULT_TIME_RANGE.end);
/** product.md §9: the time range of the product runs from 1970-01-01 to 2070-01-01 UTC. */
export const DATE_OUT_OF_RANGE_MESSAGE = 'Date must be between 01.01.1970 and 01.01.2070';

/** True when an ISO date or date-time lies in the product's range 1970-01-01 .. 2070-01-01 (inclusive). */
export const withinProductRange = (iso: string): boolean => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;
};

/** The message of a range whose start is after its end. */
export const RANGE_ORDER_MESSAGE = 'From date must be before to date';

/**
 * True when objects and arrays in a JSON text nest deeper than `limit`. A scan of the characters (strings skipped), so a hostile body is refused before JSON.parse
 * recurses into it.
 */
export function jsonDepthExceeds(json: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
