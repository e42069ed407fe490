import type { FeatureCollection } from 'geojson';
import type { Bounds, LAYERS, LonLat, MapLabel, MapMarker } from './map-logic';

/** Where the map looks: a box to fit (with the 5 % padding) or a centre and zoom. */
export type MapView = { bounds: Bounds } | { center: LonLat; zoom: number };

/** What the map reports back (positions as [lon, lat], points as container pixels). */
export interface MapEngineHandlers {
  onClick?: (event: { lonLat: LonLat; point: { x: number; y: number } }) => void;
  /** A mouse press: answer true to start dragging (a vertex was hit); the map then does not pan. */
  onDragStart?: (point: { x: number; y: number }) => boolean;
  onDrag?: (lonLat: LonLat) => void;
  onDragEnd?: () => void;
}

/**
 * The thin boundary between the React component and the map library: area-map.tsx talks only to
 * this interface, so its behaviour is tested in jsdom with a fake engine, and map-engine.ts (MapLibre,
 * WebGL) is exercised by the browser journey.
 */
export interface MapEngine {
  project: (lonLat: LonLat) => { x: number; y: number };
  setAreas: (data: FeatureCollection) => void;
  setDrawing: (data: FeatureCollection) => void;
  setMarkers: (markers: readonly MapMarker[]) => void;
  /** Area names written on the map at their positions (replacing the previous ones). */
  setLabels: (labels: readonly MapLabel[]) => void;
  show: (view: MapView) => void;
  setCursor: (cursor: string) => void;
  /** A popup with plain text at a position (replacing the previous one). */
  showPopup: (lonLat: LonLat, text: string) => void;
  resize: () => void;
  destroy: () => void;
  layers: typeof LAYERS;
}

export type CreateEngine = (container: HTMLElement, handlers: MapEngineHandlers) => Promise<MapEngine>;
