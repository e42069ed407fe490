import { readFileSync } from 'node:fs';
import { COUNTRY_AREA_NAMES, type AreaGeometry, type CountryAreaName } from '@railwatt/contracts';
import type { Database } from '../db/client.js';
import { interiorPoint, locatePoint, toPolygons, type Point } from '../modules/domain/geometry.js';
import { CountryRows, seedCountries } from './entity-rows.js';
import { RAILWAY_PLACES } from './railway-places.js';

/**
 * Demo infrastructure of every country area. The polygons are Natural Earth country outlines cut
 * along approximate bidding-zone borders (seed/geo/areas.json, built by scripts/geo/build-seed-areas.mjs):
 * the settlement area and the tax area are the country; each price area (NO1-NO5, SE1-SE4, DK1-DK2,
 * and one per other country) has an energy use settlement area of the same shape and a surveillance
 * area, and is cut into two grid areas that lie within it. Neighbouring areas share their borders
 * exactly, so the `nooverlap` and `within` checks hold for the stored data.
 *
 * On them the railway (seed/railway-places.ts: real stations, lines and border stations): traction
 * systems, supply metering points (a substation inside every grid area and one at each main station,
 * named by the identifier the supply input uses), fixed metering points at the main stations, tracks
 * along the main lines, reported train metering points, payload points where freight is weighed,
 * border crossings at the border stations and a grid area crossing on the border of every two grid
 * areas of a price area; and the type kinds they use (supply and fixed metering point types, EMS
 * types, consumption types, payload point types).
 */

interface GeoPriceArea {
  name: string;
  geometry: AreaGeometry;
  gridAreas: AreaGeometry[];
}
interface GeoCountry {
  geometry: AreaGeometry;
  priceAreas: GeoPriceArea[];
}

let geo: Record<CountryAreaName, GeoCountry> | undefined;
/** The committed polygons (read once, on first use). */
export function seedGeography(): Record<CountryAreaName, GeoCountry> {
  geo ??= (
    JSON.parse(readFileSync(new URL('./geo/areas.json', import.meta.url), 'utf8')) as {
      countries: Record<CountryAreaName, GeoCountry>;
    }
  ).countries;
  return geo;
}

/** Grid areas are named after grid operators of the region (two per price area: west then east, or north then south). */
const GRID_AREA_NAMES: Record<string, readonly [string, string]> = {
  NO1: ['Elvia Hedmark', 'Elvia Viken'],
  NO2: ['Lnett Rogaland', 'Glitre Agder'],
  NO3: ['Mellom Møre', 'Tensio Trøndelag'],
  NO4: ['Arva Nordland og Troms', 'Elinett Finnmark'],
  NO5: ['BKK Nett Nordfjord', 'BKK Nett Hordaland'],
  SE1: ['Vattenfall Eldistribution Norrbotten', 'Skellefteå Kraft Elnät'],
  SE2: ['Jämtkraft Elnät', 'E.ON Energidistribution Norrland'],
  SE3: ['Ellevio Värmland', 'Vattenfall Eldistribution Mälardalen'],
  SE4: ['E.ON Energidistribution Skåne', 'Kraftringen Nät'],
  DK1: ['N1 Nordjylland', 'TREFOR El-net Syd'],
  DK2: ['Radius Elnet', 'Bornholms Energi og Forsyning'],
  CH: ['SBB Energie Romandie', 'SBB Energie Ostschweiz'],
  BE: ['Infrabel Flandre', 'Infrabel Wallonie'],
  ES: ['Adif Oeste', 'Adif Este'],
  PT: ['IP Norte', 'IP Sul'],
  NL: ['ProRail Noord', 'ProRail Zuid'],
  FI: ['Rovakaira Pohjoinen', 'Caruna Etelä'],
};

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The first grid area of a price area keeps the key `grid:<price area>`; the second is `grid:<price area>:2`. */
export const gridAreaKey = (priceArea: string, i: number): string =>
  i === 0 ? `grid:${priceArea}` : `grid:${priceArea}:${i + 1}`;

/** The traction systems each country runs (codes of product.md §9). */
export const TRACTION_SYSTEMS: Record<CountryAreaName, readonly ('01' | '02' | '03' | '04' | '05')[]> = {
  norway: ['02'],
  sweden: ['02'],
  denmark: ['01'],
  switzerland: ['02'],
  belgium: ['03', '01'],
  spain: ['03', '01'],
  portugal: ['01'],
  netherlands: ['04', '01'],
  finland: ['01'],
};

const TRACTION_SYSTEM_NAMES: Record<string, string> = {
  '01': '25 kV 50 Hz',
  '02': '15 kV 16.7 Hz',
  '03': '3 kV DC',
  '04': '1.5 kV DC',
  '05': '0.75/0.6 kV DC',
};

