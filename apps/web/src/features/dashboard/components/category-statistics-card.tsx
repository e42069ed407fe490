import { Card, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { STATISTICS_BUCKETS, type DashboardStatisticsItem } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { useFormat } from '../../../lib/use-format';
import { DataTable } from '../../../components/ui/data-table';
import { dashboardStatisticsQuery } from '../api/statistics-queries';
import { useStatisticsT } from '../hooks/use-statistics-t';

/**
 * Statistics per process category (calls.md §3): runs and files of the previous seven days by
 * status, their sum, the jobs waiting and the distinct consumption points (empty where none apply).
 */
export function CategoryStatisticsCard({ area, zone }: { area: string; zone: string }) {
  const { t } = useStatisticsT();
  const f = useFormat();
  const query = useQuery(dashboardStatisticsQuery(area, zone));
  const columns: ColumnDef<DashboardStatisticsItem>[] = [
    { id: 'type', header: t('categories.type'), cell: ({ row }) => t(`category.${row.original.type}`) },
    ...[...STATISTICS_BUCKETS, 'sum' as const, 'queue' as const].map((key): ColumnDef<DashboardStatisticsItem> => ({
      id: key,
      header: t(`categories.${key}`),
      cell: ({ row }) => f.number(row.original[key]),
    })),
    {
      id: 'uniqueCPIDs',
      header: t('categories.uniqueCPIDs'),
      cell: ({ row }) => f.number(row.original.uniqueCPIDs),
    },
  ];
  return (
    <Card withBorder data-testid="category-statistics">
      <Stack>
        <Title order={2} size="h3">
          {t('categories.title')}
        </Title>
        <ApiErrorText error={query.error} fallback={t('loadFailed')} />
        <DataTable
          data={query.data ?? []}
          columns={columns}
          getRowId={(item) => item.type}
          emptyMessage={t('categories.empty')}
          loading={query.isPending}
          rowTestId="category-row"
        />
      </Stack>
    </Card>
  );
}
