import { describe, expect, it } from 'vitest';
import { MAX_GEOJSON_BYTES, parseAreaGeoJson, readAreaGeoJsonFile } from './geojson-file';

const ring = [
  [10, 60],
  [11, 60],
  [11, 61],
  [10, 60],
];
const polygon = { type: 'Polygon', coordinates: [ring] };
const feature = (geometry: unknown) => ({ type: 'Feature', properties: {}, geometry });

describe('reading an area from a GeoJSON file', () => {
  it('accepts a Polygon, a MultiPolygon, a Feature and a FeatureCollection with one polygon feature', () => {
    expect(parseAreaGeoJson(JSON.stringify(polygon))).toEqual({ ok: true, geometry: polygon });
    const multi = { type: 'MultiPolygon', coordinates: [[ring]] };
    expect(parseAreaGeoJson(JSON.stringify(multi))).toEqual({ ok: true, geometry: multi });
    expect(parseAreaGeoJson(JSON.stringify(feature(polygon)))).toEqual({ ok: true, geometry: polygon });
    const collection = {
      type: 'FeatureCollection',
      features: [feature({ type: 'Point', coordinates: [10, 60] }), feature(polygon)],
    };
    expect(parseAreaGeoJson(JSON.stringify(collection))).toEqual({ ok: true, geometry: polygon });
  });

  it('names what is wrong with anything else', () => {
    expect(parseAreaGeoJson('{not json')).toEqual({ ok: false, reason: 'not_json' });
    expect(parseAreaGeoJson('[1,2]')).toEqual({ ok: false, reason: 'not_geojson' });
    expect(parseAreaGeoJson(JSON.stringify({ type: 'Point', coordinates: [1, 2] }))).toEqual({
      ok: false,
      reason: 'unsupported_type',
      values: { type: 'Point' },
    });
    expect(parseAreaGeoJson(JSON.stringify(feature({ type: 'LineString', coordinates: [] })))).toMatchObject({
      reason: 'unsupported_type',
      values: { type: 'LineString' },
    });
    expect(parseAreaGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [] }))).toEqual({
      ok: false,
      reason: 'no_polygon',
    });
    expect(
      parseAreaGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [feature(polygon), feature(polygon)] })),
    ).toEqual({ ok: false, reason: 'several_polygons', values: { count: 2 } });
    // An open ring is refused with the contract's reason.
    expect(
      parseAreaGeoJson(JSON.stringify({ type: 'Polygon', coordinates: [ring.slice(0, 3).concat([[12, 62]])] })),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_geometry',
    });
  });

  it('refuses a file over the size limit before reading it', async () => {
    const big = new File(['x'.repeat(MAX_GEOJSON_BYTES + 1)], 'big.geojson');
    expect(await readAreaGeoJsonFile(big)).toEqual({ ok: false, reason: 'too_large', values: { max: 1_000_000 } });
    const small = new File([JSON.stringify(polygon)], 'area.geojson');
    expect(await readAreaGeoJsonFile(small)).toEqual({ ok: true, geometry: polygon });
  });
});
