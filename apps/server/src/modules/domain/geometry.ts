import type { AreaGeometry } from '@railwatt/contracts';

/**
 * Planar polygon predicates for the `nooverlap` and `within` checks (no PostGIS here: PGlite has
 * none). Coordinates are [lon, lat] treated as a plane, which is what a settlement expert expects
 * for areas the size of price areas drawn on a map. Rings follow the even-odd rule, so holes work.
 *
 * Areas that only touch (share an edge or a vertex) do not overlap: neighbouring price areas share
 * their border. Identical areas do overlap ("the two areas must differ").
 */
export type Point = readonly [number, number];
type Ring = readonly Point[];
/** A polygon as its rings (outer first, then holes). */
type Polygon = readonly Ring[];

const EPS = 1e-12;

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

const sign = (v: number): number => (v > EPS ? 1 : v < -EPS ? -1 : 0);

/** Segments ab and cd cross at a single point interior to both (touching and collinear do not count). */
export function segmentsCrossProperly(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = sign(cross(c, d, a));
  const d2 = sign(cross(c, d, b));
  const d3 = sign(cross(a, b, c));
  const d4 = sign(cross(a, b, d));
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function onSegment(p: Point, a: Point, b: Point): boolean {
  if (sign(cross(a, b, p)) !== 0) return false;
  return (
    Math.min(a[0], b[0]) - EPS <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) + EPS &&
    Math.min(a[1], b[1]) - EPS <= p[1] &&
    p[1] <= Math.max(a[1], b[1]) + EPS
  );
}

export type Location = 'inside' | 'boundary' | 'outside';

/** Where a point lies relative to a polygon with holes (even-odd ray casting; boundary first). */
export function locatePoint(p: Point, polygon: Polygon): Location {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!;
      const b = ring[j]!;
      if (onSegment(p, a, b)) return 'boundary';
      if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) {
        inside = !inside;
      }
    }
  }
  return inside ? 'inside' : 'outside';
}

function locateInAny(p: Point, polygons: readonly Polygon[]): Location {
  let result: Location = 'outside';
  for (const polygon of polygons) {
    const loc = locatePoint(p, polygon);
    if (loc === 'inside') return 'inside';
    if (loc === 'boundary') result = 'boundary';
  }
  return result;
}

function* edges(polygon: Polygon): Generator<[Point, Point]> {
  for (const ring of polygon) {
    for (let i = 0; i + 1 < ring.length; i++) yield [ring[i]!, ring[i + 1]!];
  }
}

/**
 * A point strictly inside the polygon: cast a horizontal line through the middle of the outer
 * ring's height (nudged off vertex heights) and take the midpoint of the widest inside stretch.
 */
export function interiorPoint(polygon: Polygon): Point | undefined {
  const outer = polygon[0];
  if (!outer || outer.length < 4) return undefined;
  const ys = [...new Set(polygon.flatMap((r) => r.map((p) => p[1])))].sort((a, b) => a - b);
  // Try the midpoints between consecutive distinct vertex heights, widest band first.
  const bands: [number, number][] = [];
  for (let i = 0; i + 1 < ys.length; i++) bands.push([ys[i]!, ys[i + 1]!]);
  bands.sort((x, y) => y[1] - y[0] - (x[1] - x[0]));
  for (const [lo, hi] of bands) {
    const y = (lo + hi) / 2;
    const xs: number[] = [];
    for (const [a, b] of edges(polygon)) {
      if (a[1] > y !== b[1] > y) xs.push(a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]));
    }
    xs.sort((a, b) => a - b);
    let best: Point | undefined;
    let width = 0;
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const w = xs[i + 1]! - xs[i]!;
      if (w > width) {
        width = w;
        best = [(xs[i]! + xs[i + 1]!) / 2, y];
      }
    }
    if (best && locatePoint(best, polygon) === 'inside') return best;
  }
  return undefined;
}

export function toPolygons(geometry: AreaGeometry): Polygon[] {
  const asPoints = (ring: number[][]): Ring => ring.map((p) => [p[0]!, p[1]!] as const);
  return geometry.type === 'Polygon'
    ? [geometry.coordinates.map(asPoints)]
    : geometry.coordinates.map((polygon) => polygon.map(asPoints));
}

function bbox(polygons: readonly Polygon[]): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of polygons)
    for (const ring of polygon)
      for (const [x, y] of ring) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
  return [minX, minY, maxX, maxY];
}

