import { Box } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useSettlementT } from '../hooks/use-settlement-t';
import { formatFigure } from './figures';

/** calls.md §9: a bar chart's default size; below it the chart shrinks with the screen, keeping 4:3. */
const CHART_SIZE = { width: 800, height: 600 } as const;

/** One price area's supply and the parts it is made of (kWh). */
export interface BalanceChartRow {
  label: string;
  supply: number;
  metered: number;
  estimated: number;
  other: number;
  losses: number;
}

const PARTS = [
  { key: 'metered', color: '#1c7ed6' },
  { key: 'estimated', color: '#74c0fc' },
  { key: 'other', color: '#fab005' },
  { key: 'losses', color: '#e8590c' },
] as const;

/**
 * Per price area two bars: the supply, and beside it metered, estimated, other and losses stacked.
 * When the balance closes the two are equally high. The figures are in the cards and the table too
 * (for screen readers and exact reading).
 */
export function BalanceChart({ data }: { data: readonly BalanceChartRow[] }) {
  const { t } = useSettlementT();
  const title = t('verification.chartTitle');
  return (
    <Box
      role="img"
      aria-label={title}
      data-testid="balance-chart"
      style={{ width: '100%', maxWidth: CHART_SIZE.width, aspectRatio: `${CHART_SIZE.width} / ${CHART_SIZE.height}` }}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={CHART_SIZE}>
        <BarChart data={[...data]} margin={{ top: 16, right: 16, bottom: 8, left: 24 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" />
          <YAxis tickCount={5} />
          <Tooltip formatter={(value) => formatFigure(Number(value))} />
          <Legend />
          <Bar
            dataKey="supply"
            name={t('categories.supply')}
            stackId="supply"
            fill="#2f9e44"
            isAnimationActive={false}
          />
          {PARTS.map((part) => (
            <Bar
              key={part.key}
              dataKey={part.key}
              name={t(`categories.${part.key}`)}
              stackId="parts"
              fill={part.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
