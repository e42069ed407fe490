import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
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
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={appRouter} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
