import { Box } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '../../../lib/use-format';
import { yAxisTicks } from './y-axis-ticks';

/** calls.md §9: a bar chart's default size; below it the chart shrinks with the screen, keeping 4:3. */
export const CHART_SIZE = { width: 800, height: 600 } as const;

/** One bar: its x-axis label and a number per series key. */
export type ChartRow = { label: string } & Record<string, number | string>;

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

/**
 * A stacked bar chart of the dashboard: one bar per row (`label` on the x axis), the series stacked,
 * the y axis with the 5 ticks of calls.md §9 covering the highest stack. Each axis names what it
 * counts (`xLabel`, `yLabel`: its unit); ticks use the separators of the user's language. The figures
 * themselves are also in the table beside each chart (for screen readers and exact reading).
 */
export function StatisticsBarChart({
  data,
  series,
  title,
  xLabel,
  yLabel,
}: {
  data: readonly ChartRow[];
  series: readonly ChartSeries[];
  title: string;
  xLabel: string;
  yLabel: string;
}) {
  const f = useFormat();
  const highest = Math.max(0, ...data.map((row) => series.reduce((sum, s) => sum + Number(row[s.key] ?? 0), 0)));
  const ticks = yAxisTicks(highest);
  return (
    <Box
      role="img"
      aria-label={title}
      data-testid="statistics-chart"
      data-y-ticks={ticks.join(',')}
      data-x-label={xLabel}
      data-y-label={yLabel}
      style={{ width: '100%', maxWidth: CHART_SIZE.width, aspectRatio: `${CHART_SIZE.width} / ${CHART_SIZE.height}` }}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={CHART_SIZE}>
        <BarChart data={[...data]} margin={{ top: 16, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" height={48} label={{ value: xLabel, position: 'insideBottom', offset: -4 }} />
          <YAxis
            ticks={ticks}
            domain={[0, ticks[ticks.length - 1]!]}
            interval={0}
            allowDecimals={false}
            width={72}
            tickFormatter={(value: number) => f.number(value)}
            label={{ value: yLabel, angle: -90, position: 'insideLeft' }}
          />
          <Tooltip formatter={(value) => f.number(Number(value))} />
          <Legend />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId="stack" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
