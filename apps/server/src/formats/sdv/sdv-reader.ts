import { QUALITY_CODES, type QualityCode, type Resolution } from '@railwatt/contracts';
import type { ParsedPoint, ParseItem, SourceLocation } from '../timeseries/format.js';
import { chunkSeries, kwhExponent, parseDecimal } from '../timeseries/energy-units.js';

/**
 * The ebIX ValidatedMeteredData structure over XML events (local names, so any namespace prefix
 * reads): the header (sender, receiver) and per MeteringData one series: Interval, Resolution,
 * the metering point, Product/MeasureUnit and Observations (Position/Sequence, Volume, Condition).
 * Elements the reader does not know are passed over: ebIX documents carry many optional ones.
 */

/** Condition -> quality. ebIX codes pass through; SDAT-CH's 21 (provisional) is uncertain. */
export const CONDITION_QUALITY: Record<string, QualityCode> = {
  '127': QUALITY_CODES.measured,
  '61': QUALITY_CODES.uncertain,
  '21': QUALITY_CODES.uncertain,
  '56': QUALITY_CODES.estimated,
  '46': QUALITY_CODES.nonExistent,
};

const RESOLUTION_MINUTES: Record<number, Resolution> = { 5: 'PT5M', 15: 'PT15M', 60: 'PT1H' };
/** Some writers state the resolution as an ISO 8601 duration. */
const ISO_RESOLUTIONS: Record<string, Resolution> = { PT5M: 'PT5M', PT15M: 'PT15M', PT60M: 'PT1H', PT1H: 'PT1H' };
const UNIT_MINUTES: Record<string, number> = { MIN: 1, HUR: 60, H: 60 };
const STEP_MS: Partial<Record<Resolution, number>> = { PT5M: 300_000, PT15M: 900_000, PT1H: 3_600_000 };
/** Elements that repeat, so their path always carries the index. */
const REPEATED = new Set(['MeteringData', 'Observation']);
const MAX_TEXT = 1000;
/** ebIX nests about six levels; a deeper document is not one, and must not fill memory. */
const MAX_DEPTH = 32;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An xs:dateTime with its zone (Z or ±hh:mm) as UTC milliseconds, years 1970..2070. */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? '0')) as number[];
  if (y === undefined || mo === undefined || d === undefined || h === undefined || mi === undefined) return undefined;
  if (y < 1970 || y > 2070 || mo < 1 || mo > 12 || h > 23 || mi > 59 || (s ?? 0) > 59) return undefined;
  if (d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return undefined;
  const zone = m[8] ?? 'Z';
  const offset =
    zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) + Math.floor(Number(`0${m[7] ?? ''}`) * 1000) - offset * 60_000;
  return Number.isFinite(ms) ? ms : undefined;
}

interface Frame {
  name: string;
  path: string;
  location: SourceLocation;
  text: string;
  children: Map<string, number>;
}

interface ObservationDraft {
  location: SourceLocation;
  sequence?: string;
  sequenceLocation?: SourceLocation;
  volume?: string;
  volumeLocation?: SourceLocation;
  condition?: string;
  conditionLocation?: SourceLocation;
}

interface MeteringDraft {
  location: SourceLocation;
  start?: { text: string; location: SourceLocation };
  end?: { text: string; location: SourceLocation };
  resolution?: string;
  resolutionUnit?: string;
  resolutionLocation?: SourceLocation;
  meteringPoint?: string;
  unit?: string;
  unitLocation?: SourceLocation;
  observations: ObservationDraft[];
}

export class SdvReader {
  private stack: Frame[] = [{ name: '', path: '', location: {}, text: '', children: new Map() }];
  private metering: MeteringDraft | undefined;
  private observation: ObservationDraft | undefined;
  private meteringCount = 0;
  private seriesCount = 0;
  private rootChecked = false;
  private out: ParseItem[] = [];
  /** The root is not ValidatedMeteredData: nothing more is read. */
  refused = false;

