import { describe, expect, it } from 'vitest';
import {
  addVertex,
  canFinish,
  clearDrawing,
  clickAt,
  drawingFeatures,
  drawingFromGeometry,
  drawingToGeometry,
  EMPTY_DRAWING,
  finishDrawing,
  moveVertex,
  undoVertex,
  vertexNear,
  type DrawingState,
} from './drawing';
import type { AreaGeometry } from '@railwatt/contracts';
import type { LonLat } from './map-logic';

// A projection for tests: 100 pixels per degree.
const project = ([lon, lat]: LonLat) => ({ x: lon * 100, y: -lat * 100 });
const at = (lon: number, lat: number) => ({ lonLat: [lon, lat] as LonLat, point: project([lon, lat]) });
const click = (s: DrawingState, lon: number, lat: number) => {
  const p = at(lon, lat);
  return clickAt(s, p.lonLat, p.point, project);
};

describe('drawing a polygon', () => {
  it('adds a vertex per click and closes the ring on the first vertex once there are three', () => {
    let s = EMPTY_DRAWING;
    s = click(s, 10, 60);
    s = click(s, 11, 60);
    // Clicking the first vertex with two vertices does nothing (not enough for an area).
    expect(click(s, 10, 60)).toBe(s);
    s = click(s, 11, 61);
    expect(canFinish(s)).toBe(true);
    s = click(s, 10.01, 60.01);
    expect(s.closed).toBe(true);
    expect(drawingToGeometry(s)).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [10, 60],
          [11, 60],
          [11, 61],
          [10, 60],
        ],
      ],
    });
    // A closed ring takes no more vertices.
    expect(click(s, 12, 62)).toBe(s);
  });

  it('finishes only with three vertices; an open drawing has no geometry', () => {
    const two = addVertex(addVertex(EMPTY_DRAWING, [0, 0]), [1, 0]);
    expect(finishDrawing(two)).toBe(two);
    expect(drawingToGeometry(two)).toBeNull();
    expect(finishDrawing(addVertex(two, [1, 1])).closed).toBe(true);
  });

  it('moves a dragged vertex, undoes the last one and clears', () => {
    let s: DrawingState = {
      vertices: [
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      closed: true,
    };
    expect(vertexNear(s, project([1.02, 0]), project)).toBe(1);
    expect(vertexNear(s, project([0.5, 0.5]), project)).toBeUndefined();
    s = moveVertex(s, 1, [2, 0]);
    expect(s.vertices[1]).toEqual([2, 0]);
    expect(moveVertex(s, 7, [9, 9])).toBe(s);
    s = undoVertex(s);
    expect(s.closed).toBe(false);
    s = undoVertex(s);
    expect(s.vertices).toHaveLength(2);
    expect(clearDrawing()).toEqual(EMPTY_DRAWING);
  });

  it('keeps positions on the globe and rounds them to six decimals', () => {
    const s = addVertex(EMPTY_DRAWING, [190.1234567891, -95]);
    expect(s.vertices[0]).toEqual([180, -90]);
    expect(addVertex(EMPTY_DRAWING, [10.12345678, 60.1])).toEqual({ vertices: [[10.123457, 60.1]], closed: false });
  });

  it('opens a stored polygon for editing; multi-part or holed geometry is not editable', () => {
    const polygon: Extract<AreaGeometry, { type: 'Polygon' }> = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    expect(drawingFromGeometry(polygon)).toEqual({
      vertices: [
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      closed: true,
    });
    expect(drawingFromGeometry({ type: 'MultiPolygon', coordinates: [polygon.coordinates] })).toEqual({
      vertices: [
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      closed: true,
    });
    expect(
      drawingFromGeometry({ type: 'MultiPolygon', coordinates: [polygon.coordinates, polygon.coordinates] }),
    ).toBeNull();
    expect(
      drawingFromGeometry({ type: 'Polygon', coordinates: [polygon.coordinates[0]!, polygon.coordinates[0]!] }),
    ).toBeNull();
    expect(drawingFromGeometry(null)).toEqual(EMPTY_DRAWING);
  });

  it('shows a line while open and a polygon when closed, with a point per vertex', () => {
    const open: DrawingState = {
      vertices: [
        [0, 0],
        [1, 0],
      ],
      closed: false,
    };
    expect(drawingFeatures(open).features.map((f) => f.geometry.type)).toEqual(['LineString', 'Point', 'Point']);
    const closed = finishDrawing(addVertex(open, [1, 1]));
    expect(drawingFeatures(closed).features.map((f) => f.geometry.type)).toEqual([
      'Polygon',
      'Point',
      'Point',
      'Point',
    ]);
    expect(drawingFeatures(EMPTY_DRAWING).features).toEqual([]);
  });
});
