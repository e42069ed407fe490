import { Card, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NotBuilt } from '../../../components/ui/not-built';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';

/** The dashboard home (/): a welcome card for the selected area; the CEBD statistics come later. */
export function DashboardHome(props: ScreenProps) {
  const { t } = useTranslation();
  const area = useMarketStore((s) => s.area);
  return (
    <Stack>
      <PageTitle {...props} />
      <Card withBorder data-testid="welcome-card">
        <Text fw={600}>{t('dashboard.welcome', { area: area?.name ?? '' })}</Text>
        <Text c="dimmed" size="sm">
          {t('dashboard.timeZone', { timeZone: area?.timeZone ?? '' })}
        </Text>
      </Card>
      <NotBuilt what={t('dashboard.cebdStatistics')} />
    </Stack>
  );
}
