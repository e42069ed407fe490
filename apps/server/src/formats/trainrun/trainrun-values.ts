import { hasValidEvnCheckDigit } from '@railwatt/contracts';

/**
 * The attribute rules of the train-run format (docs/formats/train-runs.md), one function per value
 * kind. Each answers the value or a message in the words the data log shows; none throws.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(message: string): Checked<T> => ({ ok: false, message });

/** A value as a message quotes it: at most 40 characters, control characters shown as '?'. */
export function shown(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}

export const invalid = (value: string, attribute: string): string =>
  `Value ${shown(value)} is invalid for ${attribute}`;

export const ACTIONS = ['input', 'correction', 'delete'] as const;
export type TrainRunAction = (typeof ACTIONS)[number];

export function action(value: string): Checked<TrainRunAction> {
  return (ACTIONS as readonly string[]).includes(value)
    ? ok(value as TrainRunAction)
    : fail(`${invalid(value, 'action')} (input, correction or delete)`);
}

/** Train numbers as timetables write them: letters, digits and . _ / - inside, at most 20 characters. */
const TRAIN_NUMBER = /^[A-Za-z0-9](?:[A-Za-z0-9._/-]{0,18}[A-Za-z0-9])?$/;

export function trainNumber(value: string): Checked<string> {
  return TRAIN_NUMBER.test(value) ? ok(value) : fail(invalid(value, 'trainNumber'));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day YYYY-MM-DD that exists (2026-02-30 does not). */
export function calendarDay(value: string, attribute: string): Checked<string> {
  const match = DAY.exec(value);
  if (!match) return fail(invalid(value, attribute));
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  const exists = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  return exists && y >= 1900 && y < 2100 ? ok(value) : fail(invalid(value, attribute));
}

/** A name or identifier of master data: not blank, at most 200 characters, trimmed. */
export function name(value: string, attribute: string): Checked<string> {
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 200 ? ok(trimmed) : fail(invalid(value, attribute));
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An instant with its offset (…Z or …+02:00), answered as UTC ISO 8601 with Z. A time without an
 * offset is refused: on the night the clocks go back it would name two instants.
 */
export function instant(value: string, attribute: string): Checked<string> {
  const match = INSTANT.exec(value);
  if (!match || !calendarDay(match[1]!, attribute).ok) return fail(invalid(value, attribute));
  const [hh, mm, ss] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hh > 23 || mm > 59 || ss > 59) return fail(invalid(value, attribute));
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ok(new Date(ms).toISOString()) : fail(invalid(value, attribute));
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal number written with a point and no exponent, greater than 0 or at least 0. */
export function decimal(value: string, attribute: string, rule: 'positive' | 'notNegative'): Checked<number> {
  const trimmed = value.trim();
  const n = DECIMAL.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(n)) return fail(invalid(value, attribute));
  if (rule === 'positive' && n <= 0) return fail(`${attribute} must be greater than 0, not ${shown(trimmed)}`);
  if (rule === 'notNegative' && n < 0) return fail(`${attribute} must not be negative, not ${shown(trimmed)}`);
  return ok(n);
}

/** A position in the composition: a whole number from 1 to 999. */
export function position(value: string): Checked<number> {
  return /^\d{1,3}$/.test(value.trim()) && Number(value) >= 1 ? ok(Number(value)) : fail(invalid(value, 'position'));
}

/** European Vehicle Number: 12 digits whose last is the UIC check digit of the first eleven. */
export function evn(value: string): Checked<string> {
  if (!/^\d{12}$/.test(value)) return fail(`EVN ${shown(value)} must be exactly 12 digits`);
  return hasValidEvnCheckDigit(value) ? ok(value) : fail(`EVN ${value} has a wrong check digit`);
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone (as contracts' dayInZone, cached). */
function localDay(instant: string, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * Whether a run departing at `departure` can belong to `operatingDay`: it departs on that day in the
 * area's calendar, or on the next (a late train keeps its operating day past midnight).
 */
export function departsOnOperatingDay(departure: string, operatingDay: string, timeZone: string): boolean {
  let local: string;
  try {
    local = localDay(departure, timeZone);
  } catch {
    // An unknown time zone (a configuration error, not the file's): judge on UTC.
    local = departure.slice(0, 10);
  }
  return local === operatingDay || local === nextDay(operatingDay);
}
