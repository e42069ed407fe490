import { Readable } from 'node:stream';
import { buildCpid, uicCheckDigit, type QualityCode, type TractionSystemCode } from '@railwatt/contracts';
import type { CebdRecord } from '../timeseries/format.js';
import { CEBD_NAMESPACE } from './cebd-format.js';
import { seededRandom } from '../timeseries/seeded-random.js';

/**
 * Deterministic CEBD files (docs/formats/cebd.md) for tests, demo data and benchmarks. Everything
 * comes from a seeded PRNG, so a seed gives the same bytes every time, and every point draws from
 * its own stream (seed and position), so a point's records do not depend on the others. The XML is
 * produced as a generator of strings a few hundred records long: a file of millions of records is
 * never held in memory.
 */

export interface LatLon {
  lat: number;
  lon: number;
}

export interface CebdPointSpec {
  cpid: string;
  /** The line the unit runs along, back and forth (at least one point). */
  route: LatLon[];
  /** Start of the first 5-minute period (UTC instant on a 5-minute boundary). */
  start: string;
  /** Number of 5-minute periods, one record each. */
  periods: number;
  /** Default '02' (15 kV 16.7 Hz, as in Norway and Sweden). */
  tractionSystem?: TractionSystemCode;
}

export interface CebdGenerateOptions {
  points: CebdPointSpec[];
  seed: number;
  /** The data collecting service named in the root (default 'DCS-DEMO'). */
  sender?: string;
  /** The file's creation instant (default: the end of the latest period). */
  created?: string;
  /** Records per yielded string (default 500). */
  recordsPerChunk?: number;
  /**
   * 'ReadingBlock' writes each point's records as cumulative register readings instead (one base
   * reading at `start`, then one per period): parsed back, they give the same values, each period's
   * quality being the lower of its two readings'.
   */
  blockType?: 'CEBDBlock' | 'ReadingBlock';
}

const PERIOD_MS = 5 * 60_000;

export { seededRandom };

/** Mixes a seed and a point's position into the seed of that point's own stream. */
const pointSeed = (seed: number, index: number): number =>
  (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;

const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/** The instant as the format writes it: YYYY-MM-DDThh:mm:ssZ. */
export const utcInstant = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** Distance in km between two points (equirectangular: good enough over a few km). */
function distanceKm(a: LatLon, b: LatLon): number {
  const x = ((b.lon - a.lon) * Math.PI * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180)) / 180;
  const y = ((b.lat - a.lat) * Math.PI) / 180;
  return Math.sqrt(x * x + y * y) * 6371;
}

/**
 * The records of one point: the unit alternates between standing still (zero energy, position
 * kept) and running along its route (consumption from its speed and load, some regeneration,
 * more of it when braking into the next stop), turning round at the route's ends. Reactive energy
 * is a share of the active. About 1 % of the records are uncertain (61) and 0.5 % estimated (56).
 */
