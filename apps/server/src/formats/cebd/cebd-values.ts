import {
  hasValidEvnCheckDigit,
  NVR_PATTERN,
  QUALITY_CODE_VALUES,
  TRACTION_SYSTEM_CODES,
  uicCheckDigit,
  VKM_PATTERN,
  type QualityCode,
  type TractionSystemCode,
} from '@railwatt/contracts';

/**
 * The attribute values of a CEBD file (docs/formats/cebd.md): each reader returns the value or the
 * message that refuses it. Pure functions, no XML: cebd-format.ts calls them per attribute.
 */

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const fail = (message: string): Read<never> => ({ ok: false, message });

/** A value as messages quote it: empty shown as "", long ones cut. */
export const shown = (value: string): string =>
  value === '' ? '""' : value.length > 40 ? `${value.slice(0, 40)}…` : value;

export const invalid = (name: string, value: string, hint: string): Read<never> =>
  fail(`Value ${shown(value)} is invalid for ${name} (${hint})`);

const MIN_MS = Date.UTC(1970, 0, 1);
const MAX_MS = Date.UTC(2070, 0, 1);
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
export const PERIOD_MS = 5 * 60_000;

/** The last day read and its midnight: a file's records share a few days, Date.UTC runs once per day. */
let lastDay = '';
let lastDayMs = 0;

/** A UTC instant written YYYY-MM-DDThh:mm:ssZ (a real date, 1970..2070), in milliseconds. */
export function readInstant(name: string, value: string): Read<number> {
  const m = INSTANT.exec(value);
  if (!m) return invalid(name, value, 'a UTC instant like 2026-10-01T00:05:00Z');
  const day = value.slice(0, 10);
  if (day !== lastDay) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(y, mo - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
      return invalid(name, value, 'not a real date');
    }
    lastDay = day;
    lastDayMs = ms;
  }
  const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (h > 23 || mi > 59 || s > 59) return invalid(name, value, 'not a real time of day');
  const ms = lastDayMs + ((h * 60 + mi) * 60 + s) * 1000;
  if (ms < MIN_MS || ms > MAX_MS) return fail(`${name} ${value} is outside 1970-01-01 .. 2070-01-01`);
  return ok(ms);
}

/** An instant that ends (or, for a reading, is) a 5-minute period. */
export function readPeriodInstant(name: string, value: string): Read<number> {
  const read = readInstant(name, value);
  if (read.ok && read.value % PERIOD_MS !== 0) {
    return fail(`${name} ${value} is not on a 5-minute boundary (minutes a multiple of 5, seconds 00)`);
  }
  return read;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const ENERGY = /^\d{1,9}(\.\d{1,6})?$/;

/**
 * An energy (kWh or kvarh) or a register reading: a non-negative decimal number, at most nine
 * digits before the point and six after it (no sign, no exponent, no thousands separator).
 */
export function readEnergy(name: string, value: string): Read<number> {
  if (ENERGY.test(value)) return ok(Number(value));
  if (DECIMAL.test(value) && value.startsWith('-') && Number(value) !== 0) {
    return fail(`Negative value ${shown(value)} for ${name}: energy is never negative`);
  }
  const unit = name.startsWith('reactive') ? 'kvarh' : 'kWh';
  return invalid(name, value, `a non-negative decimal number in ${unit} with at most 9 + 6 digits, e.g. 1.234`);
}

const COORDINATE = /^-?\d{1,3}(\.\d{1,9})?$/;

/** Latitude (±90) or longitude (±180) in decimal degrees (WGS 84). */
export function readCoordinate(name: 'lat' | 'lon', value: string): Read<number> {
  const limit = name === 'lat' ? 90 : 180;
  if (!COORDINATE.test(value))
    return invalid(name, value, `decimal degrees, e.g. ${name === 'lat' ? '59.91' : '10.75'}`);
  const n = Number(value);
  if (n < -limit || n > limit) return fail(`${name} ${value} is outside -${limit} .. ${limit}`);
  // -0 is 0: the value compares and prints as the file's sender meant it.
  return ok(n === 0 ? 0 : n);
}

export function readTractionSystem(_name: string, value: string): Read<TractionSystemCode> {
  if (Object.hasOwn(TRACTION_SYSTEM_CODES, value) && value.length === 2) return ok(value as TractionSystemCode);
  return fail(`Unknown traction system code ${shown(value)} (known: 00 to 05)`);
}

const QUALITY_BY_TEXT = new Map<string, QualityCode>(QUALITY_CODE_VALUES.map((q) => [String(q), q]));

export function readQuality(_name: string, value: string): Read<QualityCode> {
  const q = QUALITY_BY_TEXT.get(value);
  return q === undefined ? fail(`Unknown quality code ${shown(value)} (known: 127, 61, 56, 46)`) : ok(q);
}

const CPID = /^([A-Z]+)_([A-Z]+)_(\d+)_([A-Za-z0-9-]+)$/;

/** A CPID: NVR_VKM_EVN_EMSID (buildCpid in contracts), the EVN with its UIC check digit. */
export function readCpid(value: string): Read<string> {
  const m = value.length <= 100 ? CPID.exec(value) : null;
  if (!m || !NVR_PATTERN.test(m[1]!) || !VKM_PATTERN.test(m[2]!) || m[3]!.length !== 12) {
    return fail(
      `CPID ${shown(value)} is not in the form NVR_VKM_EVN_EMSID (country code, keeper marking, 12-digit EVN, EMS id; e.g. NO_NSB_917600100015_EMS1)`,
    );
  }
  const evn = m[3]!;
  if (!hasValidEvnCheckDigit(evn)) {
    return fail(`CPID ${value}: the EVN ${evn} has a wrong check digit (expected ${uicCheckDigit(evn.slice(0, 11))})`);
  }
  return ok(value);
}

/** Difference of two readings, rounded to the six decimals the format allows (no float noise). */
export const registerDifference = (later: number, earlier: number): number => Math.round((later - earlier) * 1e6) / 1e6;
