import { toEntityKind, type AreaGeometry, type InfrastructureAreaKind } from '@railwatt/contracts';
import type { Feature, FeatureCollection, Polygon, MultiPolygon } from 'geojson';

/**
 * The map's logic as pure functions (jsdom cannot run WebGL, so everything the map decides is here
 * and unit-tested; map-engine.ts only hands the results to MapLibre).
 */

/** [lon, lat] in WGS 84, as GeoJSON writes positions. */
export type LonLat = [number, number];
/** [[west, south], [east, north]]. */
export type Bounds = [LonLat, LonLat];

/** product.md §9 / calls.md §9: "Map default centre 55, 10, zoom 5, fit padding 5%" (centre as lat, lon). */
export const MAP_DEFAULTS = { center: { lat: 55, lon: 10 }, zoom: 5, fitPadding: 0.05 } as const;

/** The area kinds in legend order, each with its colour (distinct hues, readable at 25 % fill). */
export const AREA_TYPE_COLOURS: Record<InfrastructureAreaKind, string> = {
  settlementarea: '#1c7ed6',
  energyusesettlementarea: '#2f9e44',
  gridarea: '#e8590c',
  pricearea: '#f59f00',
  taxarea: '#c2255c',
  surveillancearea: '#7048e8',
  uncertaintyarea: '#0c8599',
};
const FALLBACK_COLOUR = '#495057';

/**
 * How an area is drawn, read by the layers' paint (offlineStyle) and by the legend's swatches alike,
 * so a swatch looks as the area does on the map: the type's colour at this opacity over the land.
 */
export const AREA_PAINT = {
  fillOpacity: 0.22,
  selectedFillOpacity: 0.45,
  lineWidth: 1.5,
  selectedLineWidth: 3,
} as const;
/** The basemap's land and sea (offlineStyle), the ground an area's fill is seen on. */
export const BASEMAP_COLOURS = { land: '#f8f9fa', sea: '#d0e3f1', border: '#868e96' } as const;

