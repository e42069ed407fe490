import '@mantine/core/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { queryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { appTheme, cssVariablesResolver } from './theme';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The notices' container and styles load after the shell (the shell's initial JavaScript stays
 * under its limit); a notice shown before it arrives waits in the notifications store. */
const Notifications = lazy(() => import('./notifications'));

/** Providers and the router. Rendered only once the user is signed in (lib/auth). */
export function App({ router, mantineEnv }: { router?: AppRouter; mantineEnv?: 'default' | 'test' }) {
  const [appRouter] = useState(() => router ?? createAppRouter());
  const { t } = useTranslation();
  const theme = useMemo(() => appTheme((key: string) => t(key)), [t]);
  return (
    <MantineProvider env={mantineEnv} theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {/* Short notices after an action went through (issue 18 item 4); dialogs are for questions and errors. */}
      <Suspense fallback={null}>
        <Notifications />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={appRouter} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
