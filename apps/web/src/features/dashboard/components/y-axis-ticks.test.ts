import { describe, expect, it } from 'vitest';
import { yAxisTicks } from './y-axis-ticks';

describe('bar chart y axis', () => {
  it('has 5 ticks from 0 in steps rounded up to tens, the top one covering the highest bar', () => {
    expect(yAxisTicks(0)).toEqual([0, 10, 20, 30, 40]);
    expect(yAxisTicks(40)).toEqual([0, 10, 20, 30, 40]);
    expect(yAxisTicks(41)).toEqual([0, 20, 40, 60, 80]);
    // 95 / 4 = 23.75 -> step 30.
    expect(yAxisTicks(95)).toEqual([0, 30, 60, 90, 120]);
    // 12,345 / 4 = 3,086.25 -> step 3,090.
    expect(yAxisTicks(12_345)).toEqual([0, 3090, 6180, 9270, 12_360]);
  });
});
