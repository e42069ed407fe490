import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { DASHBOARD_CATEGORIES, type OffsetLag } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { formatDateTime, formatDay } from '../../../lib/format';
import { offsetLagQuery, queueSizeQuery } from '../api/statistics-queries';
import { useStatisticsT } from '../hooks/use-statistics-t';

/** A train run's oldest item is its operating day; the others are instants. */
const oldestText = (oldest: string | null, zone: string) =>
  oldest === null ? '' : /^\d{4}-\d{2}-\d{2}$/.test(oldest) ? formatDay(oldest) : formatDateTime(oldest, zone);

/** Queue sizes (jobs waiting per category) and the work waiting per processing stage (offset lag). */
export function QueueSizesCard({ area, zone }: { area: string; zone: string }) {
  const { t } = useStatisticsT();
  const queues = useQuery(queueSizeQuery(area));
  const lag = useQuery(offsetLagQuery(area));
  const waiting = DASHBOARD_CATEGORIES.filter((c) => (queues.data?.[c] ?? 0) > 0);
  const columns: ColumnDef<OffsetLag[number]>[] = [
    { id: 'stage', header: t('queues.stage'), cell: ({ row }) => t(`stage.${row.original.stage}`) },
    { accessorKey: 'waiting', header: t('queues.waiting') },
    { id: 'oldest', header: t('queues.oldest'), cell: ({ row }) => oldestText(row.original.oldest, zone) },
  ];
  return (
    <Card withBorder data-testid="queue-sizes">
      <Stack>
        <Title order={2} size="h3">
          {t('queues.title')}
        </Title>
        <ApiErrorText error={queues.error ?? lag.error} fallback={t('loadFailed')} />
        {queues.data && waiting.length === 0 && <Text c="dimmed">{t('queues.none')}</Text>}
        <Group gap="xs">
          {waiting.map((category) => (
            <Badge key={category} variant="light" size="lg" data-testid="queue-size">
              {t(`category.${category}`)}: {queues.data?.[category]}
            </Badge>
          ))}
        </Group>
        <Title order={3} size="h4">
          {t('queues.waitingWork')}
        </Title>
        <DataTable
          data={lag.data ?? []}
          columns={columns}
          getRowId={(row) => row.stage}
          emptyMessage=""
          loading={lag.isPending}
          rowTestId="offset-lag-row"
        />
      </Stack>
    </Card>
  );
}
