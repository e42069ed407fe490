import { QueryClient } from '@tanstack/react-query';
import { isCancelled } from './errors';
import { registerStoreReset } from './stores/reset-registry';

const retry = (failureCount: number, error: unknown): boolean => !isCancelled(error) && failureCount < 1;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

// An area switch empties the cache: nothing from the previous tenant may be shown.
registerStoreReset(() => queryClient.clear());