  private problem(location: SourceLocation, message: string): void {
    this.out.push({ kind: 'problem', problem: { location, message } });
  }

  /** A problem found outside the structure (the XML itself). */
  fail(location: SourceLocation, message: string): void {
    const path = (this.stack[this.stack.length - 1] as Frame).path;
    this.problem(path ? { ...location, path } : location, message);
  }

  take(): ParseItem[] {
    return this.out.splice(0);
  }

  open(qualifiedName: string, line: number, column: number): void {
    if (this.refused) return;
    if (this.stack.length > MAX_DEPTH) {
      this.refused = true;
      return this.problem({ line, column }, `Elements nest deeper than ${MAX_DEPTH} levels`);
    }
    const name = qualifiedName.slice(qualifiedName.indexOf(':') + 1);
    const parent = this.stack[this.stack.length - 1] as Frame;
    const index = (parent.children.get(name) ?? 0) + 1;
    parent.children.set(name, index);
    const step = REPEATED.has(name) || index > 1 ? `${name}[${index}]` : name;
    const path = parent.path ? `${parent.path}/${step}` : step;
    const location = { line, column, path };
    this.stack.push({ name, path, location, text: '', children: new Map() });
    if (!this.rootChecked) {
      this.rootChecked = true;
      if (!name.startsWith('ValidatedMeteredData')) {
        this.refused = true;
        this.problem(location, `The root element ${name} is not an ebIX ValidatedMeteredData document`);
      }
      return;
    }
    if (name === 'MeteringData') {
      this.meteringCount++;
      this.metering = { location, observations: [] };
    } else if (name === 'Observation' && this.metering) {
      this.observation = { location };
    }
  }

  text(text: string): void {
    const top = this.stack[this.stack.length - 1] as Frame;
    if (top.text.length < MAX_TEXT) top.text += text.slice(0, MAX_TEXT - top.text.length);
  }

  close(): void {
    const frame = this.stack.pop();
    if (!frame || this.stack.length === 0) return;
    const parent = (this.stack[this.stack.length - 1] as Frame).name;
    const text = frame.text.trim();
    const at = frame.location;
    const obs = this.observation;
    const m = this.metering;
    if (frame.name === 'MeteringData') {
      this.flushMetering();
      return;
    }
    if (!m) return;
    if (obs) {
      if (frame.name === 'Observation') {
        m.observations.push(obs);
        this.observation = undefined;
      } else if (frame.name === 'Sequence') Object.assign(obs, { sequence: text, sequenceLocation: at });
      else if (frame.name === 'Volume') Object.assign(obs, { volume: text, volumeLocation: at });
      else if (frame.name === 'Condition') Object.assign(obs, { condition: text, conditionLocation: at });
      return;
    }
    if (parent === 'Interval' && frame.name === 'StartDateTime') m.start = { text, location: at };
    else if (parent === 'Interval' && frame.name === 'EndDateTime') m.end = { text, location: at };
    else if (frame.name === 'Resolution' && (parent === 'Resolution' || ISO_RESOLUTIONS[text] !== undefined)) {
      m.resolution = text;
      m.resolutionLocation = at;
    } else if (parent === 'Resolution' && frame.name === 'Unit') m.resolutionUnit = text;
    else if (frame.name === 'MeteringPointID' || frame.name === 'VSENationalID') m.meteringPoint = text;
    else if (parent === 'Product' && (frame.name === 'MeasureUnit' || frame.name === 'Unit')) {
      m.unit = text;
      m.unitLocation = at;
    }
  }

  end(): ParseItem[] {
    if (!this.rootChecked) this.problem({}, 'The file holds no XML element');
    else if (!this.refused && this.meteringCount === 0) this.problem({}, 'The document holds no MeteringData');
    return this.take();
  }

