import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useAreaName } from '../../../lib/use-format';
import { DASHBOARD_REFRESH_MS, statisticsKeys } from '../api/statistics-queries';
import { useStatisticsT } from '../hooks/use-statistics-t';
import { CategoryStatisticsCard } from './category-statistics-card';
import { CebdStatisticsCard } from './cebd-statistics-card';
import { DashboardEventsCard } from './dashboard-events-card';
import { QueueSizesCard } from './queue-sizes-card';

/**
 * The dashboard home (/, product.md §2): the selected area, its CEBD statistics for the previous
 * seven days as bar charts, the statistics per category, queue sizes and waiting work, and the
 * events per process. Every part refreshes itself every 30 seconds; the refresh button asks at once.
 */
export function DashboardHome(props: ScreenProps) {
  const { t } = useTranslation();
  const { t: ts } = useStatisticsT();
  const area = useMarketStore((s) => s.area);
  const areaName = useAreaName();
  const zone = useMarketStore((s) => s.timeZone) ?? area?.timeZone ?? 'UTC';
  const queryClient = useQueryClient();
  const key = area?.uuid ?? '';
  const fetching = useIsFetching({ queryKey: statisticsKeys.area(key) }) > 0;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <PageTitle {...props} />
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {ts('autoRefresh', { seconds: DASHBOARD_REFRESH_MS / 1000 })}
          </Text>
          <Button
            variant="light"
            loading={fetching}
            onClick={() => void queryClient.invalidateQueries({ queryKey: statisticsKeys.area(key) })}
          >
            {ts('refresh')}
          </Button>
        </Group>
      </Group>
      <Card withBorder data-testid="welcome-card">
        <Text fw={600}>{t('dashboard.welcome', { area: areaName })}</Text>
        <Text c="dimmed" size="sm">
          {t('dashboard.timeZone', { timeZone: area?.timeZone ?? '' })}
        </Text>
      </Card>
      {area && (
        <>
          <CebdStatisticsCard area={key} zone={zone} />
          <CategoryStatisticsCard area={key} zone={zone} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <QueueSizesCard area={key} zone={zone} />
            <DashboardEventsCard area={key} zone={zone} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
