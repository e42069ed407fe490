import { Stack, Text, Title } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useMonitorT } from '../hooks/use-monitor-t';

/** The zone a screen shows times in before the area's own is known. */
const FALLBACK_ZONE = 'Europe/Oslo';

/** The selected area's time zone: the process screens show and send every time in it. */
export function useMonitorZone(): string {
  return useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
}

/** The route's title when the route table renders the screen, else the namespace's own (tests). */
export function MonitorPageTitle({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useMonitorT();
  if (screen.titleKey) return <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />;
  return (
    <Title order={1} mb="sm">
      {t(fallbackKey)}
    </Title>
  );
}

/**
 * A page the route admits (the settlement and exchange role groups) whose calls the user's roles do
 * not (processingRead): a notice instead of a page of refusals.
 */
export function NotForRole({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useMonitorT();
  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={screen} fallbackKey={fallbackKey} />
      <Text data-testid="monitor-not-for-role">{t('notForRole')}</Text>
    </Stack>
  );
}
