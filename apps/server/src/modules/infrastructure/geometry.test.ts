import type { AreaGeometry } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { areasOverlap, areaWithin, interiorPoint, locatePoint, segmentsCrossProperly } from './geometry.js';

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
});
