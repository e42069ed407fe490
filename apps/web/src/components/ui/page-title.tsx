import { Title } from '@mantine/core';
import { createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../lib/routes';

const PageDepthContext = createContext(0);

/** A screen nested in another screen's route (a child form) titles itself one level lower. */
export function NestedPage({ children }: { children: ReactNode }) {
  const depth = useContext(PageDepthContext);
  return <PageDepthContext.Provider value={depth + 1}>{children}</PageDepthContext.Provider>;
}

/** The translated title of a route; title arguments are i18n keys themselves. */
export function useScreenTitle({ titleKey, titleArgs }: ScreenProps): string {
  const { t } = useTranslation();
  const args = Object.fromEntries(Object.entries(titleArgs ?? {}).map(([name, key]) => [name, t(key)]));
  return t(titleKey, args);
}

/** The h1 of a screen (h2 for a screen nested in another). */
export function PageTitle(props: ScreenProps) {
  const depth = useContext(PageDepthContext);
  const title = useScreenTitle(props);
  return (
    <Title order={depth <= 1 ? 1 : 2} mb="sm">
      {title}
    </Title>
  );
}
