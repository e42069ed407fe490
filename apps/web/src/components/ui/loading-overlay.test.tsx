import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadingOverlay } from './loading-overlay';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('loading overlay', () => {
  it('appears 500 ms after loading starts and hides at once when it ends', async () => {
    const client = new QueryClient();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <LoadingOverlay />
        </QueryClientProvider>
      </MantineProvider>,
    );
    let finish: (v: number) => void = () => undefined;
    act(() => {
      void client.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise<number>((r) => (finish = r)) });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(499);
    });
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
    await act(async () => {
      finish(1);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
  });

  it('never shows for a load shorter than 500 ms', async () => {
    const client = new QueryClient();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <LoadingOverlay />
        </QueryClientProvider>
      </MantineProvider>,
    );
    act(() => {
      void client.fetchQuery({
        queryKey: ['quick'],
        queryFn: () => new Promise<number>((r) => setTimeout(() => r(1), 300)),
      });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
  });

  it('does not show for the re-reads of a screen following a run (liveRefresh), but for its first read', async () => {
    const client = new QueryClient();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <LoadingOverlay />
        </QueryClientProvider>
      </MantineProvider>,
    );
    let finish: (v: number) => void = () => undefined;
    const live = () =>
      client.fetchQuery({
        queryKey: ['run'],
        meta: { liveRefresh: true },
        queryFn: () => new Promise<number>((r) => (finish = r)),
      });
    act(() => void live());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
    await act(async () => {
      finish(1);
      await vi.advanceTimersByTimeAsync(0);
    });
    act(() => void client.refetchQueries({ queryKey: ['run'] }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(client.isFetching()).toBe(1);
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    await act(async () => {
      finish(2);
      await vi.advanceTimersByTimeAsync(0);
    });
  });
});
