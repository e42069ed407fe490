import type { FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth 1:50m country outlines (public domain) from the world-atlas package, bundled with the
// app: the basemap needs no tile server. This module is part of the lazily loaded map chunk only.
import countries50m from 'world-atlas/countries-50m.json';
import { unwrapRing } from './map-logic';

/** The country outlines as GeoJSON for the basemap's fill and line layers. */
export function countryOutlines(): FeatureCollection {
  const topology = countries50m as unknown as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries) as FeatureCollection;
  return { ...countries, features: countries.features.map((f) => ({ ...f, geometry: unwrap(f.geometry) })) };
}

function unwrap(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrapRing) };
  if (geometry.type === 'MultiPolygon') {
    return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrapRing)) };
  }
  return geometry;
}
