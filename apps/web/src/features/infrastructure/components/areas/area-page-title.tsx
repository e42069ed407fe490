import { Title } from '@mantine/core';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { useAreasT } from '../../hooks/use-areas-t';

/** The h1 of an area screen: the route's title, or the areas namespace's own (a screen rendered alone, as in tests). */
export function AreaPageTitle({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useAreasT();
  if (screen.titleKey) return <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />;
  return (
    <Title order={1} mb="sm">
      {t(fallbackKey)}
    </Title>
  );
}
