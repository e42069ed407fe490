import type { AreaGeometry } from '@railwatt/contracts';
import type { FeatureCollection } from 'geojson';
import type { LonLat } from './map-logic';

/**
 * Drawing one polygon on the map as pure state transitions: click adds a vertex, a vertex can be
 * dragged, finishing closes the ring (at least three vertices), clear starts again. The ring is kept
 * open here (no repeated first position); `drawingToGeometry` closes it as GeoJSON requires.
 */
export interface DrawingState {
  vertices: LonLat[];
  closed: boolean;
}

export const EMPTY_DRAWING: DrawingState = { vertices: [], closed: false };
export const MIN_VERTICES = 3;

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const clamp = ([lon, lat]: LonLat): LonLat => [
  round(Math.max(-180, Math.min(180, lon))),
  round(Math.max(-90, Math.min(90, lat))),
];

export function addVertex(state: DrawingState, position: LonLat): DrawingState {
  if (state.closed) return state;
  return { ...state, vertices: [...state.vertices, clamp(position)] };
}

export function moveVertex(state: DrawingState, index: number, position: LonLat): DrawingState {
  if (index < 0 || index >= state.vertices.length) return state;
  return { ...state, vertices: state.vertices.map((v, i) => (i === index ? clamp(position) : v)) };
}

/** Takes back the last vertex of an open ring (a closed ring is reopened first). */
export function undoVertex(state: DrawingState): DrawingState {
  if (state.closed) return { ...state, closed: false };
  return { ...state, vertices: state.vertices.slice(0, -1) };
}

export const canFinish = (state: DrawingState): boolean => !state.closed && state.vertices.length >= MIN_VERTICES;

export function finishDrawing(state: DrawingState): DrawingState {
  return canFinish(state) ? { ...state, closed: true } : state;
}

export const clearDrawing = (): DrawingState => EMPTY_DRAWING;

/** The drawn polygon as GeoJSON (closed ring), or null while it is not finished. */
export function drawingToGeometry(state: DrawingState): AreaGeometry | null {
  if (!state.closed || state.vertices.length < MIN_VERTICES) return null;
  return { type: 'Polygon', coordinates: [[...state.vertices, state.vertices[0]!]] };
}

/**
 * A stored geometry as an editable drawing: a Polygon (or a MultiPolygon of one polygon) gives its
 * outer ring; holes and several polygons cannot be edited vertex by vertex, so those give null (the
 * screen shows the area and offers to clear and redraw it, or to upload a file).
 */
export function drawingFromGeometry(geometry: AreaGeometry | null | undefined): DrawingState | null {
  if (!geometry) return EMPTY_DRAWING;
  const rings =
    geometry.type === 'Polygon'
      ? geometry.coordinates
      : geometry.coordinates.length === 1
        ? geometry.coordinates[0]!
        : undefined;
  if (!rings || rings.length !== 1) return null;
  const ring = rings[0]!;
  const open = ring.slice(0, -1).map((p) => [p[0]!, p[1]!] as LonLat);
  return { vertices: open, closed: true };
}

/** What the draw layers show: the polygon (closed) or the line so far, and a point per vertex. */
export function drawingFeatures(state: DrawingState): FeatureCollection {
  const { vertices, closed } = state;
  const shape =
    closed && vertices.length >= MIN_VERTICES
      ? [
          {
            type: 'Feature' as const,
            properties: {},
            geometry: { type: 'Polygon' as const, coordinates: [[...vertices, vertices[0]!]] },
          },
        ]
      : vertices.length >= 2
        ? [
            {
              type: 'Feature' as const,
              properties: {},
              geometry: { type: 'LineString' as const, coordinates: vertices },
            },
          ]
        : [];
  return {
    type: 'FeatureCollection',
    features: [
      ...shape,
      ...vertices.map((v, index) => ({
        type: 'Feature' as const,
        properties: { index },
        geometry: { type: 'Point' as const, coordinates: v },
      })),
    ],
  };
}

/**
 * Which vertex (if any) lies within `tolerance` pixels of a screen point; `project` maps a vertex to
 * screen pixels. Used to start a drag and to close the ring by clicking the first vertex.
 */
export function vertexNear(
  state: DrawingState,
  point: { x: number; y: number },
  project: (v: LonLat) => { x: number; y: number },
  tolerance = 10,
): number | undefined {
  let best: number | undefined;
  let bestDistance = tolerance;
  state.vertices.forEach((v, i) => {
    const p = project(v);
    const d = Math.hypot(p.x - point.x, p.y - point.y);
    if (d <= bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  return best;
}

/**
 * A click on the map while drawing: on the first vertex with enough vertices it finishes the ring,
 * elsewhere (not on an existing vertex) it adds one.
 */
export function clickAt(
  state: DrawingState,
  position: LonLat,
  point: { x: number; y: number },
  project: (v: LonLat) => { x: number; y: number },
): DrawingState {
  if (state.closed) return state;
  const near = vertexNear(state, point, project);
  if (near === 0 && canFinish(state)) return finishDrawing(state);
  if (near !== undefined) return state;
  return addVertex(state, position);
}
