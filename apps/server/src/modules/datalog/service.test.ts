import { describe, expect, it } from 'vitest';
import { administratorAreas } from './service.js';

describe('master-data areas', () => {
  it('are the areas where the user holds erex-administrator; a function without an area means all', () => {
    expect(
      administratorAreas([
        { role: 'erex-administrator', areaId: 'a' },
        { role: 'consumer', areaId: 'b' },
        { role: 'erex-administrator', areaId: 'c' },
      ]),
    ).toEqual(['a', 'c']);
    expect(administratorAreas([{ role: 'erex-administrator', areaId: null }])).toBeNull();
    expect(administratorAreas([{ role: 'consumer', areaId: null }])).toEqual([]);
  });
});
