import { useState } from 'react';
import { Card, SegmentedControl, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import type { CebdDay } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { formatDay } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import { cebdStatisticsQuery } from '../api/statistics-queries';
import { useStatisticsT } from '../hooks/use-statistics-t';
import { StatisticsBarChart, type ChartSeries } from './statistics-bar-chart';

const MEASURES = ['files', 'records', 'consumptionPoints'] as const;
type Measure = (typeof MEASURES)[number];

/** A day 'YYYY-MM-DD' as dd.MM.yyyy (it is already the zone's day). */
const dayLabel = formatDay;

/** The bars of each measure; a day's stack adds up to its files, records or consumption points. */
function seriesOf(measure: Measure, day: CebdDay): Record<string, number> {
  if (measure === 'files') return { okFiles: day.files - day.failedFiles, failedFiles: day.failedFiles };
  if (measure === 'records')
    return {
      valid: day.valid,
      withErrors: day.withErrors,
      duplicates: day.preprocessed - day.valid - day.withErrors,
      notPreprocessed: day.records - day.preprocessed,
    };
  return { consumptionPoints: day.consumptionPoints };
}

const COLORS: Record<string, string> = {
  okFiles: 'var(--mantine-color-teal-6)',
  failedFiles: 'var(--mantine-color-red-6)',
  valid: 'var(--mantine-color-teal-6)',
  withErrors: 'var(--mantine-color-red-6)',
  duplicates: 'var(--mantine-color-yellow-6)',
  notPreprocessed: 'var(--mantine-color-gray-5)',
  consumptionPoints: 'var(--mantine-color-blue-6)',
};

/** CEBD statistics for the previous seven days (product.md §2 Dashboard): a bar chart per measure and the days' table. */
export function CebdStatisticsCard({ area, zone }: { area: string; zone: string }) {
  const { t } = useStatisticsT();
  const f = useFormat();
  const [measure, setMeasure] = useState<Measure>('files');
  const query = useQuery(cebdStatisticsQuery(area, zone));
  const days = query.data?.days ?? [];
  const data = days.map((day) => ({ label: dayLabel(day.day), ...seriesOf(measure, day) }));
  const series: ChartSeries[] = Object.keys(seriesOf(measure, days[0] ?? emptyDay)).map((key) => ({
    key,
    label: t(`cebd.${key}`),
    color: COLORS[key]!,
  }));
  const columns: ColumnDef<CebdDay>[] = [
    { id: 'day', header: t('cebd.day'), cell: ({ row }) => dayLabel(row.original.day) },
    ...(['files', 'failedFiles', 'records', 'consumptionPoints', 'valid', 'withErrors'] as const).map(
      (key): ColumnDef<CebdDay> => ({
        id: key,
        header: t(`cebd.${key}`),
        cell: ({ row }) => f.number(row.original[key]),
      }),
    ),
  ];
  return (
    <Card withBorder data-testid="cebd-statistics">
      <Stack>
        <Title order={2} size="h3">
          {t('cebd.title')}
        </Title>
        <SegmentedControl
          aria-label={t('cebd.measure')}
          value={measure}
          onChange={(value) => setMeasure(value as Measure)}
          data={MEASURES.map((m) => ({ value: m, label: t(`cebd.${m}`) }))}
          w="fit-content"
        />
        <StatisticsBarChart
          data={data}
          series={series}
          title={t('cebd.chart', { measure: t(`cebd.${measure}`) })}
          xLabel={t('cebd.day')}
          yLabel={t(`cebd.${measure}`)}
        />
        <ApiErrorText error={query.error} fallback={t('loadFailed')} />
        <DataTable
          data={days}
          columns={columns}
          getRowId={(d) => d.day}
          emptyMessage=""
          loading={query.isPending}
          rowTestId="cebd-day"
        />
      </Stack>
    </Card>
  );
}

const emptyDay: CebdDay = {
  day: '1970-01-01',
  files: 0,
  failedFiles: 0,
  records: 0,
  consumptionPoints: 0,
  preprocessed: 0,
  valid: 0,
  withErrors: 0,
};
