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
  intervals.forEach(({ obs, value, quality }, index) => {
    let k = obs.position !== undefined ? obs.position - 1 : index;
    if (obs.start) {
      const s = obs.start.ms;
      k = step ? (s - start.ms) / step : indexOfMonth(s, startOf, total);
      if (obs.end && (Number.isInteger(k) ? startOf(k + 1) : NaN) !== obs.end.ms) {
        fail(obs.location, `The observation's interval ${iso(s)}–${iso(obs.end.ms)} is not one ${resolution} interval`);
        return;
      }
      if (obs.position !== undefined && k !== obs.position - 1 && Number.isInteger(k)) {
        fail(obs.location, `Position ${obs.position} does not match the observation's date ${iso(s)}`);
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
    points.push({ start: iso(s), value, quality });
  });

  if (readings.length > 0) {
    const point = checkReadings(resolution, start.ms, end.ms, total, intervals, readings, fail);
    if (point) points.push({ ...point, start: iso(start.ms) });
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

/**
 * Monthly meter-reading messages: the register readings at the start and end of the period must
 * differ by the consumption (within READING_TOLERANCE); without a consumption quantity the
 * difference is the month's value (its quality the lower of the two readings').
 */
function checkReadings(
  resolution: Resolution,
  start: number,
  end: number,
  total: number,
  intervals: Valued[],
  readings: Valued[],
  fail: (l: SourceLocation, m: string) => void,
): Omit<ParsedPoint, 'start'> | undefined {
  if (resolution !== 'P1M') {
    fail(readings[0]?.obs.location ?? {}, 'Meter readings (QTY+220) are read only in monthly series');
    return undefined;
  }
  let first: Valued | undefined;
  let last: Valued | undefined;
  for (const r of readings) {
    const at = r.obs.at ?? r.obs.start ?? r.obs.end;
    const where = r.obs.qtyLocation ?? r.obs.location;
    if (!at) fail(where, 'The meter reading has no date (DTM)');
    else if (r.value === null) fail(where, 'The meter reading has no value');
    else if (at.ms === start && !first) first = r;
    else if (at.ms === end && !last) last = r;
    else if (at.ms === start || at.ms === end) fail(where, `The meter reading at ${iso(at.ms)} is given twice`);
    else fail(where, `The meter reading at ${iso(at.ms)} is neither the start nor the end of the period`);
  }
  if (!first || !last || first.value === null || last.value === null) {
    if (intervals.length === 0) {
      fail(
        readings[0]?.obs.location ?? {},
        'A monthly series needs the start and the end reading, or a consumption (QTY+136)',
      );
    }
    return undefined;
  }
  const difference = Math.round((last.value - first.value) * 1e6) / 1e6;
  if (intervals.length === 0) {
    if (total !== 1) fail(readings[0]?.obs.location ?? {}, 'Readings alone give one month: the period is longer');
    return { value: difference, quality: Math.min(first.quality, last.quality) as QualityCode };
  }
  const sum = intervals.reduce((acc, v) => acc + (v.value ?? 0), 0);
  if (Math.abs(sum - difference) > READING_TOLERANCE + 1e-9) {
    const q = intervals[0]?.obs;
    fail(
      q?.qtyLocation ?? q?.location ?? {},
      `The consumption ${Math.round(sum * 1e6) / 1e6} does not match the meter readings (${last.value} - ${first.value} = ${difference})`,
    );
  }
  return undefined;
}