/** Interiors of the two areas intersect (touching borders do not count; identical areas do). */
export function areasOverlap(a: AreaGeometry, b: AreaGeometry): boolean {
  const pa = toPolygons(a);
  const pb = toPolygons(b);
  const [ax0, ay0, ax1, ay1] = bbox(pa);
  const [bx0, by0, bx1, by1] = bbox(pb);
  if (ax1 <= bx0 || bx1 <= ax0 || ay1 <= by0 || by1 <= ay0) return false;
  // 1. Two edges cross.
  for (const polyA of pa)
    for (const [p, q] of edges(polyA))
      for (const polyB of pb) for (const [r, s] of edges(polyB)) if (segmentsCrossProperly(p, q, r, s)) return true;
  // 2. Without crossings, one area's vertex, edge midpoint or interior point lies inside the other.
  const probes = (polys: readonly Polygon[]): Point[] =>
    polys.flatMap((polygon) => {
      const points: Point[] = [];
      for (const [p, q] of edges(polygon)) points.push(p, [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]);
      const inner = interiorPoint(polygon);
      if (inner) points.push(inner);
      return points;
    });
  if (probes(pa).some((p) => locateInAny(p, pb) === 'inside')) return true;
  if (probes(pb).some((p) => locateInAny(p, pa) === 'inside')) return true;
  // 3. Same outline (every probe on the other's boundary): the two areas must differ.
  const innerA = pa.map(interiorPoint).filter((p): p is Point => p !== undefined);
  return innerA.some((p) => locateInAny(p, pb) !== 'outside');
}

/** Every part of `child` lies inside or on the border of `parent`. */
export function areaWithin(child: AreaGeometry, parent: AreaGeometry): boolean {
  const pc = toPolygons(child);
  const pp = toPolygons(parent);
  for (const polyC of pc)
    for (const [p, q] of edges(polyC)) {
      if (locateInAny(p, pp) === 'outside') return false;
      if (locateInAny([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2], pp) === 'outside') return false;
      for (const polyP of pp) for (const [r, s] of edges(polyP)) if (segmentsCrossProperly(p, q, r, s)) return false;
    }
  // A parent's hole (or a gap between parent polygons) may still sit inside the child.
  for (const polyP of pp)
    for (const ring of polyP.slice(1)) {
      const holeInner = interiorPoint([ring]);
      if (holeInner && locateInAny(holeInner, pc) === 'inside') return false;
    }
  return true;
}

const isPosition = (p: unknown): p is readonly [number, number] =>
  Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]);

const show = (p: Point): string => `[${p[0]}, ${p[1]}]`;

/**
 * The first pair of non-adjacent edges of a closed ring that cross, as edge indexes (edge i runs
 * from position i to i + 1). Edges are swept in order of their left end, so only edges whose x
 * extents overlap are compared: drawn areas have thousands of vertices.
 */
export function ringSelfCrossing(ring: readonly Point[]): [number, number] | undefined {
  const n = ring.length - 1; // edges of the closed ring
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (i, j) => Math.min(ring[i]![0], ring[i + 1]![0]) - Math.min(ring[j]![0], ring[j + 1]![0]),
  );
  for (let a = 0; a < order.length; a++) {
    const i = order[a]!;
    const right = Math.max(ring[i]![0], ring[i + 1]![0]);
    for (let b = a + 1; b < order.length; b++) {
      const j = order[b]!;
      if (Math.min(ring[j]![0], ring[j + 1]![0]) > right) break;
      const gap = Math.abs(i - j);
      // Neighbouring edges share a vertex (the first and the last through the closing position).
      if (gap === 1 || gap === n - 1) continue;
      if (segmentsCrossProperly(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!))
        return [Math.min(i, j), Math.max(i, j)];
    }
  }
  return undefined;
}

/** Why one ring is not a valid closed ring, or undefined. Positions are counted from 1 in messages. */
function ringProblem(ring: readonly Point[], label: string): string | undefined {
  const outside = ring.findIndex(([lon, lat]) => lon < -180 || lon > 180 || lat < -90 || lat > 90);
  if (outside >= 0) {
    return `position ${outside + 1} of ${label} ${show(ring[outside]!)} lies outside longitude -180..180 / latitude -90..90`;
  }
  if (ring.length < 4) return `${label} has ${ring.length} positions; a ring needs at least 4`;
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) {
    return `${label} is not closed: its first position ${show(first)} differs from its last ${show(last)}`;
  }
  const crossing = ringSelfCrossing(ring);
  if (crossing) {
    const [i, j] = crossing;
    return `${label} crosses itself: the edge from position ${i + 1} to ${i + 2} crosses the edge from position ${j + 1} to ${j + 2}`;
  }
  return undefined;
}

/**
 * Why an area's GeoJSON Polygon/MultiPolygon is not valid, or undefined when it is (or when it is
 * not shaped like one at all: the contract's schema reports that). Every ring must have at least
 * four positions, be closed, not cross itself, and stay within lon [-180, 180] / lat [-90, 90].
 */
export function geometryProblem(geometry: unknown): string | undefined {
  if (!geometry || typeof geometry !== 'object') return undefined;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (!Array.isArray(coordinates)) return undefined;
  const polygons: unknown[] = type === 'Polygon' ? [coordinates] : type === 'MultiPolygon' ? coordinates : [];
  for (const [p, polygon] of polygons.entries()) {
    if (!Array.isArray(polygon)) return undefined;
    for (const [r, ring] of polygon.entries()) {
      if (!Array.isArray(ring) || !ring.every(isPosition)) return undefined;
      const label = `ring ${r + 1}${type === 'MultiPolygon' ? ` of polygon ${p + 1}` : ''}`;
      const problem = ringProblem(
        ring.map((q) => [q[0], q[1]] as const),
        label,
      );
      if (problem) return problem;
    }
  }
  return undefined;
}