const channels = (hex: string): [number, number, number] => {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/** `colour` at `opacity` over `ground`, as one opaque colour (#rrggbb): what the eye sees of a fill. */
export function blend(colour: string, opacity: number, ground: string = BASEMAP_COLOURS.land): string {
  const top = channels(colour);
  const bottom = channels(ground);
  const mixed = top.map((c, i) => Math.round(c * opacity + bottom[i]! * (1 - opacity)));
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** A legend swatch: the fill as the map shows it on land, edged with the area's line colour. */
export function legendSwatch(colour: string): { fill: string; line: string } {
  return { fill: blend(colour, AREA_PAINT.fillOpacity), line: colour };
}

/** The colour of an area type; the type may be the wire name ('GridArea') or the key ('gridarea'). */
export function areaColour(type: string): string {
  const kind = toEntityKind(type);
  return kind && kind in AREA_TYPE_COLOURS ? AREA_TYPE_COLOURS[kind as InfrastructureAreaKind] : FALLBACK_COLOUR;
}

/** What the map needs of an area (AreaSummary fits). */
export interface MapArea {
  uuid: string;
  name: string;
  type: string;
  geometry: AreaGeometry | null;
}

/** A point shown as a marker with a popup (metering points ...). */
export interface MapMarker {
  id: string;
  lon: number;
  lat: number;
  /** The popup's text (plain text; the component never injects HTML). */
  label: string;
}

export interface AreaFeatureProperties {
  uuid: string;
  name: string;
  kind: string;
  colour: string;
  selected: boolean;
}

/**
 * The areas as one GeoJSON source for the fill and line layers, coloured by type. Areas without a
 * geometry are left out; selected areas are flagged so the layers can draw them stronger.
 */
export function areaFeatures(
  areas: readonly MapArea[],
  selected: readonly string[] = [],
): FeatureCollection<Polygon | MultiPolygon, AreaFeatureProperties> {
  const chosen = new Set(selected);
  return {
    type: 'FeatureCollection',
    features: areas
      .filter((a): a is MapArea & { geometry: AreaGeometry } => a.geometry !== null)
      .map((a): Feature<Polygon | MultiPolygon, AreaFeatureProperties> => ({
        type: 'Feature',
        id: a.uuid,
        geometry: a.geometry,
        properties: {
          uuid: a.uuid,
          name: a.name,
          kind: toEntityKind(a.type) ?? a.type,
          colour: areaColour(a.type),
          selected: chosen.has(a.uuid),
        },
      })),
  };
}

/**
 * The legend: one entry per area kind present (with a geometry), in AREA_TYPE_COLOURS order, with the
 * colour the layers paint that kind (areaColour, as areaFeatures) and its swatch (legendSwatch).
 */
export function legendEntries(
  areas: readonly MapArea[],
): { kind: string; colour: string; swatch: { fill: string; line: string } }[] {
  const present = new Set(areas.filter((a) => a.geometry).map((a) => toEntityKind(a.type) ?? a.type));
  const known = (Object.keys(AREA_TYPE_COLOURS) as InfrastructureAreaKind[]).filter((k) => present.has(k));
  const unknown = [...present].filter((k) => !(k in AREA_TYPE_COLOURS)).sort();
  return [...known, ...unknown].map((kind) => {
    const colour = areaColour(kind);
    return { kind, colour, swatch: legendSwatch(colour) };
  });
}

/** Squared distance from a point to a segment, in degrees (enough to rank candidate label points). */
function segmentDistance2([x, y]: LonLat, a: readonly number[], b: readonly number[]): number {
  let [px, py] = [a[0]!, a[1]!];
  let [dx, dy] = [b[0]! - px, b[1]! - py];
  if (dx !== 0 || dy !== 0) {
    const t = ((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy);
    if (t > 1) [px, py] = [b[0]!, b[1]!];
    else if (t > 0) [px, py] = [px + dx * t, py + dy * t];
  }
  [dx, dy] = [x - px, y - py];
  return dx * dx + dy * dy;
}

/** How far inside a polygon a point is: its distance to the nearest edge, negative outside. */
function insideDistance(point: LonLat, rings: readonly (readonly number[])[][]): number {
  let min = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      min = Math.min(min, segmentDistance2(point, ring[i]!, ring[j]!));
    }
  }
  const distance = Math.sqrt(min);
  return inPolygon(point, rings) ? distance : -distance;
}

/** The unsigned area of a ring (shoelace), to pick a multipolygon's largest part. */
function ringArea(ring: readonly (readonly number[])[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return Math.abs(sum / 2);
}

/**
 * Where an area's name goes: inside its largest part, as far from its edges as a few rounds of grid
 * search find (an approximate pole of inaccessibility), so a label sits well inside a concave or
 * crescent-shaped area where its centroid would fall outside. Null without a geometry.
 */
export function labelPoint(geometry: AreaGeometry | null): LonLat | null {
  if (!geometry) return null;
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const rings = polygons.reduce((best, p) => (ringArea(p[0] ?? []) > ringArea(best[0] ?? []) ? p : best));
  const outer = rings[0];
  if (!outer || outer.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of outer) {
    [w, e] = [Math.min(w, p[0]!), Math.max(e, p[0]!)];
    [s, n] = [Math.min(s, p[1]!), Math.max(n, p[1]!)];
  }
  const STEPS = 16;
  let best: LonLat = [(w + e) / 2, (s + n) / 2];
  let bestDistance = insideDistance(best, rings);
  let [spanX, spanY] = [e - w, n - s];
  let [x0, y0] = [w, s];
  // Each round searches a grid over the box, then a box of two cells around the best point so far.
  for (let round = 0; round < 4; round += 1) {
    for (let i = 0; i <= STEPS; i += 1) {
      for (let j = 0; j <= STEPS; j += 1) {
        const candidate: LonLat = [x0 + (spanX * i) / STEPS, y0 + (spanY * j) / STEPS];
        const distance = insideDistance(candidate, rings);
        if (distance > bestDistance) [best, bestDistance] = [candidate, distance];
      }
    }
    [spanX, spanY] = [(spanX * 2) / STEPS, (spanY * 2) / STEPS];
    [x0, y0] = [best[0] - spanX / 2, best[1] - spanY / 2];
  }
  return best;
}

/** A name on the map at a position (HTML markers: the offline style has no glyphs for a symbol layer). */
export interface MapLabel {
  id: string;
  text: string;
  lonLat: LonLat;
}

/**
 * The names the map writes on its areas, at their label points: every price area (which a reader
 * tells apart only by name, all of one colour) and every selected area.
 */
export function areaLabels(areas: readonly MapArea[], selected: readonly string[] = []): MapLabel[] {
  const chosen = new Set(selected);
  return areas.flatMap((a) => {
    if (toEntityKind(a.type) !== 'pricearea' && !chosen.has(a.uuid)) return [];
    const lonLat = labelPoint(a.geometry);
    return lonLat ? [{ id: a.uuid, text: a.name, lonLat }] : [];
  });
}

function positionsOf(geometry: AreaGeometry): number[][] {
  return geometry.type === 'Polygon' ? geometry.coordinates.flat() : geometry.coordinates.flat(2);
}

/**
 * The bounding box of geometries and points, or undefined when there is nothing to fit. A single
 * point (or a degenerate box) is widened a little so fitting does not zoom in to the maximum.
 */
export function boundsOf(geometries: readonly (AreaGeometry | null | undefined)[], points: readonly LonLat[] = []) {
  const all: LonLat[] = [
    ...geometries.flatMap((g) => (g ? positionsOf(g).map((p) => [p[0]!, p[1]!] as LonLat) : [])),
    ...points,
  ];
  if (all.length === 0) return undefined;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of all) {
    w = Math.min(w, lon);
    e = Math.max(e, lon);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  const MIN_SPAN = 0.02;
  if (e - w < MIN_SPAN) [w, e] = [w - MIN_SPAN / 2, e + MIN_SPAN / 2];
  if (n - s < MIN_SPAN) [s, n] = [s - MIN_SPAN / 2, n + MIN_SPAN / 2];
  return [
    [w, s],
    [e, n],
  ] as Bounds;
}

/** The fit padding in pixels: 5 % of the map's width on the sides and of its height above and below. */
export function fitPadding(width: number, height: number, share: number = MAP_DEFAULTS.fitPadding) {
  const x = Math.round(width * share);
  const y = Math.round(height * share);
  return { top: y, bottom: y, left: x, right: x };
}

/**
 * The view the map opens with or moves to: the bounds of `focus` (the selection, else every area and
 * marker) plus any `extra` geometries (an area being edited), with the 5 % padding; the default
 * centre and zoom when there is nothing to fit.
 */
export function viewFor(
  areas: readonly MapArea[],
  markers: readonly MapMarker[],
  focus: readonly string[] = [],
  extra: readonly AreaGeometry[] = [],
): { bounds: Bounds } | { center: LonLat; zoom: number } {
  const everything = focus.length === 0 && extra.length === 0;
  const focused = everything ? areas : areas.filter((a) => focus.includes(a.uuid));
  const focusedMarkers = everything ? markers : markers.filter((m) => focus.includes(m.id));
  const bounds = boundsOf(
    [...focused.map((a) => a.geometry), ...extra],
    focusedMarkers.map((m) => [m.lon, m.lat]),
  );
  if (bounds) return { bounds };
  return { center: [MAP_DEFAULTS.center.lon, MAP_DEFAULTS.center.lat], zoom: MAP_DEFAULTS.zoom };
}

/** Layer ids, shared by the style and the engine. */
export const LAYERS = {
  sea: 'sea',
  countriesFill: 'countries-fill',
  countriesLine: 'countries-line',
  areasFill: 'areas-fill',
  areasLine: 'areas-line',
  drawFill: 'draw-fill',
  drawLine: 'draw-line',
  drawVertices: 'draw-vertices',
} as const;
export const SOURCES = { countries: 'countries', areas: 'areas', draw: 'draw' } as const;

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * A MapLibre style that needs no network at all: no tile server, no glyphs, no sprite. The basemap is
 * the country outlines handed in as GeoJSON (Natural Earth, bundled). A symbol layer would need glyphs
 * (none are bundled), so area names are HTML markers at their label points (areaLabels, map-engine.ts),
 * besides popups, the legend and the table.
 */
export function offlineStyle(countries: FeatureCollection = EMPTY) {
  return {
    version: 8 as const,
    sources: {
      [SOURCES.countries]: { type: 'geojson' as const, data: countries },
      [SOURCES.areas]: { type: 'geojson' as const, data: EMPTY, promoteId: 'uuid' },
      [SOURCES.draw]: { type: 'geojson' as const, data: EMPTY },
    },
    layers: [
      { id: LAYERS.sea, type: 'background' as const, paint: { 'background-color': BASEMAP_COLOURS.sea } },
      {
        id: LAYERS.countriesFill,
        type: 'fill' as const,
        source: SOURCES.countries,
        paint: { 'fill-color': BASEMAP_COLOURS.land },
      },
      {
        id: LAYERS.countriesLine,
        type: 'line' as const,
        source: SOURCES.countries,
        paint: { 'line-color': BASEMAP_COLOURS.border, 'line-width': 0.8 },
      },
      {
        id: LAYERS.areasFill,
        type: 'fill' as const,
        source: SOURCES.areas,
        paint: {
          'fill-color': ['get', 'colour'],
          'fill-opacity': ['case', ['get', 'selected'], AREA_PAINT.selectedFillOpacity, AREA_PAINT.fillOpacity],
        },
      },
      {
        id: LAYERS.areasLine,
        type: 'line' as const,
        source: SOURCES.areas,
        paint: {
          'line-color': ['get', 'colour'],
          'line-width': ['case', ['get', 'selected'], AREA_PAINT.selectedLineWidth, AREA_PAINT.lineWidth],
        },
      },
      {
        id: LAYERS.drawFill,
        type: 'fill' as const,
        source: SOURCES.draw,
        filter: ['==', ['geometry-type'], 'Polygon'],
        paint: { 'fill-color': '#fa5252', 'fill-opacity': 0.2 },
      },
      {
        id: LAYERS.drawLine,
        type: 'line' as const,
        source: SOURCES.draw,
        filter: ['!=', ['geometry-type'], 'Point'],
        paint: { 'line-color': '#e03131', 'line-width': 2, 'line-dasharray': [2, 1] },
      },
      {
        id: LAYERS.drawVertices,
        type: 'circle' as const,
        source: SOURCES.draw,
        filter: ['==', ['geometry-type'], 'Point'],
        paint: {
          'circle-radius': 6,
          'circle-color': '#ffffff',
          'circle-stroke-color': '#e03131',
          'circle-stroke-width': 2,
        },
      },
    ],
  };
}

/**
 * Makes a ring's longitudes continuous: where consecutive positions jump by more than 180 degrees
 * (a country cut at the antimeridian, such as Russia or Fiji), the rest of the ring is shifted by
 * 360 degrees. Drawn on a plane, a jump from 180 to -180 would otherwise be a stripe across the world.
 */
export function unwrapRing(ring: readonly (readonly number[])[]): number[][] {
  let offset = 0;
  return ring.map((p, i) => {
    if (i > 0) {
      const delta = p[0]! - ring[i - 1]![0]!;
      if (delta > 180) offset -= 360;
      else if (delta < -180) offset += 360;
    }
    return [p[0]! + offset, p[1]!];
  });
}

/** Even-odd test of a point against one polygon's rings (holes included). */
function inPolygon([x, y]: LonLat, rings: readonly (readonly number[])[][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = [ring[i]![0]!, ring[i]![1]!];
      const [xj, yj] = [ring[j]![0]!, ring[j]![1]!];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** The areas whose polygon holds the position (a click on the map names them in a popup). */
export function areasAt(areas: readonly MapArea[], position: LonLat): MapArea[] {
  return areas.filter((a) => {
    const g = a.geometry;
    if (!g) return false;
    return g.type === 'Polygon'
      ? inPolygon(position, g.coordinates)
      : g.coordinates.some((p) => inPolygon(position, p));
  });
}
