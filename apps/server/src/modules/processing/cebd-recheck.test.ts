import { describe, expect, it } from 'vitest';
import { changedStretches, type SavedVersions } from './cebd-recheck.js';

const version = (start: string, end: string, attributes: Record<string, unknown>, more: { name?: string } = {}) => ({
  start,
  end,
  name: more.name ?? 'Oslo grid',
  active: true,
  state: 'ACTIVE',
  comments: null,
  attributes,
});
const ALWAYS = ['1970-01-01T00:00:00.000Z', '2070-01-01T00:00:00.000Z'] as const;
const OCT6 = '2026-10-05T22:00:00.000Z';
const square = (x: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, 0],
      [x + 1, 0],
      [x + 1, 1],
      [x, 0],
    ],
  ],
});

/** Where a save changed what cebd-preprocessing reads (the stretches markCebdRecheck marks days in). */
describe('changedStretches', () => {
  const grid = (before: SavedVersions['before'], after: SavedVersions['after']): SavedVersions => ({
    uuid: '00000000-0000-4000-8000-000000000001',
    kind: 'gridarea',
    before,
    after,
  });

  it('is the validity from the date a grid area is redrawn from', () => {
    const saved = grid(
      [version(...ALWAYS, { geometry: square(10), code: 'A' })],
      [
        version(ALWAYS[0], OCT6, { geometry: square(10), code: 'A' }),
        version(OCT6, ALWAYS[1], { geometry: square(11), code: 'A' }),
      ],
    );
    expect(changedStretches(saved)).toEqual([{ uuid: saved.uuid, kind: 'gridarea', start: OCT6, end: ALWAYS[1] }]);
  });

  it('is nothing for what the check does not read: a name, a code, the order of a geometry’s keys', () => {
    const saved = grid(
      [version(...ALWAYS, { geometry: { type: 'Polygon', coordinates: square(10).coordinates }, code: 'A' })],
      [
        version(ALWAYS[0], OCT6, { code: 'A', geometry: { coordinates: square(10).coordinates, type: 'Polygon' } }),
        version(OCT6, ALWAYS[1], { geometry: square(10), code: 'B' }, { name: 'Renamed' }),
      ],
    );
    expect(changedStretches(saved)).toEqual([]);
  });

  it('is the whole validity of an area created or one that ends earlier where it is gone', () => {
    expect(changedStretches(grid([], [version(...ALWAYS, { geometry: square(1) })]))).toEqual([
      expect.objectContaining({ start: ALWAYS[0], end: ALWAYS[1] }),
    ]);
    expect(
      changedStretches(
        grid([version(...ALWAYS, { geometry: square(1) })], [version(ALWAYS[0], OCT6, { geometry: square(1) })]),
      ),
    ).toEqual([expect.objectContaining({ start: OCT6, end: ALWAYS[1] })]);
  });

  it('reads a consumption point’s unit, EMS type and activity, and nothing of kinds the check does not read', () => {
    const cp = (attributes: Record<string, unknown>, state = 'ACTIVE'): SavedVersions['before'][number] => ({
      ...version(...ALWAYS, attributes),
      state,
    });
    const point = (before: SavedVersions['before'], after: SavedVersions['after']): SavedVersions => ({
      uuid: '00000000-0000-4000-8000-000000000002',
      kind: 'consumptionpoint',
      before,
      after,
    });
    expect(changedStretches(point([cp({ emsType: 'A', channels: 2 })], [cp({ emsType: 'A', channels: 4 })]))).toEqual(
      [],
    );
    expect(changedStretches(point([cp({ emsType: 'A' })], [cp({ emsType: 'B' })]))).toHaveLength(1);
    expect(changedStretches(point([cp({ emsType: 'A' })], [cp({ emsType: 'A' }, 'INACTIVE')]))).toHaveLength(1);
    expect(
      changedStretches({ uuid: 'x', kind: 'organisation', before: [], after: [version(...ALWAYS, { orgId: '1' })] }),
    ).toEqual([]);
  });
});
