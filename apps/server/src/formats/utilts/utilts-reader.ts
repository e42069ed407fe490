import { QUALITY_CODES, RESOLUTIONS, type QualityCode, type Resolution } from '@railwatt/contracts';
import type { ParseItem, SourceLocation } from '../timeseries/format.js';
import { parseEdiDate, parseEdiRange, parseOffset } from './edifact-dates.js';
import { component, segmentLocation, type Segment } from './segments.js';
import {
  QUANTITY_QUALIFIERS,
  READING_QUALIFIER,
  buildSeries,
  type ObservationDraft,
  type SeriesDraft,
} from './series-builder.js';

/**
 * The UTILTS/MSCONS structure over the segments: interchange (UNB/UNZ), messages (UNH/UNT), the
 * message header (BGM, DTM, MKS, NAD ...) and the time series (IDE, LOC+172 and LOC+239, DTM, STS+7,
 * MEA, CCI/CAV, then SEQ/RFF/QTY/DTM/STS/CCI/CAV observations), as Nordic Ediel writes them (E66
 * monthly readings, E30/E31 series). Each segment goes in through feed(); items come out as they
 * are complete. Only the current series is held in memory.
 */

/** STS codes (any of its first three data elements) -> quality. Our mapping, see docs/formats/utilts.md. */
export const STATUS_QUALITY: Record<string, QualityCode> = {
  '127': QUALITY_CODES.measured,
  Z01: QUALITY_CODES.measured,
  '61': QUALITY_CODES.uncertain,
  Z02: QUALITY_CODES.uncertain,
  '56': QUALITY_CODES.estimated,
  Z03: QUALITY_CODES.estimated,
  '46': QUALITY_CODES.nonExistent,
  Z04: QUALITY_CODES.nonExistent,
};

const NO_ITEMS: ParseItem[] = [];
export const MESSAGE_TYPES = ['UTILTS', 'MSCONS'];
/** Segments read and passed over: in the message header, and inside a time series. */
const HEADER_SEGMENTS = new Set(['BGM', 'DTM', 'MKS', 'NAD', 'RFF', 'CTA', 'COM', 'FTX', 'CUX', 'UNS']);
const IGNORED_IN_SERIES = new Set(['PIA', 'LIN', 'FTX', 'NAD', 'UNS']);
/** STS category 7: the reason for the transaction (Ediel STS+7++E88::260), not a quality. */
const TRANSACTION_REASON = '7';

/** DTM+354 durations: unit codes (MIN/HUR/DAY/MON/ANN and UN 2379 806/805/804/802/801) as minutes or a code. */
const DURATION_UNITS: Record<string, number | Resolution> = {
  MIN: 1,
  '806': 1,
  HUR: 60,
  '805': 60,
  DAY: 'P1D',
  '804': 'P1D',
  MON: 'P1M',
  '802': 'P1M',
  ANN: 'P1Y',
  '801': 'P1Y',
};
const BY_MINUTES: Record<number, Resolution> = { 5: 'PT5M', 15: 'PT15M', 60: 'PT1H', 1440: 'P1D' };

export function parseDuration(value: string, unit: string): Resolution | undefined {
  if (unit === '' && (RESOLUTIONS as readonly string[]).includes(value)) return value as Resolution;
  const per = DURATION_UNITS[unit.toUpperCase()];
  if (!/^\d{1,5}$/.test(value) || per === undefined) return undefined;
  const n = Number(value);
  if (typeof per === 'string') return n === 1 ? per : undefined;
  return BY_MINUTES[n * per];
}