/** How substations feed each traction system. */
const SUBSTATION_TYPES: Record<string, string> = {
  '01': 'Transformer substation',
  '02': 'Converter station',
  '03': 'Rectifier substation',
  '04': 'Rectifier substation',
  '05': 'Rectifier substation',
};

/** 'Trondheim S' -> 'TRONDHEIM-S', 'Liège-Guillemins' -> 'LIEGE-GUILLEMINS': an identifier without spaces. */
const slug = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'O')
    .replace(/æ/gi, 'AE')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toUpperCase();

const location = ([lat, lon]: readonly [number, number]): string => `${lat.toFixed(4)},${lon.toFixed(4)}`;

/** The rows of one country's areas and railway infrastructure (pure; the seeder inserts them). */
export function buildInfrastructure(country: CountryAreaName): CountryRows {
  const data = new CountryRows(country);
  const k = (key: string) => data.key(key);
  const geography = seedGeography()[country];
  const places = RAILWAY_PLACES[country];
  const name = titleCase(country);
  data.add(k('settlementarea'), 'settlementarea', name, {
    geometry: geography.geometry,
    originalName: country,
    settlementPartner: true,
  });
  data.add(k('taxarea'), 'taxarea', `${name} tax area`, { geometry: geography.geometry, code: `TAX-${country}` });
  const grids: { key: string; name: string; priceArea: string; geometry: AreaGeometry }[] = [];
  for (const pa of geography.priceAreas) {
    data.add(k(`pricearea:${pa.name}`), 'pricearea', pa.name, { geometry: pa.geometry, code: pa.name });
    data.add(k(`eusa:${pa.name}`), 'energyusesettlementarea', `${pa.name} energy use settlement area`, {
      geometry: pa.geometry,
      code: `EUSA-${pa.name}`,
    });
    data.add(k(`surveillance:${pa.name}`), 'surveillancearea', `${pa.name} surveillance area`, {
      geometry: pa.geometry,
      code: `SURV-${pa.name}`,
    });
    pa.gridAreas.forEach((geometry, i) => {
      const key = gridAreaKey(pa.name, i);
      const gridName = GRID_AREA_NAMES[pa.name]?.[i] ?? `${pa.name} grid ${i + 1}`;
      grids.push({ key, name: gridName, priceArea: pa.name, geometry });
      data.add(k(key), 'gridarea', gridName, {
        geometry,
        code: `GA-${pa.name}-${i + 1}`,
        energyUseSettlementAreaRef: k(`eusa:${pa.name}`),
        priceAreaRef: k(`pricearea:${pa.name}`),
        // The country's one tax area (a tax category's taxAreaRates may name it).
        taxAreaRef: k('taxarea'),
      });
    });
  }

  // The grid area a place lies in (on a border: the first that has it), else the nearest one.
  const gridOf = ([lat, lon]: readonly [number, number]) => {
    const p: Point = [lon, lat];
    const containing = grids.find((g) => toPolygons(g.geometry).some((poly) => locatePoint(p, poly) !== 'outside'));
    if (containing) return containing;
    const distance = (g: (typeof grids)[number]) =>
      Math.min(...toPolygons(g.geometry).flatMap((poly) => poly[0]!.map(([x, y]) => (x - lon) ** 2 + (y - lat) ** 2)));
    return [...grids].sort((a, b) => distance(a) - distance(b))[0]!;
  };

  const systems = TRACTION_SYSTEMS[country];
  for (const code of systems)
    data.add(k(`tractionsystem:${code}`), 'tractionsystem', `${code} ${TRACTION_SYSTEM_NAMES[code]}`, {
      code,
      description: TRACTION_SYSTEM_NAMES[code],
    });

  // Type kinds.
  const substationType = SUBSTATION_TYPES[systems[0]!]!;
  data.add(k('supplymeteringpointtype:main'), 'supplymeteringpointtype', substationType, {
    code: slug(substationType),
    description: `Feeds the ${TRACTION_SYSTEM_NAMES[systems[0]!]} contact line`,
  });
  const fixedTypes = ['Switch heating', 'Station and platform supply', 'Depot shore supply'];
  for (const t of fixedTypes)
    data.add(k(`fixedmeteringpointtype:${t}`), 'fixedmeteringpointtype', t, { code: slug(t), description: null });
  for (const [model, description] of [
    ['EN50463-EMS', 'On-board energy measurement system, traction circuit'],
    ['EN50463-EMS-AUX', 'On-board energy measurement system, auxiliary circuit'],
  ] as const)
    data.add(k(`emstype:${model}`), 'emstype', model, { manufacturer: null, model, description });
  for (const t of ['Traction', 'Auxiliary', 'Regenerative braking'])
    data.add(k(`consumptiontype:${t}`), 'consumptiontype', t, { code: slug(t), description: null });
  for (const t of ['Wheel load checkpoint', 'Weighbridge'])
    data.add(k(`payloadpointtype:${t}`), 'payloadpointtype', t, { code: slug(t), description: null });

  // Supply metering points: a substation inside every grid area, and one at each main station.
  for (const g of grids) {
    const largest = toPolygons(g.geometry).sort((a, b) => b[0]!.length - a[0]!.length)[0]!;
    const [lon, lat] = interiorPoint(largest) ?? largest[0]![0]!;
    const id = `SMP-${g.priceArea}-${g.key.endsWith(':2') ? 2 : 1}`;
    data.add(k(`supplymeteringpoint:${id}`), 'supplymeteringpoint', id, {
      supplyMeteringPointTypeRef: k('supplymeteringpointtype:main'),
      gridAreaRef: k(g.key),
      location: location([lat, lon]),
      description: `${substationType} feeding ${g.name}`,
    });
  }
  const stations = Object.entries(places.stations);
  for (const [station, at] of stations.slice(0, 6)) {
    const id = `SMP-${slug(station)}`;
    data.add(k(`supplymeteringpoint:${id}`), 'supplymeteringpoint', id, {
      supplyMeteringPointTypeRef: k('supplymeteringpointtype:main'),
      gridAreaRef: k(gridOf(at).key),
      location: location(at),
      description: `${substationType} ${station}`,
    });
  }

  // Fixed metering points at the three largest stations, settled to the infrastructure manager.
  for (const [station, at] of stations.slice(0, 3))
    for (const t of fixedTypes.slice(0, 2))
      data.add(k(`fixedmeteringpoint:${station}:${t}`), 'fixedmeteringpoint', `${t} ${station}`, {
        fixedMeteringPointTypeRef: k(`fixedmeteringpointtype:${t}`),
        gridAreaRef: k(gridOf(at).key),
        organisationRef: null,
        location: location(at),
        description: null,
      });

  // Tracks along the main lines.
  for (const line of places.lines)
    data.add(k(`track:${line.number}`), 'track', line.name, {
      tractionSystemRef: k(`tractionsystem:${systems[0]!}`),
      trackNumber: line.number,
      lengthKm: line.km,
      fromLocation: location(places.stations[line.from]!),
      toLocation: location(places.stations[line.to]!),
      description: `${line.from} - ${line.to}`,
    });
  const lineAt = (station: string) => places.lines.find((l) => l.from === station || l.to === station);

  // Reported train metering points at the main stations, payload points where freight is weighed.
  for (const [station, at] of stations.slice(0, 4)) {
    const line = lineAt(station);
    data.add(k(`reportedtrainmeteringpoint:${station}`), 'reportedtrainmeteringpoint', station, {
      location: location(at),
      trackRef: line ? k(`track:${line.number}`) : null,
      gridAreaRef: k(gridOf(at).key),
      description: null,
    });
  }
  for (const station of places.payloadPoints) {
    const line = lineAt(station);
    data.add(k(`payloadpoint:${station}`), 'payloadpoint', `${station} wheel load checkpoint`, {
      payloadPointTypeRef: k('payloadpointtype:Wheel load checkpoint'),
      location: location(places.stations[station]!),
      trackRef: line ? k(`track:${line.number}`) : null,
      description: null,
    });
  }

  // Border crossings: from the grid area of the border station out of the settlement area.
  for (const b of places.borders)
    data.add(k(`bordercrossing:${b.station}`), 'bordercrossing', `${b.station} border`, {
      fromAreaRef: k(gridOf(places.stations[b.station]!).key),
      toAreaRef: k('settlementarea'),
      location: location(places.stations[b.station]!),
      description: `Border station towards ${b.towards} (${b.across})`,
    });

  // Grid area crossings: where the two grid areas of a price area meet (a shared border vertex).
  for (const pa of geography.priceAreas) {
    const [first, second] = grids.filter((g) => g.priceArea === pa.name);
    if (!first || !second) continue;
    const secondPolygons = toPolygons(second.geometry);
    const shared = toPolygons(first.geometry)
      .flatMap((poly) => poly[0]!)
      .find((p) => secondPolygons.some((poly) => locatePoint(p, poly) === 'boundary'));
    if (!shared) continue;
    data.add(k(`gridareacrossing:${pa.name}`), 'gridareacrossing', `${first.name} - ${second.name}`, {
      fromGridAreaRef: k(first.key),
      toGridAreaRef: k(second.key),
      location: location([shared[1], shared[0]]),
      description: null,
    });
  }
  return data;
}

/** Seeds the areas of the given countries (default all); a country that has them is skipped. */
export function seedInfrastructureData(
  database: Database,
  countries: readonly CountryAreaName[] = COUNTRY_AREA_NAMES,
): Promise<number> {
  return seedCountries(database, countries, 'settlementarea', buildInfrastructure);
}

/** Seeder entry (seed/index.ts). */
export async function seedInfrastructure(database: Database): Promise<void> {
  await seedInfrastructureData(database);
}
