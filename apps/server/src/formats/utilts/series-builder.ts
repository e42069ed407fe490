import { QUALITY_CODES, type QualityCode, type Resolution } from '@railwatt/contracts';
import type { ParsedPoint, ParsedSeries, Problem, SourceLocation } from '../timeseries/format.js';
import { chunkSeries, kwhExponent, parseDecimal } from '../timeseries/energy-units.js';
import { addMonths, iso, wholeMonths, type EdiInstant } from './edifact-dates.js';

/**
 * Turns what a UTILTS/MSCONS time series stated (IDE ... QTY/DTM/STS) into points: the resolution
 * (stated or derived), each observation's start, the unit in kWh, the checks (outside the period,
 * twice, counts, monthly readings against the consumption) and chunks of at most 5,000 points.
 */

/** QTY qualifiers: interval quantities (with the quality they imply) and the register reading. */
export const QUANTITY_QUALIFIERS: Record<string, QualityCode> = { '136': 127, '31': 56 };
export const READING_QUALIFIER = '220';

export interface ObservationDraft {
  location: SourceLocation;
  qtyLocation?: SourceLocation;
  position?: number;
  /** The SEQ segment that gave the position. */
  positionLocation?: SourceLocation;
  /** RFF+AES: the register a reading (QTY+220) is of; RFF+MG: the meter. */
  register?: string;
  meter?: string;
  qualifier?: string;
  valueText?: string;
  unit?: string;
  start?: EdiInstant;
  end?: EdiInstant;
  at?: EdiInstant;
  quality?: QualityCode;
  /** A segment of it was refused already (its problem told); the observation is left out. */
  broken?: boolean;
}

export interface SeriesDraft {
  location: SourceLocation;
  seriesId?: string;
  meteringPoint?: string;
  /** The LOC+172 segment: what a message about the metering point (unknown to the area) names. */
  meteringPointLocation?: SourceLocation;
  /** LOC+239: the grid area (Nordic Ediel), read and checked but not stored. */
  gridArea?: string;
  /** STS+7 before the observations: the reason for the transaction (E88 ...), read but not stored. */
  reason?: string;
  /** invalid: a DTM of it was refused already (its problem told). */
  period?: { start?: EdiInstant; end?: EdiInstant; location: SourceLocation; invalid?: boolean };
  resolution?: Resolution;
  unit?: string;
  observations: ObservationDraft[];
}

const FIXED_MS: Partial<Record<Resolution, number>> = {
  PT5M: 300_000,
  PT15M: 900_000,
  PT1H: 3_600_000,
  P1D: 86_400_000,
};
const BY_LENGTH = new Map(Object.entries(FIXED_MS).map(([r, ms]) => [ms, r as Resolution]));
/** The tolerance of the monthly check: readings and consumption differ by at most this (kWh). */
export const READING_TOLERANCE = 0.001;

interface Valued {
  obs: ObservationDraft;
  value: number | null;
  quality: QualityCode;
}

