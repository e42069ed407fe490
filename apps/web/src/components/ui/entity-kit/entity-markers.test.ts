// @vitest-environment node
import type { VersionedEntity } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { markersOf } from './entity-markers';

const row = (uuid: string, name: string, location?: unknown) =>
  ({ uuid, name, location }) as unknown as VersionedEntity;

describe('entity markers', () => {
  it('puts every entity with a valid location on the map, named, and leaves the others out', () => {
    expect(
      markersOf([
        row('a', 'SMP-OSLO', '59.911,10.753'),
        row('b', 'No place'),
        row('c', 'Bad', '95,10'),
        row('d', 'Odd', 7),
      ]),
    ).toEqual([{ id: 'a', lat: 59.911, lon: 10.753, label: 'SMP-OSLO' }]);
  });
});