export class UtiltsReader {
  private state: 'start' | 'interchange' | 'message' | 'done' | 'refused' = 'start';
  private interchangeRef = '';
  private messages = 0;
  private message = { ref: '', location: {} as SourceLocation, segments: 0, skip: false, offset: 0 };
  private series: SeriesDraft | undefined;
  /** The message header's period and resolution, for series that state none. */
  private defaults: SeriesDraft = { location: {}, observations: [] };
  private observation: ObservationDraft | undefined;
  private seriesCount = 0;
  /** The previous segment of the message was a CCI (or a CAV after one): a CAV may follow. */
  private afterCci = false;
  private last: Segment | undefined;
  private out: ParseItem[] = [];

  private problems = 0;

  private problem(location: SourceLocation, message: string): void {
    this.problems++;
    this.out.push({ kind: 'problem', problem: { location, message } });
  }

  feed(seg: Segment): ParseItem[] {
    if (this.state === 'refused') return NO_ITEMS;
    this.last = seg;
    const at = segmentLocation(seg);
    if (this.state === 'message') this.message.segments++;
    switch (seg.tag) {
      case 'UNB':
        if (this.state !== 'start') this.problem(at, 'A second UNB: one interchange per file');
        else {
          this.state = 'interchange';
          this.interchangeRef = component(seg, 4);
        }
        break;
      case 'UNH':
        this.openMessage(seg, at);
        break;
      case 'UNT':
        this.closeMessage(seg, at);
        break;
      case 'UNZ':
        this.closeInterchange(seg, at);
        break;
      default:
        if (this.state === 'start') {
          // Not EDIFACT as we know it: one problem says so, the rest of the file is not read.
          this.problem(at, `The file must start with UNB (or UNA), not ${seg.tag || 'an empty segment'}`);
          this.state = 'refused';
        } else if (this.state === 'done') {
          this.problem(at, `Segment ${seg.tag} follows UNZ`);
          this.state = 'refused';
        } else if (this.state === 'interchange')
          this.problem(at, `Segment ${seg.tag} is outside a message (UNH ... UNT)`);
        else if (!this.message.skip) this.messageSegment(seg, at);
    }
    return this.out.length > 0 ? this.out.splice(0) : NO_ITEMS;
  }

  end(): ParseItem[] {
    const at = this.last ? segmentLocation(this.last) : {};
    if (this.state === 'start') this.problem({}, 'The file holds no EDIFACT interchange (UNB)');
    if (this.state === 'message') {
      this.flushSeries();
      this.problem(at, `The file ends inside message ${this.message.ref} (no UNT)`);
    }
    if (this.state === 'message' || this.state === 'interchange') this.problem(at, 'The file ends without UNZ');
    if (this.state === 'done' && this.seriesCount === 0 && this.problems === 0)
      this.problem(at, 'The file holds no time series');
    return this.out.splice(0);
  }

  private openMessage(seg: Segment, at: SourceLocation): void {
    if (this.state === 'start') return this.problem(at, 'UNH before UNB');
    if (this.state === 'done') return this.problem(at, 'Segment UNH follows UNZ');
    if (this.state === 'message') {
      this.flushSeries();
      this.problem(at, `UNH before the UNT of message ${this.message.ref}`);
    }
    this.state = 'message';
    this.messages++;
    const type = component(seg, 1, 0);
    const skip = !MESSAGE_TYPES.includes(type);
    if (skip) this.problem(at, `Message type ${type || '(none)'} is not supported (${MESSAGE_TYPES.join(', ')})`);
    this.message = { ref: component(seg, 0), location: at, segments: 1, skip, offset: 0 };
    this.defaults = { location: at, observations: [] };
  }

  private closeMessage(seg: Segment, at: SourceLocation): void {
    if (this.state !== 'message') return this.problem(at, 'UNT without UNH');
    this.flushSeries();
    const count = component(seg, 0);
    if (!/^\d{1,10}$/.test(count) || Number(count) !== this.message.segments) {
      this.problem(
        at,
        `UNT counts ${count || 'no'} segments, but message ${this.message.ref} has ${this.message.segments}`,
      );
    }
    if (component(seg, 1) !== this.message.ref) {
      this.problem(at, `UNT names message ${component(seg, 1)}, but UNH opened ${this.message.ref}`);
    }
    this.state = 'interchange';
  }