export function buildSeries(draft: SeriesDraft): { series: ParsedSeries[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const fail = (location: SourceLocation, message: string) => problems.push({ location, message });
  if (!draft.meteringPoint) fail(draft.location, 'The time series has no metering point (LOC+172)');
  const start = draft.period?.start;
  const end = draft.period?.end;
  if (!start || !end) {
    if (!draft.period?.invalid) fail(draft.location, 'The time series has no period (DTM+324, or DTM+163 and DTM+164)');
  } else if (start.ms >= end.ms) {
    fail(draft.period?.location ?? draft.location, 'The period ends before it starts');
  }

  const valued = readValues(draft, fail);
  if (problems.length > 0 || !start || !end) return { series: [], problems };

  if (draft.observations.length === 0) {
    fail(draft.location, 'The time series has no observations (SEQ, QTY)');
    return { series: [], problems };
  }
  const intervals = valued.filter((v) => v.obs.qualifier !== READING_QUALIFIER);
  const readings = valued.filter((v) => v.obs.qualifier === READING_QUALIFIER);
  const offset = start.offset;
  const resolution = draft.resolution ?? deriveResolution(start.ms, end.ms, offset, intervals, readings.length > 0);
  if (!resolution) {
    fail(draft.location, 'The resolution cannot be derived from the period and the observations: give DTM+354');
    return { series: [], problems };
  }
  const step = FIXED_MS[resolution];
  const months = resolution === 'P1M' ? 1 : resolution === 'P1Y' ? 12 : 0;
  const total = step ? (end.ms - start.ms) / step : (wholeMonths(start.ms, end.ms, offset) ?? NaN) / months;
  if (!Number.isInteger(total)) {
    fail(
      draft.period?.location ?? draft.location,
      `The period ${iso(start.ms)}–${iso(end.ms)} is not whole ${resolution} intervals`,
    );
    return { series: [], problems };
  }
  const startOf = (k: number): number => (step ? start.ms + k * step : addMonths(start.ms, k * months, offset));

  const points: ParsedPoint[] = [];
  const seen = new Set<number>();
  /** Interval index -> its value, for the readings' check. */
  const placed = new Map<number, Valued>();
  // Nordic Ediel (E66) numbers every observation with SEQ, register readings included (SEQ++1 and
  // SEQ++2 the readings, SEQ++3 the month's consumption): there the SEQ number is no interval position.
  const seqNumbersReadings = readings.some((r) => r.obs.position !== undefined);
  if (seqNumbersReadings) checkSequenceNumbers(draft.observations, fail);
  intervals.forEach((valued, index) => {
    const { obs, value, quality } = valued;
    const position = seqNumbersReadings ? undefined : obs.position;
    let k = position !== undefined ? position - 1 : index;
    if (obs.start) {
      const s = obs.start.ms;
      k = step ? (s - start.ms) / step : indexOfMonth(s, startOf, total);
      if (obs.end && (Number.isInteger(k) ? startOf(k + 1) : NaN) !== obs.end.ms) {
        fail(obs.location, `The observation's interval ${iso(s)}–${iso(obs.end.ms)} is not one ${resolution} interval`);
        return;
      }
      if (position !== undefined && k !== position - 1 && Number.isInteger(k)) {
        fail(obs.location, `Position ${position} does not match the observation's date ${iso(s)}`);
        return;
      }
    }
    if (!Number.isInteger(k) || k < 0 || k >= total) {
      const at = obs.start ? iso(obs.start.ms) : `position ${k + 1}`;
      fail(obs.location, `The observation at ${at} lies outside the period ${iso(start.ms)}–${iso(end.ms)}`);
      return;
    }
    const s = startOf(k);
    if (seen.has(s)) {
      fail(obs.location, `The observation for ${iso(s)} is given twice`);
      return;
    }
    seen.add(s);
    placed.set(k, valued);
    points.push({ start: iso(s), value, quality });
  });

  if (readings.length > 0) {
    const boundary = (ms: number): number => {
      const b = step ? (ms - start.ms) / step : indexOfMonth(ms, startOf, total);
      return Number.isInteger(b) && b >= 0 && b <= total ? b : NaN;
    };
    for (const point of checkReadings({ resolution, total, startOf, boundary, placed, readings, fail })) {
      const s = Date.parse(point.start);
      if (!seen.has(s)) points.push(point);
      seen.add(s);
    }
  }
  // A refused observation (its problem told) would only be counted missing here.
  const refused = draft.observations.some((o) => o.broken);
  if (problems.length === 0 && !refused && points.length !== total) {
    fail(
      draft.location,
      `The time series has ${points.length} observations, but its period ${iso(start.ms)}–${iso(end.ms)} holds ${total} at ${resolution}`,
    );
  }
  if (problems.length > 0 || refused) return { series: [], problems };
  points.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const base = {
    typeName: 'supply_energy' as const,
    identifier: draft.meteringPoint ?? '',
    resolution,
    unit: 'kWh',
    location: draft.meteringPointLocation ?? draft.location,
  };
  return { series: chunkSeries(base, points), problems };
}

function indexOfMonth(s: number, startOf: (k: number) => number, total: number): number {
  for (let k = 0; k <= total; k++) if (startOf(k) === s) return k;
  return NaN;
}

function readValues(draft: SeriesDraft, fail: (l: SourceLocation, m: string) => void): Valued[] {
  const out: Valued[] = [];
  const unitsTold = new Set<string>();
  for (const obs of draft.observations) {
    if (obs.broken) continue;
    const quality = obs.quality ?? QUANTITY_QUALIFIERS[obs.qualifier ?? '136'] ?? QUALITY_CODES.measured;
    const where = obs.qtyLocation ?? obs.location;
    if (quality === QUALITY_CODES.nonExistent) {
      out.push({ obs, value: null, quality });
      continue;
    }
    if (obs.valueText === undefined) {
      fail(obs.location, 'The observation has no quantity (QTY)');
      continue;
    }
    const unit = obs.unit || draft.unit;
    if (!unit) {
      if (!unitsTold.has('')) fail(where, 'No unit is given: state it in MEA+AAZ or in the QTY');
      unitsTold.add('');
      continue;
    }
    const exponent = kwhExponent(unit);
    if (exponent === undefined) {
      if (!unitsTold.has(unit)) fail(where, `Unit ${unit} is not supported (KWH, MWH, WH, GWH)`);
      unitsTold.add(unit);
      continue;
    }
    const value = parseDecimal(obs.valueText, exponent);
    if (value === undefined) {
      fail(where, `Value ${obs.valueText} is invalid`);
      continue;
    }
    out.push({ obs, value, quality });
  }
  return out;
}

function deriveResolution(
  start: number,
  end: number,
  offset: number,
  intervals: Valued[],
  hasReadings: boolean,
): Resolution | undefined {
  const months = wholeMonths(start, end, offset);
  if (
    months !== undefined &&
    (months === intervals.length || (hasReadings && intervals.length === 0 && months === 1))
  ) {
    return 'P1M';
  }
  const own = intervals.find((v) => v.obs.start && v.obs.end)?.obs;
  const length = own?.start && own.end ? own.end.ms - own.start.ms : (end - start) / intervals.length;
  return BY_LENGTH.get(length);
}

/** In a series whose SEQ numbers the observations, each number is given once. */
function checkSequenceNumbers(observations: ObservationDraft[], fail: (l: SourceLocation, m: string) => void): void {
  const numbers = new Set<number>();
  for (const obs of observations) {
    if (obs.position === undefined || obs.positionLocation === undefined) continue;
    if (numbers.has(obs.position)) {
      fail(obs.positionLocation, `Sequence number ${obs.position} is given twice in the time series`);
    }
    numbers.add(obs.position);
  }
}

interface ReadingCheck {
  resolution: Resolution;
  total: number;
  startOf: (k: number) => number;
  /** The interval boundary (0 = the period start, total = its end) an instant is at, or NaN. */
  boundary: (ms: number) => number;
  placed: Map<number, Valued>;
  readings: Valued[];
  fail: (l: SourceLocation, m: string) => void;
}

interface Read {
  at: number;
  value: number;
  valued: Valued;
}

/**
 * Register readings (QTY+220), as monthly meter-reading messages (Nordic Ediel E66) send them: each
 * register's readings lie on interval boundaries of the period (its start and end, for a month),
 * grouped by register (RFF+AES; one register when none is named). Between two consecutive readings
 * the register advanced by their difference; summed over the registers, that must equal the
 * consumption (QTY+136) of the intervals between them within READING_TOLERANCE. Where no
 * consumption is given for a single interval, the difference is its value (quality: the lower of the
 * two readings'). The readings themselves are not stored: ParsedSeries holds interval values only.
 */
function checkReadings(c: ReadingCheck): ParsedPoint[] {
  const { resolution, total, startOf, boundary, placed, readings, fail } = c;
  const where = (v: Valued): SourceLocation => v.obs.qtyLocation ?? v.obs.location;
  const registers = new Map<string, Read[]>();
  const meters = new Map<string, string>();
  let valid = true;
  for (const r of readings) {
    const at = r.obs.at ?? r.obs.start ?? r.obs.end;
    if (!at) {
      fail(where(r), 'The meter reading has no date (DTM)');
      valid = false;
      continue;
    }
    if (r.value === null) {
      fail(where(r), 'The meter reading has no value');
      valid = false;
      continue;
    }
    const register = r.obs.register ?? '';
    const meter = r.obs.meter;
    const known = meters.get(register);
    if (meter !== undefined && known !== undefined && known !== meter) {
      fail(
        where(r),
        `Register ${register || '(unnamed)'} is read on two meters (${known}, ${meter}): a meter change within the period is not supported`,
      );
      valid = false;
      continue;
    }
    if (meter !== undefined) meters.set(register, meter);
    const b = boundary(at.ms);
    const list = registers.get(register) ?? [];
    if (Number.isNaN(b)) {
      fail(
        where(r),
        total === 1
          ? `The meter reading at ${iso(at.ms)} is neither the start nor the end of the period`
          : `The meter reading at ${iso(at.ms)} is not at the start or the end of a ${resolution} interval of the period`,
      );
      valid = false;
    } else if (list.some((x) => x.at === b)) {
      fail(where(r), `The meter reading at ${iso(at.ms)} is given twice`);
      valid = false;
    } else {
      list.push({ at: b, value: r.value, valued: r });
      registers.set(register, list);
    }
  }
  if (!valid || registers.size === 0) return [];

  const groups = [...registers.entries()].map(([register, list]) => ({
    register,
    list: list.sort((a, b) => a.at - b.at),
  }));
  const [first] = groups;
  if (!first) return [];
  const times = (list: Read[]) => list.map((x) => x.at).join(',');
  for (const g of groups.slice(1)) {
    if (times(g.list) !== times(first.list)) {
      fail(
        where(g.list[0]?.valued ?? first.list[0]!.valued),
        `Register ${g.register || '(unnamed)'} is read at other times than register ${first.register || '(unnamed)'}`,
      );
      return [];
    }
  }
  if (first.list.length < 2) {
    if (placed.size === 0) {
      fail(
        where(first.list[0]!.valued),
        'The time series needs a start and an end reading of each register (QTY+220), or a consumption (QTY+136)',
      );
    }
    return [];
  }

  const derived: ParsedPoint[] = [];
  for (let i = 1; i < first.list.length; i++) {
    const from = first.list[i - 1]!.at;
    const to = first.list[i]!.at;
    let difference = 0;
    let quality: number = QUALITY_CODES.measured;
    for (const g of groups) {
      const a = g.list[i - 1]!;
      const b = g.list[i]!;
      difference += b.value - a.value;
      quality = Math.min(quality, a.valued.quality, b.valued.quality);
    }
    difference = Math.round(difference * 1e6) / 1e6;
    const formula =
      groups.length === 1
        ? `${first.list[i]!.value} - ${first.list[i - 1]!.value} = ${difference}`
        : `the ${groups.length} registers advanced ${difference}`;
    const given: Valued[] = [];
    for (let k = from; k < to; k++) {
      const v = placed.get(k);
      if (v) given.push(v);
    }
    if (given.length === to - from) {
      const sum = given.reduce((acc, v) => acc + (v.value ?? 0), 0);
      if (Math.abs(sum - difference) > READING_TOLERANCE + 1e-9) {
        fail(
          where(given[0]!),
          `The consumption ${Math.round(sum * 1e6) / 1e6} does not match the meter readings (${formula})`,
        );
      }
    } else if (given.length === 0 && to - from === 1) {
      derived.push({ start: iso(startOf(from)), value: difference, quality: quality as QualityCode });
    } else if (given.length === 0) {
      fail(
        where(first.list[i]!.valued),
        `The meter readings at ${iso(startOf(from))} and ${iso(startOf(to))} span ${to - from} ${resolution} intervals: give their consumption (QTY+136)`,
      );
    }
    // Some intervals given and some not: the count of observations tells what is missing.
  }
  return derived;
}
