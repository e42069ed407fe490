import {
  COUNTRY_AREAS,
  COUNTRY_CURRENCIES,
  dayStartInZone,
  uicCheckDigit,
  type CountryAreaName,
  type QualityCode,
  type TractionSystemCode,
} from '@railwatt/contracts';
import { recordElement, seededRandom } from '../formats/cebd/generate.js';
import { CEBD_NAMESPACE } from '../formats/cebd/cebd-format.js';
import { generateNordpoolCsv } from '../formats/nordpool/nordpool-generate.js';
import type { CebdRecord, FormatName } from '../formats/timeseries/format.js';
import { trainRunsXml, type TrainRunEntry } from '../formats/trainrun/trainrun-generator.js';
import { writeUtilts } from '../formats/utilts/utilts-writer.js';
import { locatePoint, toPolygons, type Point } from '../modules/domain/geometry.js';
import { buildCountry, SEED_COUNTRIES } from './fleet.js';
import { buildInfrastructure, seedGeography, TRACTION_SYSTEMS } from './infrastructure.js';
import { RAILWAY_PLACES } from './railway-places.js';

/**
 * The time-series demo (issue 8 item 9): the files real senders would send for one country and one
 * month, made deterministically (a seeded PRNG, no clock). A few traction units of the demo fleet
 * shuttle along the country's real main lines (seed/railway-places.ts); each day gives
 *
 * - a train-run file (the infrastructure manager's compilation of the railway undertakings' runs):
 *   the unit plus, for a locomotive, hauled wagons with gross weights; gross tonne-km = weight x km;
 * - a CEBD file (the data collecting service) for every consumption point of those units that follows
 *   the same runs: traction energy, regeneration when braking and positions along the line from
 *   departure to arrival, a little hotel load while the unit waits between runs, nothing at night;
 *
 * and the month gives a Nordpool price file for the country's price areas, a UTILTS file of hourly
 * supply per supply metering point (the CEBD energy placed in each grid area by its position, plus 3-6 %
 * losses, shared between the grid area's metering points), and one UTILTS file for a metering point
 * that is not in the master data yet, which the intake refuses (the "fix the master data, re-import"
 * journey). seed/timeseries.ts imports them; a benchmark can ask for many more units.
 */

/** The demo month: fixed (not "last month"), so the data and the tests never depend on the clock. */
export const DEMO_MONTH = '2026-10';
/** The countries the seeder fills: a 16.7 Hz country with five price areas and a DC one with one. */
export const DEMO_TIMESERIES_COUNTRIES: readonly CountryAreaName[] = ['norway', 'belgium'];
/**
 * Units per country the seeder runs: a month of them costs about 3.8 s of CPU per unit for both
 * countries on PGlite (mostly storing 4 CEBD series and the positions), so six keep a first start's
 * seeding near 23 s. A benchmark asks for more.
 */
export const DEMO_UNITS = 6;
/** Who sends what: the data-log user of each kind of file. */
export const DEMO_SENDERS = {
  cebd: 'dcs-demo',
  trainrun: 'ru-demo',
  nordpool: 'nordpool-demo',
  utilts: 'supply-demo',
} as const satisfies Partial<Record<FormatName, string>>;

export interface DemoIntakeOptions {
  country: CountryAreaName;
  /** YYYY-MM; default DEMO_MONTH. */
  month?: string;
  /** Traction units that run (default DEMO_UNITS), the first active ones of the country's demo fleet. */
  units?: number;
  /** The fleet size they are taken from (default 40, what seed/fleet.ts seeds; a bench seeds more). */
  fleetSize?: number;
  /** Only the first n days of the month (default: all). */
  days?: number;
  seed?: number;
}

export interface DemoIntakeFile {
  format: Extract<FormatName, 'cebd' | 'trainrun' | 'nordpool' | 'utilts'>;
  fileName: string;
  username: string;
  contentType: string;
  bytes: Buffer;
  /** Set on the file the demo means to be refused: why. */
  refusedBecause?: string;
}

export interface DemoUnit {
  evn: string;
  emu: boolean;
  /** Tonnes, empty. */
  weight: number;
  cpids: string[];
  railwayUndertaking: string;
  line: { from: string; to: string; km: number };
}

export interface DemoRun extends TrainRunEntry {
  unit: number;
  km: number;
}