export function* generatePointRecords(point: CebdPointSpec, seed: number): Generator<CebdRecord> {
  const random = seededRandom(seed);
  const route = point.route.length > 0 ? point.route : [{ lat: 0, lon: 0 }];
  const legs = route.slice(1).map((p, i) => distanceKm(route[i]!, p));
  const startMs = Date.parse(point.start);
  const tractionSystem = point.tractionSystem ?? '02';
  let leg = 0;
  let along = 0;
  let forward = true;
  let standing = Math.floor(random() * 12);
  let running = 0;
  for (let i = 0; i < point.periods; i++) {
    let activeConsumed = 0;
    let activeRegenerated = 0;
    if (standing > 0) {
      standing -= 1;
      if (standing === 0) running = 4 + Math.floor(random() * 30);
    } else {
      if (running === 0) running = 4 + Math.floor(random() * 30);
      running -= 1;
      // 60 to 160 km/h for five minutes.
      let km = ((60 + random() * 100) * 5) / 60;
      const powerMw = 0.8 + random() * 3.5;
      activeConsumed = (powerMw * 1000 * 5) / 60;
      activeRegenerated = random() < 0.3 ? random() * activeConsumed * 0.4 : 0;
      if (running === 0) {
        // Braking into a stop: little traction, much regeneration.
        activeRegenerated = 40 + random() * 120;
        activeConsumed *= 0.3;
        standing = 1 + Math.floor(random() * 24);
      }
      while (km > 0 && legs.length > 0) {
        const legIndex = forward ? leg : legs.length - 1 - leg;
        const left = legs[legIndex]! - along;
        if (km < left) {
          along += km;
          km = 0;
        } else {
          km -= left;
          along = 0;
          leg += 1;
          if (leg >= legs.length) {
            leg = 0;
            forward = !forward;
          }
        }
      }
    }
    const legIndex = forward ? leg : legs.length - 1 - leg;
    const from = legs.length > 0 ? route[forward ? legIndex : legIndex + 1]! : route[0]!;
    const to = legs.length > 0 ? route[forward ? legIndex + 1 : legIndex]! : route[0]!;
    const share = legs.length > 0 && legs[legIndex]! > 0 ? along / legs[legIndex]! : 0;
    const draw = random();
    const quality: QualityCode = draw < 0.01 ? 61 : draw < 0.015 ? 56 : 127;
    yield {
      periodEnd: utcInstant(startMs + (i + 1) * PERIOD_MS),
      activeConsumed: round(activeConsumed, 3),
      activeRegenerated: round(activeRegenerated, 3),
      reactiveConsumed: round(activeConsumed * (0.05 + random() * 0.2), 3),
      reactiveRegenerated: round(activeRegenerated * random() * 0.1, 3),
      lat: round(from.lat + (to.lat - from.lat) * share, 5),
      lon: round(from.lon + (to.lon - from.lon) * share, 5),
      tractionSystem,
      quality,
    };
  }
}

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** One Record element as the generator writes it (attributes in the documented order). */
export function recordElement(r: CebdRecord): string {
  const position = r.lat === null || r.lon === null ? '' : ` lat="${r.lat}" lon="${r.lon}"`;
  return (
    `<Record periodEnd="${r.periodEnd}" activeConsumed="${r.activeConsumed}" activeRegenerated="${r.activeRegenerated}"` +
    ` reactiveConsumed="${r.reactiveConsumed}" reactiveRegenerated="${r.reactiveRegenerated}"${position}` +
    ` tractionSystem="${r.tractionSystem}" quality="${r.quality}"/>`
  );
}

/** Each point's records, in file order, drawn from the same streams as cebdXml. */
export function* generatedBlocks(
  options: CebdGenerateOptions,
): Generator<{ cpid: string; records: Generator<CebdRecord> }> {
  for (const [index, point] of options.points.entries()) {
    yield { cpid: point.cpid, records: generatePointRecords(point, pointSeed(options.seed, index)) };
  }
}

/** A Reading element: the registers given in thousandths (integers, so sums never drift). */
function readingElement(time: string, milli: number[], r: CebdRecord | null): string {
  const [ac, ar, rc, rr] = milli.map((m) => m / 1000);
  const position = r && r.lat !== null && r.lon !== null ? ` lat="${r.lat}" lon="${r.lon}"` : '';
  return (
    `<Reading time="${time}" activeConsumed="${ac}" activeRegenerated="${ar}" reactiveConsumed="${rc}"` +
    ` reactiveRegenerated="${rr}"${position} tractionSystem="${r?.tractionSystem ?? '00'}" quality="${r?.quality ?? 127}"/>`
  );
}

