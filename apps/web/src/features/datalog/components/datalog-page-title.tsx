import { Title } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import type { ScreenProps } from '../../../lib/routes';
import { useDataLogT } from '../hooks/use-datalog-t';

/** The route's title when the route table renders the screen, else the namespace's own (tests). */
export function DataLogPageTitle({ screen, fallbackKey }: { screen: Partial<ScreenProps>; fallbackKey: string }) {
  const { t } = useDataLogT();
  if (screen.titleKey) return <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />;
  return (
    <Title order={1} mb="sm">
      {t(fallbackKey)}
    </Title>
  );
}
