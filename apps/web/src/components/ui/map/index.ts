// The map's public surface. Only types and pure functions are exported statically: the component is
// LazyAreaMap, which loads area-map.tsx and MapLibre on demand.
export { LazyAreaMap } from './lazy-area-map';
export type { AreaMapDrawing, AreaMapProps } from './area-map';
export {
  AREA_TYPE_COLOURS,
  MAP_DEFAULTS,
  areaColour,
  boundsOf,
  fitPadding,
  legendEntries,
  viewFor,
  type MapArea,
  type MapMarker,
} from './map-logic';
export { EMPTY_DRAWING, canFinish, drawingFromGeometry, drawingToGeometry, type DrawingState } from './drawing';
export { parseAreaGeoJson, readAreaGeoJsonFile, type GeoJsonResult } from './geojson-file';
