import { Box } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useSettlementT } from '../hooks/use-settlement-t';
import { useFormat } from '../../../lib/use-format';

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
  const f = useFormat();
  const title = t('verification.chartTitle');
  return (
    <Box
      role="img"
      aria-label={title}
      data-testid="balance-chart"
      data-y-unit="kWh"
      style={{ width: '100%', maxWidth: CHART_SIZE.width, aspectRatio: `${CHART_SIZE.width} / ${CHART_SIZE.height}` }}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={CHART_SIZE}>
        <BarChart data={[...data]} margin={{ top: 16, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="label"
            label={{ value: t('verification.chartXAxis'), position: 'insideBottom', offset: -4 }}
            height={48}
          />
          <YAxis
            tickCount={5}
            width={88}
            tickFormatter={(value: number) => f.number(value)}
            label={{ value: t('verification.chartYAxis'), angle: -90, position: 'insideLeft' }}
          />
          <Tooltip formatter={(value) => f.energy(Number(value))} />
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