const PERIOD_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;
const EXCHANGE_RATES: Partial<Record<string, number>> = { NOK: 11.72, SEK: 11.18, DKK: 7.46, CHF: 0.94 };

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar days of a month (YYYY-MM-DD). */
export function monthDays(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${pad(i + 1)}`);
}

const nextMonthDay = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`;
};

/** A valid 12-digit EVN for the n-th hauled freight wagon (31: a wagon in international traffic). */
function wagonEvn(uic: string, n: number): string {
  const eleven = `31${uic}${String(4_000_000 + (n % 1_000_000)).padStart(7, '0')}`;
  return `${eleven}${uicCheckDigit(eleven)}`;
}

/** The running units of a country: active traction units of the demo fleet with their consumption points. */
export function demoUnits(country: CountryAreaName, units = DEMO_UNITS, fleetSize = 40): DemoUnit[] {
  const seed = SEED_COUNTRIES.find((c) => c.kind === country)!;
  const fleet = buildCountry(seed, Math.max(fleetSize, units));
  const cpidsOf = new Map<string, string[]>();
  for (const s of fleet.segments) {
    if (s.type !== 'consumptionpoint' || !s.active) continue;
    const evn = String(s.attributes.evn);
    cpidsOf.set(evn, [...(cpidsOf.get(evn) ?? []), String(s.attributes.cpid)]);
  }
  const lines = RAILWAY_PLACES[country].lines;
  const chosen: DemoUnit[] = [];
  const seen = new Set<string>();
  for (const s of fleet.segments) {
    if (chosen.length >= units) break;
    const evn = String(s.attributes.evn);
    if (s.type !== 'tractionunit' || !s.active || seen.has(evn) || !cpidsOf.has(evn)) continue;
    seen.add(evn);
    const i = chosen.length;
    const line = lines[i % lines.length]!;
    chosen.push({
      evn,
      emu: evn.startsWith('94'),
      weight: (evn.startsWith('94') ? 180 : 84) + (Number(evn.slice(8, 11)) % 7) * 4,
      cpids: [...new Set(cpidsOf.get(evn))].sort(),
      railwayUndertaking: seed.rus[i % seed.rus.length]!.orgId,
      line: { from: line.from, to: line.to, km: line.km },
    });
  }
  return chosen;
}

/**
 * The runs of one day: every unit shuttles along its line from where the day before left it, from
 * about 05:00 local time; departures and arrivals fall on 5-minute boundaries (like the CEBD periods);
 * no run arrives later than 30 minutes before the day ends. `at` (the station each unit stands at)
 * is carried from day to day.
 */
export function demoDayRuns(
  country: CountryAreaName,
  units: readonly DemoUnit[],
  day: string,
  at: string[],
  random: () => number,
): DemoRun[] {
  const timeZone = COUNTRY_AREAS[country];
  const uic = SEED_COUNTRIES.find((c) => c.kind === country)!.uic;
  const dayStart = Date.parse(dayStartInZone(day, timeZone));
  const dayEnd = Date.parse(dayStartInZone(nextDayOf(day), timeZone));
  const runs: DemoRun[] = [];
  units.forEach((unit, u) => {
    const speed = unit.emu ? 100 : 75;
    const minutes = Math.max(10, Math.ceil(((unit.line.km / speed) * 60) / 5) * 5);
    let departure = dayStart + (5 * 60 + ((u * 25) % 120)) * 60_000;
    for (let k = 0; departure + minutes * 60_000 <= dayEnd - 30 * 60_000; k++) {
      const from = at[u] ?? unit.line.from;
      const to = from === unit.line.to ? unit.line.from : unit.line.to;
      const arrival = departure + minutes * 60_000;
      const vehicles = [
        { evn: unit.evn, grossWeightTonnes: unit.weight + (unit.emu ? 15 + Math.round(random() * 25) : 0) },
      ];
      if (!unit.emu) {
        const wagons = 8 + Math.floor(random() * 10);
        for (let w = 0; w < wagons; w++)
          vehicles.push({ evn: wagonEvn(uic, u * 40 + w), grossWeightTonnes: 25 + Math.round(random() * 65) });
      }
      const weight = vehicles.reduce((sum, v) => sum + v.grossWeightTonnes, 0);
      runs.push({
        action: 'input',
        trainNumber: String(10_000 + u * 40 + k),
        operatingDay: day,
        railwayUndertaking: unit.railwayUndertaking,
        trafficCategory: unit.emu ? 'Passenger, regional' : 'Freight, intermodal',
        trainProfile: unit.emu ? 'Regional passenger' : 'Intermodal freight',
        route: [from, to],
        departure: new Date(departure).toISOString(),
        arrival: new Date(arrival).toISOString(),
        composition: vehicles.map((v, p) => ({ ...v, position: p + 1 })),
        grossTonneKm: Math.round(weight * unit.line.km * 10) / 10,
        unit: u,
        km: unit.line.km,
      });
      at[u] = to;
      // Turn round: 20-60 minutes for a multiple unit, 1-3 hours for a freight locomotive.
      const turn = unit.emu ? 20 + random() * 40 : 60 + random() * 120;
      departure = arrival + Math.ceil(turn / 5) * 5 * 60_000;
    }
  });
  return runs;
}

function nextDayOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Which grid area a position lies in (the first that holds it, else the one with the nearest vertex). */
function gridLocator(country: CountryAreaName) {
  const infrastructure = buildInfrastructure(country);
  const grids = infrastructure.segments
    .filter((s) => s.type === 'gridarea')
    .map((s) => ({
      uuid: s.entityUuid,
      polygons: toPolygons(s.attributes.geometry as Parameters<typeof toPolygons>[0]),
    }));
  const meteringPoints = infrastructure.segments
    .filter((s) => s.type === 'supplymeteringpoint')
    .map((s) => ({ name: s.name, grid: String(s.attributes.gridAreaRef) }));
  const cache = new Map<string, string>();
  const locate = (lat: number, lon: number): string => {
    const key = `${lat.toFixed(2)},${lon.toFixed(2)}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      const p: Point = [lon, lat];
      hit =
        grids.find((g) => g.polygons.some((poly) => locatePoint(p, poly) !== 'outside'))?.uuid ??
        [...grids].sort((a, b) => nearest(a.polygons, p) - nearest(b.polygons, p))[0]!.uuid;
      cache.set(key, hit);
    }
    return hit;
  };
  const priceAreas = [
    ...new Set(infrastructure.segments.filter((s) => s.type === 'pricearea').map((s) => s.name)),
  ].sort();
  return { locate, meteringPoints, priceAreas };
}

const nearest = (polygons: ReturnType<typeof toPolygons>, [x, y]: Point): number =>
  Math.min(...polygons.flatMap((poly) => poly[0]!.map(([px, py]) => (px - x) ** 2 + (py - y) ** 2)));

/**
 * The records of one consumption point for one day. The traction EMS (EMS1) meters the run's energy:
 * consumption factor x gross tonne-km spread over its periods (more when starting, regeneration when
 * braking into the destination), a little hotel load between runs of the day, nothing at night; an
 * auxiliary EMS (EMS2) meters a steady auxiliary load while the unit is in service.
 */
function* dayRecords(
  runs: readonly DemoRun[],
  station: (name: string) => { lat: number; lon: number },
  startAt: string,
  dayStart: number,
  dayEnd: number,
  auxiliary: boolean,
  tractionSystem: TractionSystemCode,
  random: () => number,
): Generator<CebdRecord> {
  const firstDeparture = runs[0] ? Date.parse(runs[0].departure!) : Infinity;
  const lastArrival = runs.length ? Date.parse(runs[runs.length - 1]!.arrival!) : -Infinity;
  let r = 0;
  let at = station(startAt);
  for (let start = dayStart; start < dayEnd; start += PERIOD_MS) {
    const end = start + PERIOD_MS;
    while (r < runs.length && Date.parse(runs[r]!.arrival!) <= start) {
      at = station(runs[r]!.route[1]!);
      r += 1;
    }
    const run = runs[r];
    const inService = start >= firstDeparture - 30 * 60_000 && end <= lastArrival + 30 * 60_000;
    let consumed = 0;
    let regenerated = 0;
    let lat = at.lat;
    let lon = at.lon;
    if (run && Date.parse(run.departure!) <= start) {
      const dep = Date.parse(run.departure!);
      const arr = Date.parse(run.arrival!);
      const periods = (arr - dep) / PERIOD_MS;
      const index = (start - dep) / PERIOD_MS;
      const from = station(run.route[0]!);
      const to = station(run.route[1]!);
      const share = (end - dep) / (arr - dep);
      lat = from.lat + (to.lat - from.lat) * share;
      lon = from.lon + (to.lon - from.lon) * share;
      if (auxiliary) consumed = 4 + random() * 3;
      else {
        const factor = run.trafficCategory?.startsWith('Passenger') ? 0.04 : 0.018;
        const base = (factor * run.grossTonneKm!) / periods;
        const shape = index === 0 ? 1.5 : index === periods - 1 ? 0.3 : 0.85 + random() * 0.3;
        consumed = base * shape;
        regenerated =
          index === periods - 1 ? base * (0.5 + random() * 0.3) : random() < 0.25 ? consumed * random() * 0.2 : 0;
      }
    } else if (inService) consumed = auxiliary ? 3 + random() * 2 : 1 + random() * 2;
    const draw = random();
    const quality: QualityCode = draw < 0.005 ? 61 : 127;
    yield {
      periodEnd: `${new Date(end).toISOString().slice(0, 19)}Z`,
      activeConsumed: round3(consumed),
      activeRegenerated: round3(regenerated),
      reactiveConsumed: round3(consumed * (0.1 + random() * 0.15)),
      reactiveRegenerated: round3(regenerated * random() * 0.1),
      lat: Math.round(lat * 1e5) / 1e5,
      lon: Math.round(lon * 1e5) / 1e5,
      tractionSystem,
      quality,
    };
  }
}

/**
 * A new substation the grid operator meters before the infrastructure manager has registered it:
 * the third of the first price area (each has two). Registering it makes the refused file importable.
 */
export function demoUnknownMeteringPoint(country: CountryAreaName): string {
  const areas = seedGeography()[country].priceAreas;
  const [first] = areas.map((p) => p.name).sort();
  return `SMP-${first}-3`;
}

/** The name of the file the demo means to be refused; it comes last, so the seeder knows a country is done. */
export const demoRefusedFileName = (country: CountryAreaName, month = DEMO_MONTH): string =>
  `UTILTS_${demoUnknownMeteringPoint(country)}_${month.replace('-', '')}.edi`;

/**
 * The demo's files for one country and month, in the order they would arrive: per day the train
 * runs and the CEBD, then the month's prices and supply, then the file meant to be refused. A
 * generator: a benchmark with thousands of units holds one day's file at a time (plus the supply sums).
 */
export function* demoIntakeFiles(options: DemoIntakeOptions): Generator<DemoIntakeFile> {
  const { country } = options;
  const month = options.month ?? DEMO_MONTH;
  const timeZone = COUNTRY_AREAS[country];
  const seedCountry = SEED_COUNTRIES.find((c) => c.kind === country)!;
  const places = RAILWAY_PLACES[country].stations;
  const station = (name: string) => {
    const [lat, lon] = places[name]!;
    return { lat, lon };
  };
  const random = seededRandom(options.seed ?? 2026);
  const units = demoUnits(country, options.units ?? DEMO_UNITS, options.fleetSize ?? 40);
  const days = monthDays(month).slice(0, options.days);
  const tractionSystem = TRACTION_SYSTEMS[country][0]!;
  const grids = gridLocator(country);
  const monthStart = Date.parse(dayStartInZone(days[0]!, timeZone));
  const monthEnd = Date.parse(
    dayStartInZone(options.days ? nextDayOf(days[days.length - 1]!) : nextMonthDay(month), timeZone),
  );
  const hours = (monthEnd - monthStart) / HOUR_MS;
  /** Net CEBD energy (kWh) per grid area uuid and hour of the month. */
  const gridHours = new Map<string, Float64Array>();
  const compact = (day: string) => day.replace(/-/g, '');
  // The data collecting service the area's owners are connected to (seed/fleet.ts: every
  // organisation's exchange admin is the infrastructure manager's exchange, "<IM orgId>-EX", except
  // the second vehicle keeper's): cebd-preprocessing's code 55 then marks only that keeper's units as
  // received via another DCS, as it would in a real delivery.
  const dcs = `${seedCountry.im.orgId}-EX`;
  const at: string[] = [];

  for (const day of days) {
    const dayStart = Date.parse(dayStartInZone(day, timeZone));
    const dayEnd = Date.parse(dayStartInZone(nextDayOf(day), timeZone));
    const startAt = units.map((u, i) => at[i] ?? u.line.from);
    const runs = demoDayRuns(country, units, day, at, random);
    yield {
      format: 'trainrun',
      fileName: `TRAINRUNS_${seedCountry.im.orgId}_${compact(day)}.xml`,
      username: DEMO_SENDERS.trainrun,
      contentType: 'application/xml',
      bytes: Buffer.from(
        trainRunsXml(
          runs.map(({ unit: _unit, km: _km, ...run }) => run),
          { sender: seedCountry.im.orgId },
        ),
        'utf8',
      ),
    };
    const created = `${new Date(dayEnd + 2 * HOUR_MS).toISOString().slice(0, 19)}Z`;
    const parts = [
      `<?xml version="1.0" encoding="UTF-8"?>\n<CEBDFile xmlns="${CEBD_NAMESPACE}" version="1" sender="${dcs}" created="${created}">\n`,
    ];
    units.forEach((unit, u) => {
      const own = runs.filter((r) => r.unit === u);
      unit.cpids.forEach((cpid, c) => {
        parts.push(`  <CEBDBlock cpid="${cpid}">\n`);
        for (const record of dayRecords(own, station, startAt[u]!, dayStart, dayEnd, c > 0, tractionSystem, random)) {
          parts.push(`    ${recordElement(record)}\n`);
          const grid = grids.locate(record.lat!, record.lon!);
          let sums = gridHours.get(grid);
          if (!sums) gridHours.set(grid, (sums = new Float64Array(hours)));
          sums[Math.floor((Date.parse(record.periodEnd) - PERIOD_MS - monthStart) / HOUR_MS)]! +=
            record.activeConsumed - record.activeRegenerated;
        }
        parts.push('  </CEBDBlock>\n');
      });
    });
    parts.push('</CEBDFile>\n');
    yield {
      format: 'cebd',
      fileName: `CEBD_${dcs}_${compact(day)}.xml`,
      username: DEMO_SENDERS.cebd,
      contentType: 'application/xml',
      bytes: Buffer.from(parts.join(''), 'utf8'),
    };
  }

  const currency = COUNTRY_CURRENCIES[country];
  yield {
    format: 'nordpool',
    fileName: `NORDPOOL_${seedCountry.nvr}_${month.replace('-', '')}.csv`,
    username: DEMO_SENDERS.nordpool,
    contentType: 'text/csv',
    bytes: generateNordpoolCsv({
      fromDay: days[0]!,
      days: days.length,
      areas: grids.priceAreas,
      timeZone,
      currency,
      rate: EXCHANGE_RATES[currency] ?? 1,
      rateDrift: currency === 'EUR' ? 0 : undefined,
      seed: options.seed ?? 2026,
    }),
  };

  // Supply: each grid area's CEBD energy of the hour plus 3-6 % losses; a grid area's substation
  // takes 60 % and its station feeders share the rest (all of it when it is alone).
  const series = grids.meteringPoints.map((mp) => {
    const feeders = grids.meteringPoints.filter((m) => m.grid === mp.grid);
    const substation = /^SMP-[A-Z]{2}\d?-\d$/.test(mp.name);
    const share = feeders.length === 1 ? 1 : substation ? 0.6 : 0.4 / (feeders.length - 1);
    const sums = gridHours.get(mp.grid);
    const values = Array.from({ length: hours }, (_, h) =>
      round3(Math.max(0, (sums?.[h] ?? 0) * share * (1.03 + random() * 0.03))),
    );
    return { meteringPoint: mp.name, start: new Date(monthStart).toISOString(), resolution: 'PT1H' as const, values };
  });
  const created = new Date(monthEnd + 26 * HOUR_MS).toISOString();
  const receiver = seedCountry.im.orgId;
  yield {
    format: 'utilts',
    fileName: `UTILTS_SUPPLY_${seedCountry.nvr}_${month.replace('-', '')}.edi`,
    username: DEMO_SENDERS.utilts,
    contentType: 'application/edifact',
    bytes: Buffer.from(
      writeUtilts({ sender: `DSO-${seedCountry.nvr}`, receiver, reference: `SUP${compact(month)}`, created, series }),
      'utf8',
    ),
  };
  const unknown = demoUnknownMeteringPoint(country);
  yield {
    format: 'utilts',
    fileName: demoRefusedFileName(country, month),
    username: DEMO_SENDERS.utilts,
    contentType: 'application/edifact',
    refusedBecause: `Unknown metering point ${unknown}`,
    bytes: Buffer.from(
      writeUtilts({
        sender: `DSO-${seedCountry.nvr}`,
        receiver,
        reference: `NEW${compact(month)}`,
        created,
        series: [
          {
            meteringPoint: unknown,
            start: new Date(monthStart).toISOString(),
            resolution: 'PT1H',
            values: Array.from({ length: hours }, () => round3(150 + random() * 250)),
          },
        ],
      }),
      'utf8',
    ),
  };
}
