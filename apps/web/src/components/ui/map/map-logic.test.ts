import { describe, expect, it } from 'vitest';
import type { AreaGeometry } from '@railwatt/contracts';
import {
  AREA_PAINT,
  AREA_TYPE_COLOURS,
  areaColour,
  areaLabels,
  BASEMAP_COLOURS,
  blend,
  labelPoint,
  areasAt,
  areaFeatures,
  boundsOf,
  fitPadding,
  legendEntries,
  MAP_DEFAULTS,
  offlineStyle,
  unwrapRing,
  viewFor,
  type MapArea,
} from './map-logic';

const box = (x0: number, y0: number, x1: number, y1: number): AreaGeometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
});

const areas: MapArea[] = [
  { uuid: 'a', name: 'NO1 grid', type: 'GridArea', geometry: box(10, 59, 12, 61) },
  { uuid: 'b', name: 'NO1', type: 'PriceArea', geometry: box(8, 58, 13, 62) },
  { uuid: 'c', name: 'Undrawn', type: 'TaxArea', geometry: null },
];

describe('map logic', () => {
  it('opens at the spec default: centre lat 55, lon 10, zoom 5, fit padding 5 %', () => {
    expect(MAP_DEFAULTS).toEqual({ center: { lat: 55, lon: 10 }, zoom: 5, fitPadding: 0.05 });
    // GeoJSON order is [lon, lat].
    expect(viewFor([], [])).toEqual({ center: [10, 55], zoom: 5 });
    expect(viewFor([areas[2]!], [])).toEqual({ center: [10, 55], zoom: 5 });
  });

  it('colours every area type differently, by wire name or key', () => {
    expect(new Set(Object.values(AREA_TYPE_COLOURS)).size).toBe(7);
    expect(areaColour('GridArea')).toBe(AREA_TYPE_COLOURS.gridarea);
    expect(areaColour('gridarea')).toBe(AREA_TYPE_COLOURS.gridarea);
    expect(areaColour('com.x.PriceArea')).toBe(AREA_TYPE_COLOURS.pricearea);
    expect(areaColour('Unknown')).toMatch(/^#/);
  });

  it('turns areas into features coloured by type, flags the selected and leaves out undrawn areas', () => {
    const fc = areaFeatures(areas, ['b']);
    expect(fc.features.map((f) => f.properties)).toEqual([
      { uuid: 'a', name: 'NO1 grid', kind: 'gridarea', colour: AREA_TYPE_COLOURS.gridarea, selected: false },
      { uuid: 'b', name: 'NO1', kind: 'pricearea', colour: AREA_TYPE_COLOURS.pricearea, selected: true },
    ]);
  });

  it('lists legend entries for the kinds shown, in a fixed order, each the colour its features are painted', () => {
    const swatch = (colour: string) => ({ fill: blend(colour, AREA_PAINT.fillOpacity), line: colour });
    expect(legendEntries(areas)).toEqual([
      { kind: 'gridarea', colour: AREA_TYPE_COLOURS.gridarea, swatch: swatch(AREA_TYPE_COLOURS.gridarea) },
      { kind: 'pricearea', colour: AREA_TYPE_COLOURS.pricearea, swatch: swatch(AREA_TYPE_COLOURS.pricearea) },
    ]);
    const painted = new Map(areaFeatures(areas).features.map((f) => [f.properties.kind, f.properties.colour]));
    for (const entry of legendEntries(areas)) expect(entry.colour).toBe(painted.get(entry.kind));
  });

  it("paints the legend's swatches with the layers' own opacity over the land (fills match the legend)", () => {
    expect(blend('#ff0000', 1)).toBe('#ff0000');
    expect(blend('#ff0000', 0)).toBe(BASEMAP_COLOURS.land);
    expect(blend('#000000', 0.5, '#ffffff')).toBe('#808080');
    const fill = offlineStyle().layers.find((l) => l.id === 'areas-fill')!;
    expect(JSON.stringify(fill.paint)).toBe(
      JSON.stringify({
        'fill-color': ['get', 'colour'],
        'fill-opacity': ['case', ['get', 'selected'], AREA_PAINT.selectedFillOpacity, AREA_PAINT.fillOpacity],
      }),
    );
    const land = offlineStyle().layers.find((l) => l.id === 'countries-fill')!;
    expect(land.paint).toEqual({ 'fill-color': BASEMAP_COLOURS.land });
  });

  it('computes bounds of polygons, multipolygons and points, widening a single point', () => {
    expect(boundsOf([box(10, 59, 12, 61)])).toEqual([
      [10, 59],
      [12, 61],
    ]);
    const multi: AreaGeometry = {
      type: 'MultiPolygon',
      coordinates: [box(0, 0, 1, 1), box(5, 5, 6, 7)].map(
        (g) => (g as Extract<AreaGeometry, { type: 'Polygon' }>).coordinates,
      ),
    };
    expect(boundsOf([multi], [[-1, 3]])).toEqual([
      [-1, 0],
      [6, 7],
    ]);
    const [[w, s], [e, n]] = boundsOf([], [[10, 55]])!;
    expect(e - w).toBeCloseTo(0.02);
    expect(n - s).toBeCloseTo(0.02);
    expect(boundsOf([null, undefined])).toBeUndefined();
  });

  it('fits the selection when there is one, else everything shown, plus an extra geometry', () => {
    expect(viewFor(areas, [], ['a'])).toEqual({
      bounds: [
        [10, 59],
        [12, 61],
      ],
    });
    expect(viewFor(areas, [])).toEqual({
      bounds: [
        [8, 58],
        [13, 62],
      ],
    });
    expect(viewFor(areas, [{ id: 'm', lon: 20, lat: 65, label: 'MP' }], ['m'])).toMatchObject({
      bounds: expect.any(Array),
    });
    expect(viewFor(areas, [], [], [box(0, 0, 1, 1)])).toEqual({
      bounds: [
        [0, 0],
        [1, 1],
      ],
    });
  });

  it('pads a fit by 5 % of the map size on each side', () => {
    expect(fitPadding(800, 400)).toEqual({ top: 20, bottom: 20, left: 40, right: 40 });
  });

  it('builds a style that needs no network: no tile URLs, glyphs or sprite', () => {
    const style = offlineStyle();
    expect(style).not.toHaveProperty('glyphs');
    expect(style).not.toHaveProperty('sprite');
    expect(JSON.stringify(style)).not.toMatch(/https?:|tiles|url/i);
    expect(Object.values(style.sources).every((s) => s.type === 'geojson')).toBe(true);
    expect(style.layers.map((l) => l.type as string)).not.toContain('symbol');
  });
});

describe('unwrapRing', () => {
  it('keeps a ring that crosses the antimeridian continuous instead of striping across the world', () => {
    expect(
      unwrapRing([
        [179, 65],
        [-179, 66],
        [-178, 64],
        [179, 65],
      ]),
    ).toEqual([
      [179, 65],
      [181, 66],
      [182, 64],
      [179, 65],
    ]);
    const plain = [
      [10, 60],
      [11, 60],
      [11, 61],
      [10, 60],
    ];
    expect(unwrapRing(plain)).toEqual(plain);
  });
});

describe('areasAt', () => {
  it('finds the areas holding a position, honouring holes and multipolygons', () => {
    const holed: MapArea = {
      uuid: 'h',
      name: 'Holed',
      type: 'TaxArea',
      geometry: { type: 'Polygon', coordinates: [box(0, 0, 10, 10).coordinates[0]!, box(4, 4, 6, 6).coordinates[0]!] },
    } as MapArea;
    const multi: MapArea = {
      uuid: 'm',
      name: 'Multi',
      type: 'PriceArea',
      geometry: { type: 'MultiPolygon', coordinates: [box(20, 0, 21, 1).coordinates, box(30, 0, 31, 1).coordinates] },
    } as MapArea;
    expect(areasAt([holed, multi], [1, 1]).map((a) => a.uuid)).toEqual(['h']);
    expect(areasAt([holed, multi], [5, 5])).toEqual([]);
    expect(areasAt([holed, multi], [30.5, 0.5]).map((a) => a.uuid)).toEqual(['m']);
    expect(areasAt([{ uuid: 'n', name: 'n', type: 'TaxArea', geometry: null }], [0, 0])).toEqual([]);
  });
});

describe('labelPoint and areaLabels', () => {
  const inside = (point: [number, number] | null, g: AreaGeometry) =>
    point !== null && areasAt([{ uuid: 'x', name: 'x', type: 'PriceArea', geometry: g }], point).length === 1;

  it("puts a rectangle's label at its middle", () => {
    const point = labelPoint(box(8, 58, 12, 62))!;
    expect(point[0]).toBeCloseTo(10, 1);
    expect(point[1]).toBeCloseTo(60, 1);
  });

  it('keeps the label inside a U-shaped area whose centroid falls outside it', () => {
    const u: AreaGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [8, 10],
          [8, 2],
          [2, 2],
          [2, 10],
          [0, 10],
          [0, 0],
        ],
      ],
    };
    const point = labelPoint(u);
    expect(inside(point, u)).toBe(true);
    // In the middle of the bottom bar or of an arm (each 2 wide), not hugging an edge.
    const [x, y] = point!;
    const middle = (v: number, from: number) => Math.abs(v - (from + 1)) < 0.5;
    expect(middle(y, 0) || middle(x, 0) || middle(x, 8)).toBe(true);
  });

  it('labels a multipolygon in its largest part, and nothing without a geometry', () => {
    const islands: AreaGeometry = {
      type: 'MultiPolygon',
      coordinates: [box(0, 0, 1, 1), box(20, 50, 30, 60)].map(
        (g) => (g as Extract<AreaGeometry, { type: 'Polygon' }>).coordinates,
      ),
    };
    const point = labelPoint(islands)!;
    expect(point[0]).toBeGreaterThan(20);
    expect(point[1]).toBeGreaterThan(50);
    expect(labelPoint(null)).toBeNull();
  });

  it('names every price area and every selected area, at its label point', () => {
    expect(areaLabels(areas)).toEqual([{ id: 'b', text: 'NO1', lonLat: labelPoint(areas[1]!.geometry) }]);
    expect(areaLabels(areas, ['a', 'c']).map((l) => l.text)).toEqual(['NO1 grid', 'NO1']);
  });
});