  private closeInterchange(seg: Segment, at: SourceLocation): void {
    if (this.state === 'message') {
      this.flushSeries();
      this.problem(at, `UNZ before the UNT of message ${this.message.ref}`);
    }
    if (this.state === 'start') return this.problem(at, 'UNZ without UNB');
    if (this.state === 'done') return this.problem(at, 'A second UNZ');
    if (!/^\d{1,10}$/.test(component(seg, 0)) || Number(component(seg, 0)) !== this.messages) {
      this.problem(at, `UNZ counts ${component(seg, 0) || 'no'} messages, but the interchange has ${this.messages}`);
    }
    if (component(seg, 1) !== this.interchangeRef) {
      this.problem(at, `UNZ names interchange ${component(seg, 1)}, but UNB opened ${this.interchangeRef}`);
    }
    this.state = 'done';
  }

  private messageSegment(seg: Segment, at: SourceLocation): void {
    const afterCci = this.afterCci;
    this.afterCci = seg.tag === 'CCI' || (seg.tag === 'CAV' && afterCci);
    if (seg.tag === 'IDE') {
      this.flushSeries();
      this.series = { location: at, seriesId: component(seg, 1), observations: [] };
      if (component(seg, 0) !== '24') this.problem(at, `IDE qualifier ${component(seg, 0)} is not supported (24)`);
      return;
    }
    if (seg.tag === 'LOC' && component(seg, 0) === '172') {
      // MSCONS names the metering point without an IDE: a second LOC+172 starts the next series.
      if (!this.series || this.series.meteringPoint !== undefined) {
        this.flushSeries();
        this.series = { location: at, observations: [] };
      }
      this.series.meteringPoint = component(seg, 1).trim();
      this.series.meteringPointLocation = at;
      if (!this.series.meteringPoint) this.problem(at, 'LOC+172 names no metering point');
      return;
    }
    if (seg.tag === 'LOC' && this.series) return this.gridArea(this.series, seg, at);
    if (!this.series) {
      if (seg.tag === 'DTM') this.headerDate(seg, at);
      else if (!HEADER_SEGMENTS.has(seg.tag))
        this.problem(at, `Segment ${seg.tag} is not supported in the message header`);
      return;
    }
    this.seriesSegment(this.series, seg, at, afterCci);
  }

  /** LOC+239: the grid area of the series (Nordic Ediel writes it beside LOC+172, before or after it). */
  private gridArea(series: SeriesDraft, seg: Segment, at: SourceLocation): void {
    const qualifier = component(seg, 0);
    if (qualifier !== '239')
      return this.problem(at, `LOC qualifier ${qualifier || '(none)'} is not supported (172, 239)`);
    // MSCONS names each metering point without an IDE: a grid area after the observations starts the next.
    if (series.seriesId === undefined && (series.observations.length > 0 || this.observation)) {
      this.flushSeries();
      this.series = { location: at, observations: [] };
      return this.gridArea(this.series, seg, at);
    }
    if (series.gridArea !== undefined) return this.problem(at, 'The time series names a second grid area (LOC+239)');
    series.gridArea = component(seg, 1).trim();
    if (!series.gridArea) this.problem(at, 'LOC+239 names no grid area');
  }

  /**
   * DTM in the message header: 137 the document date; 735 the UTC offset; a period (324, 163/164)
   * or resolution (354) there holds for every series that states none (MSCONS writes them so).
   */
  private headerDate(seg: Segment, at: SourceLocation): void {
    const [qualifier = '', value = '', format = ''] = seg.elements[0] ?? [];
    if (['324', '163', '164', '354', '735'].includes(qualifier)) this.seriesDate(this.defaults, seg, at);
    else if (qualifier === '137' && !parseEdiDate(value, format, this.message.offset)) {
      this.problem(at, `Date ${value} (format ${format || 'none'}) is invalid`);
    }
  }

