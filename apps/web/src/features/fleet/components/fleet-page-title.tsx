import { Title } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useFleetT } from '../hooks/use-fleet-t';

/**
 * The h1 of a fleet screen: the route's title when the route table renders the screen (one source
 * of titles), else the fleet namespace's own title (a screen rendered on its own, as in tests).
 */
export function FleetPageTitle({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useFleetT();
  if (screen.titleKey) return <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />;
  return (
    <Title order={1} mb="sm">
      {t(fallbackKey)}
    </Title>
  );
}
