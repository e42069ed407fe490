import { Title } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useAdminT } from '../hooks/use-admin-t';

/**
 * The h1 of an administration screen: the route's title when the route table renders it, else the
 * administration namespace's own title (a screen rendered on its own, as in tests).
 */
export function AdminPageTitle({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useAdminT();
  if (screen.titleKey) return <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />;
  return (
    <Title order={1} mb="sm">
      {t(fallbackKey)}
    </Title>
  );
}
