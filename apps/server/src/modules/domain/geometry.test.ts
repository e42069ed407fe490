import type { AreaGeometry } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import {
  areasOverlap,
  areaWithin,
  geometryProblem,
  interiorPoint,
  locatePoint,
  ringSelfCrossing,
  segmentsCrossProperly,
} from './geometry.js';

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

describe('geometry', () => {
  it('tells a proper crossing from touching and collinear segments', () => {
    expect(segmentsCrossProperly([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsCrossProperly([0, 0], [2, 0], [1, 0], [3, 0])).toBe(false);
    expect(segmentsCrossProperly([0, 0], [2, 0], [2, 0], [2, 2])).toBe(false);
  });

  it('locates points inside, on the border and outside, honouring holes', () => {
    const withHole = [
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
        [0, 0],
      ],
      [
        [4, 4],
        [6, 4],
        [6, 6],
        [4, 6],
        [4, 4],
      ],
    ] as const;
    expect(locatePoint([1, 1], withHole as never)).toBe('inside');
    expect(locatePoint([5, 5], withHole as never)).toBe('outside');
    expect(locatePoint([10, 5], withHole as never)).toBe('boundary');
    expect(locatePoint([11, 5], withHole as never)).toBe('outside');
    const inner = interiorPoint(withHole as never);
    expect(inner && locatePoint(inner, withHole as never)).toBe('inside');
  });

  it('nooverlap: crossing, containment and identical areas overlap; neighbours and far apart do not', () => {
    expect(areasOverlap(box(0, 0, 2, 2), box(1, 1, 3, 3))).toBe(true);
    expect(areasOverlap(box(0, 0, 10, 10), box(2, 2, 3, 3))).toBe(true);
    expect(areasOverlap(box(2, 2, 3, 3), box(0, 0, 10, 10))).toBe(true);
    expect(areasOverlap(box(0, 0, 2, 2), box(0, 0, 2, 2))).toBe(true);
    expect(areasOverlap(box(0, 0, 2, 2), box(2, 0, 4, 2))).toBe(false);
    expect(areasOverlap(box(0, 0, 2, 2), box(2, 2, 4, 4))).toBe(false);
    expect(areasOverlap(box(0, 0, 1, 1), box(5, 5, 6, 6))).toBe(false);
    // A cross shape: edges cross but no vertex of either lies inside the other.
    expect(areasOverlap(box(0, 1, 3, 2), box(1, 0, 2, 3))).toBe(true);
  });

  it('within: inside or on the border is within; sticking out or around a hole is not', () => {
    expect(areaWithin(box(1, 1, 2, 2), box(0, 0, 3, 3))).toBe(true);
    expect(areaWithin(box(0, 0, 3, 3), box(0, 0, 3, 3))).toBe(true);
    expect(areaWithin(box(0, 0, 1, 3), box(0, 0, 3, 3))).toBe(true);
    expect(areaWithin(box(2, 2, 4, 4), box(0, 0, 3, 3))).toBe(false);
    expect(areaWithin(box(5, 5, 6, 6), box(0, 0, 3, 3))).toBe(false);
    const ring = (g: AreaGeometry) => (g.type === 'Polygon' ? g.coordinates[0]! : []);
    const parentWithHole: AreaGeometry = {
      type: 'Polygon',
      coordinates: [
        ring(box(0, 0, 10, 10)),
        ring(box(4, 4, 6, 6))
          .slice()
          .reverse(),
      ],
    };
    expect(areaWithin(box(3, 3, 7, 7), parentWithHole)).toBe(false);
    expect(areaWithin(box(1, 1, 2, 2), parentWithHole)).toBe(true);
  });

  describe('geometryProblem: rings an area may be saved with', () => {
    const polygon = (...ring: number[][]) => ({ type: 'Polygon', coordinates: [ring] });

    it('accepts simple closed rings, holes and multipolygons', () => {
      expect(geometryProblem(box(0, 0, 2, 2))).toBeUndefined();
      // A concave ring (an L) whose non-adjacent edges come close but do not cross.
      expect(geometryProblem(polygon([0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]))).toBeUndefined();
      expect(
        geometryProblem({
          type: 'MultiPolygon',
          coordinates: [box(0, 0, 1, 1), box(-180, -90, -179, -89)].map((g) =>
            g.type === 'Polygon' ? g.coordinates : [],
          ),
        }),
      ).toBeUndefined();
    });

    it('refuses a ring with fewer than four positions', () => {
      expect(geometryProblem(polygon([0, 0], [1, 0], [0, 0]))).toBe('ring 1 has 3 positions; a ring needs at least 4');
    });

    it('refuses a ring that is not closed', () => {
      expect(geometryProblem(polygon([0, 0], [1, 0], [1, 1], [0, 1]))).toBe(
        'ring 1 is not closed: its first position [0, 0] differs from its last [0, 1]',
      );
    });

    it('refuses a ring whose edges cross (a bow tie), naming the edges', () => {
      const bowTie = polygon([0, 0], [2, 2], [2, 0], [0, 2], [0, 0]);
      expect(geometryProblem(bowTie)).toBe(
        'ring 1 crosses itself: the edge from position 1 to 2 crosses the edge from position 3 to 4',
      );
      expect(ringSelfCrossing(bowTie.coordinates[0]!.map((p) => [p[0]!, p[1]!] as const))).toEqual([0, 2]);
      // The crossing is found in the second polygon of a multipolygon too.
      const multi = { type: 'MultiPolygon', coordinates: [[box(5, 5, 6, 6).coordinates[0]], bowTie.coordinates] };
      expect(geometryProblem(multi)).toMatch(/^ring 1 of polygon 2 crosses itself/);
    });

    it('refuses coordinates off the globe', () => {
      expect(geometryProblem(polygon([0, 0], [181, 0], [181, 1], [0, 0]))).toBe(
        'position 2 of ring 1 [181, 0] lies outside longitude -180..180 / latitude -90..90',
      );
      expect(geometryProblem(polygon([0, 0], [1, 0], [1, -91], [0, 0]))).toMatch(/^position 3 of ring 1/);
    });

    it('leaves what is not shaped like a polygon to the schema', () => {
      expect(geometryProblem(undefined)).toBeUndefined();
      expect(geometryProblem({ type: 'Point', coordinates: [0, 0] })).toBeUndefined();
      expect(geometryProblem({ type: 'Polygon', coordinates: [[['a', 0]]] })).toBeUndefined();
    });
  });
});