  private flushMetering(): void {
    const m = this.metering;
    this.metering = undefined;
    this.observation = undefined;
    if (!m) return;
    const before = this.out.length;
    const fail = (location: SourceLocation, message: string) => this.problem(location, message);
    if (!m.meteringPoint) fail(m.location, 'MeteringData names no metering point (MeteringPointID)');
    const start = m.start ? parseInstant(m.start.text) : undefined;
    const end = m.end ? parseInstant(m.end.text) : undefined;
    if (!m.start) fail(m.location, 'MeteringData has no Interval/StartDateTime');
    else if (start === undefined) fail(m.start.location, `StartDateTime ${m.start.text} is invalid`);
    if (!m.end) fail(m.location, 'MeteringData has no Interval/EndDateTime');
    else if (end === undefined) fail(m.end.location, `EndDateTime ${m.end.text} is invalid`);
    if (start !== undefined && end !== undefined && end <= start)
      fail(m.end?.location ?? m.location, 'The interval ends before it starts');
    const minutes = Number(m.resolution) * (UNIT_MINUTES[(m.resolutionUnit ?? 'MIN').toUpperCase()] ?? NaN);
    const resolution = ISO_RESOLUTIONS[m.resolution ?? ''] ?? RESOLUTION_MINUTES[minutes];
    if (!resolution) {
      const stated = m.resolution === undefined ? 'none' : `${m.resolution} ${m.resolutionUnit ?? ''}`.trim();
      fail(m.resolutionLocation ?? m.location, `Resolution ${stated} is not supported (15 MIN, 5 MIN, 60 MIN)`);
    }
    const exponent = kwhExponent(m.unit ?? '');
    if (exponent === undefined) {
      fail(m.unitLocation ?? m.location, `Unit ${m.unit || '(none)'} is not supported (KWH, MWH, WH)`);
    }
    if (this.out.length > before || start === undefined || end === undefined || !resolution || exponent === undefined) {
      return;
    }
    const step = STEP_MS[resolution] as number;
    const total = (end - start) / step;
    if (!Number.isInteger(total)) {
      fail(m.end?.location ?? m.location, `The interval is not a whole number of ${resolution} periods`);
      return;
    }
    const points: ParsedPoint[] = [];
    const seen = new Set<number>();
    m.observations.forEach((obs, index) => {
      let position = index + 1;
      if (obs.sequence !== undefined) {
        position = /^\d{1,9}$/.test(obs.sequence) ? Number(obs.sequence) : NaN;
        if (Number.isNaN(position))
          return fail(obs.sequenceLocation ?? obs.location, `Sequence ${obs.sequence} is invalid`);
      }
      if (position < 1 || position > total) {
        return fail(
          obs.sequenceLocation ?? obs.location,
          `Position ${position} lies outside the interval (1..${total})`,
        );
      }
      if (seen.has(position)) return fail(obs.sequenceLocation ?? obs.location, `Position ${position} is given twice`);
      seen.add(position);
      const quality = obs.condition === undefined ? QUALITY_CODES.measured : CONDITION_QUALITY[obs.condition];
      if (quality === undefined) {
        return fail(
          obs.conditionLocation ?? obs.location,
          `Condition ${obs.condition} is not supported (127, 61, 56, 46, 21)`,
        );
      }
      const pointStart = new Date(start + (position - 1) * step).toISOString();
      if (quality === QUALITY_CODES.nonExistent) return void points.push({ start: pointStart, value: null, quality });
      if (obs.volume === undefined) return fail(obs.location, 'The observation has no Volume');
      const value = parseDecimal(obs.volume, exponent);
      if (value === undefined) return fail(obs.volumeLocation ?? obs.location, `Value ${obs.volume} is invalid`);
      points.push({ start: pointStart, value, quality });
    });
    if (this.out.length > before) return;
    if (points.length !== total) {
      fail(
        m.location,
        `MeteringData has ${points.length} observations, but its interval holds ${total} at ${resolution}`,
      );
      return;
    }
    points.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    const base = {
      typeName: 'supply_energy' as const,
      identifier: m.meteringPoint ?? '',
      resolution,
      unit: 'kWh',
      location: m.location,
    };
    for (const series of chunkSeries(base, points)) this.out.push({ kind: 'series', series });
    this.seriesCount++;
  }
}