/** One point's block as strings of `perChunk` elements. */
function* blockXml(
  type: 'CEBDBlock' | 'ReadingBlock',
  cpid: string,
  start: string,
  records: Iterable<CebdRecord>,
  perChunk: number,
  seed: number,
): Generator<string> {
  let text = `  <${type} cpid="${escapeAttribute(cpid)}">\n`;
  let registers: number[] | null = null;
  if (type === 'ReadingBlock') {
    // Meters that have run for a while: registers start between 100,000 and 1,100,000 kWh.
    const random = seededRandom(seed ^ 0x5bd1e995);
    registers = [0, 0, 0, 0].map(() => Math.round((100_000 + random() * 1_000_000) * 1000));
    text += `    ${readingElement(utcInstant(Date.parse(start)), registers, null)}\n`;
  }
  let count = 0;
  for (const record of records) {
    if (registers) {
      const values = [
        record.activeConsumed,
        record.activeRegenerated,
        record.reactiveConsumed,
        record.reactiveRegenerated,
      ];
      registers = registers.map((m, i) => m + Math.round(values[i]! * 1000));
      text += `    ${readingElement(record.periodEnd, registers, record)}\n`;
    } else text += `    ${recordElement(record)}\n`;
    if (++count === perChunk) {
      yield text;
      text = '';
      count = 0;
    }
  }
  yield `${text}  </${type}>\n`;
}

/** The file as strings of `recordsPerChunk` records: one block per point. */
export function* cebdXml(options: CebdGenerateOptions): Generator<string> {
  const perChunk = options.recordsPerChunk ?? 500;
  const lastEnd = Math.max(0, ...options.points.map((p) => Date.parse(p.start) + p.periods * PERIOD_MS));
  const created = options.created ?? utcInstant(lastEnd);
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<CEBDFile xmlns="${CEBD_NAMESPACE}" version="1" sender="${escapeAttribute(options.sender ?? 'DCS-DEMO')}" created="${created}">\n`;
  for (const [index, block] of [...generatedBlocks(options)].entries()) {
    const point = options.points[index]!;
    const seed = pointSeed(options.seed, index);
    yield* blockXml(options.blockType ?? 'CEBDBlock', block.cpid, point.start, block.records, perChunk, seed);
  }
  yield '</CEBDFile>\n';
}

/** The file as a byte stream (UTF-8), e.g. to pipe into a file or an upload. */
export const cebdXmlStream = (options: CebdGenerateOptions): Readable =>
  Readable.from(
    (function* () {
      for (const text of cebdXml(options)) yield Buffer.from(text, 'utf8');
    })(),
  );

/** A valid CPID for the n-th demo unit: NO_NSB_<EVN with its check digit>_EMS1. */
export function demoCpid(n: number): string {
  const eleven = `9176${String(7_000_000 + (n % 3_000_000)).padStart(7, '0')}`;
  return buildCpid({
    nvr: 'NO',
    vkm: 'NSB',
    evn: `${eleven}${uicCheckDigit(eleven)}`,
    emsId: `EMS${1 + Math.floor(n / 3_000_000)}`,
  });
}

/** Oslo S - Lillestrøm - Gardermoen: the demo route. */
export const DEMO_ROUTE: LatLon[] = [
  { lat: 59.91093, lon: 10.75228 },
  { lat: 59.95582, lon: 11.04916 },
  { lat: 60.19361, lon: 11.09769 },
];

/** Generation options for `count` points of one day (288 periods) each, from 2026-10-01. */
export function dayFileOptions(count: number, seed = 1, periods = 288): CebdGenerateOptions {
  return {
    seed,
    points: Array.from({ length: count }, (_, n) => ({
      cpid: demoCpid(n),
      route: DEMO_ROUTE,
      start: '2026-10-01T00:00:00Z',
      periods,
    })),
  };
}

/** A small file of `records` records (blocks of at most one day per point) as bytes, for tests. */
export function cebdFileForRecords(records: number, seed = 1): Buffer {
  const points = Math.max(1, Math.ceil(records / 288));
  const options = dayFileOptions(points, seed);
  options.points.forEach((p, i) => (p.periods = Math.min(288, records - i * 288)));
  return Buffer.from([...cebdXml(options)].join(''), 'utf8');
}
