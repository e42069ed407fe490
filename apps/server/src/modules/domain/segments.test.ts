import { describe, expect, it } from 'vitest';
import { diffSegments, patchRange, replaceRange, type WorkingSegment } from './segments.js';

const seg = (id: number, start: string, end: string, owner: string): WorkingSegment => ({
  id,
  start,
  end,
  name: 'Unit',
  active: true,
  state: 'ACTIVE',
  comments: null,
  attributes: { owner },
  lastModified: '2020-01-01T00:00:00.000Z',
  lastModifiedBy: 'seed',
});

describe('segments', () => {
  it('a change from a date splits the covering segment and keeps the old part', () => {
    const original = [seg(1, '2020-01-01T00:00:00Z', '2070-01-01T00:00:00Z', 'A')];
    const next = replaceRange(
      original,
      { start: '2024-06-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      {
        ...original[0]!,
        attributes: { owner: 'B' },
      },
    );
    expect(next.map((s) => [s.start, s.end, s.attributes.owner])).toEqual([
      ['2020-01-01T00:00:00Z', '2024-06-01T00:00:00Z', 'A'],
      ['2024-06-01T00:00:00Z', '2070-01-01T00:00:00Z', 'B'],
    ]);
    const diff = diffSegments(original, next);
    expect(diff.supersede).toEqual([1]);
    expect(diff.insert).toHaveLength(2);
    expect(diff.insert[0]!.lastModifiedBy).toBe('seed');
    expect(diff.insert[1]!.lastModifiedBy).toBeNull();
  });

  it('saving what a segment already holds changes nothing', () => {
    const original = [seg(1, '2020-01-01T00:00:00Z', '2070-01-01T00:00:00Z', 'A')];
    const next = replaceRange(
      original,
      { start: '2020-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00Z' },
      original[0]!,
    );
    expect(diffSegments(original, next)).toEqual({ supersede: [], insert: [] });
  });

  it('a status change patches only the pieces inside the range and keeps gaps', () => {
    const original = [
      seg(1, '2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z', 'A'),
      seg(2, '2022-01-01T00:00:00Z', '2070-01-01T00:00:00Z', 'B'),
    ];
    const next = patchRange(original, { start: '2020-06-01T00:00:00Z', end: '2023-01-01T00:00:00Z' }, (s) => ({
      ...s,
      state: 'RETIRED',
      active: false,
    }))!;
    expect(next.map((s) => [s.start, s.end, s.state])).toEqual([
      ['2020-01-01T00:00:00Z', '2020-06-01T00:00:00Z', 'ACTIVE'],
      ['2020-06-01T00:00:00Z', '2021-01-01T00:00:00Z', 'RETIRED'],
      ['2022-01-01T00:00:00Z', '2023-01-01T00:00:00Z', 'RETIRED'],
      ['2023-01-01T00:00:00Z', '2070-01-01T00:00:00Z', 'ACTIVE'],
    ]);
    expect(
      patchRange(original, { start: '2021-02-01T00:00:00Z', end: '2021-03-01T00:00:00Z' }, (s) => s),
    ).toBeUndefined();
  });
});
