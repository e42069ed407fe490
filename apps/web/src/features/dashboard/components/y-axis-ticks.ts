/** calls.md §9: the dashboard's bar charts have a y axis of 5 ticks. */
export const Y_TICK_COUNT = 5;

/**
 * The 5 ticks of a bar chart's y axis for bars up to `max`: 0 and four equal steps, each a multiple
 * of ten (calls.md §9 "rounding to tens"), the top tick the first at or above `max`. An empty chart
 * still shows 0 to 40.
 */
export function yAxisTicks(max: number): number[] {
  const intervals = Y_TICK_COUNT - 1;
  const step = Math.max(10, Math.ceil(Math.max(0, max) / intervals / 10) * 10);
  return Array.from({ length: Y_TICK_COUNT }, (_, i) => i * step);
}
