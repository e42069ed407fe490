#!/usr/bin/env node
/**
 * Builds apps/server/src/seed/geo/areas.json: the demo areas of every country area, with polygons
 * that follow the real ones roughly. Country outlines are Natural Earth 1:50m (the `world-atlas`
 * package, public domain), simplified (Douglas-Peucker, `simplify-js`) and cut into price areas
 * along approximate bidding-zone borders (`polygon-clipping`); each price area is cut again into
 * two grid areas. The output is committed, so neither the server nor its tests need these packages.
 *
 * Rebuild (the packages are not dependencies of the project):
 *   npm install --prefix /tmp/geo world-atlas@2 topojson-client polygon-clipping simplify-js
 *   NODE_PATH=/tmp/geo/node_modules node scripts/geo/build-seed-areas.mjs
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(process.env.NODE_PATH ? `${process.env.NODE_PATH}/` : import.meta.url);
const topology = require('world-atlas/countries-50m.json');
const { feature } = require('topojson-client');
const clip = require('polygon-clipping');
const simplify = require('simplify-js');

const round = (v) => Math.round(v * 1e4) / 1e4;
const box = (w, s, e, n) => [
  [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ],
];

/** Price-area cells (lon/lat polygons) cut from the country outline; approximate bidding-zone borders. */
const COUNTRIES = {
  norway: {
    name: 'Norway',
    keep: ([, lat]) => lat < 72,
    tolerance: 0.04,
    priceAreas: {
      NO1: [
        [
          [9.5, 55],
          [20, 55],
          [20, 62],
          [7.8, 62],
          [7.8, 59.0],
          [9.5, 59.0],
          [9.5, 55],
        ],
      ],
      NO2: [
        [
          [3, 55],
          [9.5, 55],
          [9.5, 59.0],
          [7.8, 59.0],
          [7.8, 59.6],
          [3, 59.6],
          [3, 55],
        ],
      ],
      NO5: box(3, 59.6, 7.8, 62),
      NO3: box(3, 62, 20, 65),
      NO4: box(3, 65, 35, 72),
    },
  },
  sweden: {
    name: 'Sweden',
    tolerance: 0.03,
    priceAreas: {
      SE1: box(10, 65.5, 25, 70),
      SE2: box(10, 61, 25, 65.5),
      SE3: box(10, 57.1, 25, 61),
      SE4: box(10, 55, 25, 57.1),
    },
  },
  denmark: {
    name: 'Denmark',
    tolerance: 0.02,
    minArea: 0.02,
    priceAreas: { DK1: box(7, 54, 11, 58), DK2: box(11, 54, 16, 58) },
  },
  switzerland: { name: 'Switzerland', tolerance: 0.02, priceAreas: { CH: box(5, 45, 11, 48) } },
  belgium: { name: 'Belgium', tolerance: 0.02, priceAreas: { BE: box(2, 49, 7, 52) } },
  spain: {
    name: 'Spain',
    keep: ([lon, lat]) => lat > 35 && lon > -10,
    tolerance: 0.04,
    minArea: 0.05,
    priceAreas: { ES: box(-10, 35, 5, 44) },
  },
  portugal: {
    name: 'Portugal',
    keep: ([lon]) => lon > -10,
    tolerance: 0.03,
    priceAreas: { PT: box(-10, 36, -6, 42.5) },
  },
  netherlands: {
    name: 'Netherlands',
    keep: ([, lat]) => lat > 50,
    tolerance: 0.02,
    minArea: 0.02,
    priceAreas: { NL: box(3, 50, 8, 54) },
  },
  finland: { name: 'Finland', tolerance: 0.04, minArea: 0.05, priceAreas: { FI: box(19, 59, 32, 71) } },
};

function ringArea(ring) {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += (ring[j][0] + ring[i][0]) * (ring[j][1] - ring[i][1]);
  return Math.abs(a / 2);
}

/** The country's polygons, simplified, islands below `minArea` (deg²) and far territories left out. */
function outline(spec) {
  const country = feature(topology, topology.objects.countries).features.find((f) => f.properties.name === spec.name);
  if (!country) throw new Error(`No outline for ${spec.name}`);
  const polygons = country.geometry.type === 'Polygon' ? [country.geometry.coordinates] : country.geometry.coordinates;
  const kept = [];
  for (const polygon of polygons) {
    const outer = polygon[0];
    if (spec.keep && !outer.every(spec.keep)) continue;
    if (ringArea(outer) < (spec.minArea ?? 0.1)) continue;
    const simple = simplify(
      outer.map(([x, y]) => ({ x, y })),
      spec.tolerance,
      true,
    ).map((p) => [round(p.x), round(p.y)]);
    if (simple.length < 4) continue;
    simple[simple.length - 1] = [...simple[0]];
    kept.push([simple]);
  }
  // A union cleans up any self-touching the simplification produced.
  return clip.union(...kept);
}

const asGeometry = (multi) =>
  multi.length === 1 ? { type: 'Polygon', coordinates: multi[0] } : { type: 'MultiPolygon', coordinates: multi };

function bbox(multi) {
  const pts = multi.flat(2);
  return [
    Math.min(...pts.map((p) => p[0])),
    Math.min(...pts.map((p) => p[1])),
    Math.max(...pts.map((p) => p[0])),
    Math.max(...pts.map((p) => p[1])),
  ];
}

/** Two grid areas: the price area cut across its longer side (in km, roughly) at the middle. */
function splitInTwo(multi) {
  const [w, s, e, n] = bbox(multi);
  const wide = (e - w) * Math.cos(((s + n) / 2) * (Math.PI / 180)) > n - s;
  const mid = round(wide ? (w + e) / 2 : (s + n) / 2);
  const halves = wide
    ? [box(w - 1, s - 1, mid, n + 1), box(mid, s - 1, e + 1, n + 1)]
    : [box(w - 1, mid, e + 1, n + 1), box(w - 1, s - 1, e + 1, mid)];
  return halves.map((h) => clip.intersection(multi, h)).filter((m) => m.length > 0);
}

const out = {
  source: 'Natural Earth 1:50m via world-atlas 2, simplified; price areas cut along approximate bidding-zone borders',
  countries: {},
};
for (const [kind, spec] of Object.entries(COUNTRIES)) {
  const land = outline(spec);
  const priceAreas = Object.entries(spec.priceAreas).map(([name, cell]) => {
    const area = clip.intersection(land, cell);
    if (!area.length) throw new Error(`${name} is empty`);
    return { name, geometry: asGeometry(area), gridAreas: splitInTwo(area).map(asGeometry) };
  });
  out.countries[kind] = { geometry: asGeometry(land), priceAreas };
  const points = JSON.stringify(out.countries[kind]).split('],[').length;
  console.log(`${kind}: ${priceAreas.length} price areas, ~${points} positions`);
}
const target = fileURLToPath(new URL('../../apps/server/src/seed/geo/areas.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`wrote ${target}`);