  private seriesSegment(series: SeriesDraft, seg: Segment, at: SourceLocation, afterCci: boolean): void {
    switch (seg.tag) {
      case 'DTM':
        return this.observation || this.isObservationDate(seg)
          ? this.observationDate(seg, at)
          : this.seriesDate(series, seg, at);
      case 'MEA':
        if (component(seg, 0) !== 'AAZ')
          return this.problem(at, `MEA qualifier ${component(seg, 0)} is not supported (AAZ)`);
        series.unit = component(seg, 2, 0) || component(seg, 1, 0);
        if (!series.unit) this.problem(at, 'MEA+AAZ names no unit');
        return;
      case 'SEQ': {
        this.flushObservation();
        const text = component(seg, seg.elements.length - 1);
        const position = Number(text);
        this.observation = { location: at };
        if (!/^\d{1,9}$/.test(text) || position < 1) this.problem(at, `Sequence number ${text || '(none)'} is invalid`);
        else Object.assign(this.observation, { position, positionLocation: at });
        return;
      }
      case 'RFF':
        return this.reference(seg);
      case 'CCI':
        // Characteristics (CCI+++E12::260 with CAV+E17::260, a reading's CCI+++E22 with CAV+E27):
        // checked for their form, not stored.
        if (!seg.elements.some((e) => e.some((c) => c.trim() !== ''))) this.problem(at, 'CCI names no characteristic');
        return;
      case 'CAV':
        if (!afterCci) this.problem(at, 'CAV without a CCI before it');
        else if (!component(seg, 0).trim()) this.problem(at, 'CAV names no value');
        return;
      case 'QTY':
        return this.quantity(seg, at);
      case 'STS':
        return this.status(seg, at);
      default:
        if (!IGNORED_IN_SERIES.has(seg.tag))
          this.problem(at, `Segment ${seg.tag || '(empty)'} is not supported in a time series`);
    }
  }

  private isObservationDate(seg: Segment): boolean {
    return this.series !== undefined && this.series.observations.length > 0 && component(seg, 0) !== '735';
  }

  private seriesDate(series: SeriesDraft, seg: Segment, at: SourceLocation): void {
    const [qualifier = '', value = '', format = ''] = seg.elements[0] ?? [];
    const offset = this.message.offset;
    if (qualifier === '324' || qualifier === '163' || qualifier === '164') {
      const period = (series.period ??= { location: at });
      if (qualifier === '324') {
        const range = parseEdiRange(value, format, offset);
        period.location = at;
        if (!range) {
          period.invalid = true;
          return this.problem(at, `Period ${value} (format ${format || 'none'}) is invalid`);
        }
        [period.start, period.end] = range;
        return;
      }
      const date = parseEdiDate(value, format, offset);
      if (!date) {
        period.invalid = true;
        return this.problem(at, `Date ${value} (format ${format || 'none'}) is invalid`);
      }
      if (qualifier === '163') period.start = date;
      else period.end = date;
    } else if (qualifier === '354') {
      const resolution = parseDuration(value, format);
      if (!resolution)
        return this.problem(at, `Resolution ${value}:${format} is not supported (5, 15 or 60 MIN, 1 DAY, 1 MON)`);
      series.resolution = resolution;
    } else if (qualifier === '735') {
      const offsetValue = parseOffset(value);
      if (offsetValue === undefined) return this.problem(at, `UTC offset ${value} is invalid`);
      this.message.offset = offsetValue;
    } else if (qualifier === '597') {
      // Nordic Ediel: the series' registration time, checked, not stored.
      if (!parseEdiDate(value, format, offset))
        this.problem(at, `Date ${value} (format ${format || 'none'}) is invalid`);
    } else if (qualifier !== '137') {
      this.problem(at, `DTM qualifier ${qualifier || '(none)'} is not supported in a time series`);
    }
  }

