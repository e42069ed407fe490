import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { queryClient } from '../lib/query-client';
import { createAppRouter } from './router';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Providers and the router. Rendered only once the user is signed in (lib/auth). */
export function App({ router, mantineEnv }: { router?: AppRouter; mantineEnv?: 'default' | 'test' }) {
  const [appRouter] = useState(() => router ?? createAppRouter());
  return (
    <MantineProvider env={mantineEnv}>
      {/* Short notices after an action went through (issue 18 item 4); dialogs are for questions and errors. */}
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={appRouter} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