  private observationDate(seg: Segment, at: SourceLocation): void {
    const [qualifier = '', value = '', format = ''] = seg.elements[0] ?? [];
    const obs = (this.observation ??= { location: at });
    const offset = this.message.offset;
    if (qualifier === '324') {
      const range = parseEdiRange(value, format, offset);
      if (!range) return this.brokenObservation(obs, at, `Period ${value} (format ${format || 'none'}) is invalid`);
      [obs.start, obs.end] = range;
      return;
    }
    if (!['163', '164', '7', '9', '597'].includes(qualifier)) {
      return this.brokenObservation(
        obs,
        at,
        `DTM qualifier ${qualifier || '(none)'} is not supported for an observation`,
      );
    }
    const date = parseEdiDate(value, format, offset);
    if (!date) return this.brokenObservation(obs, at, `Date ${value} (format ${format || 'none'}) is invalid`);
    if (qualifier === '163') obs.start = date;
    else if (qualifier === '164') obs.end = date;
    else obs.at = date;
  }

  private brokenObservation(obs: ObservationDraft, at: SourceLocation, message: string): void {
    obs.broken = true;
    this.problem(at, message);
  }

  private quantity(seg: Segment, at: SourceLocation): void {
    const [qualifier = '', value = '', unit = ''] = seg.elements[0] ?? [];
    if (this.observation?.qtyLocation) this.flushObservation();
    const obs = (this.observation ??= { location: at });
    obs.qtyLocation = at;
    if (qualifier !== READING_QUALIFIER && QUANTITY_QUALIFIERS[qualifier] === undefined) {
      obs.broken = true;
      return this.problem(at, `QTY qualifier ${qualifier || '(none)'} is not supported (136, 31, 220)`);
    }
    obs.qualifier = qualifier;
    obs.valueText = value;
    if (unit) obs.unit = unit;
  }

  /** RFF inside an observation: RFF+AES names a reading's register, RFF+MG its meter; others pass. */
  private reference(seg: Segment): void {
    if (!this.observation) return;
    const [qualifier = '', value = ''] = seg.elements[0] ?? [];
    if (qualifier === 'AES' && value.trim()) this.observation.register = value.trim();
    if (qualifier === 'MG' && value.trim()) this.observation.meter = value.trim();
  }

  private status(seg: Segment, at: SourceLocation): void {
    if (!this.observation && this.series && component(seg, 0) === TRANSACTION_REASON) {
      // The series' own status before its observations: the reason for the transaction.
      if (this.series.reason !== undefined)
        return this.problem(at, 'The time series gives a second transaction reason (STS+7)');
      this.series.reason = component(seg, 2) || component(seg, 1);
      if (!this.series.reason) this.problem(at, 'STS+7 names no transaction reason');
      return;
    }
    if (!this.observation) return this.problem(at, 'STS before any observation (SEQ or QTY)');
    const codes = [component(seg, 2), component(seg, 1), component(seg, 0)].filter((c) => c !== '');
    const code = codes.find((c) => STATUS_QUALITY[c] !== undefined);
    if (code === undefined) return this.problem(at, `Status ${codes.join(' ') || '(none)'} is not a supported quality`);
    this.observation.quality = STATUS_QUALITY[code];
  }

  private flushObservation(): void {
    if (this.observation && this.series) this.series.observations.push(this.observation);
    this.observation = undefined;
  }

  private flushSeries(): void {
    this.flushObservation();
    const draft = this.series;
    this.series = undefined;
    if (!draft) return;
    draft.period ??= this.defaults.period;
    draft.resolution ??= this.defaults.resolution;
    const { series, problems } = buildSeries(draft);
    for (const p of problems) this.problem(p.location, p.message);
    for (const s of series) this.out.push({ kind: 'series', series: s });
    if (series.length > 0) this.seriesCount++;
  }
}
