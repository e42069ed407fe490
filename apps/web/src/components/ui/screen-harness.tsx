import type { ReactElement } from 'react';
import type { ProcedureResult } from '@railwatt/contracts';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { useMarketStore } from '../../lib/stores/market-store';
import { ModalHost } from './modal-host';

/**
 * The harness of whole-screen tests (STYLE.md §13): a mocked fetch and the app's providers around a
 * memory router. Each feature's render-<feature>.tsx lists its screens and calls this; test-harness.tsx
 * is the lighter one for single building blocks.
 */

/** A recorded call of the mocked fetch. */
export interface Call {
  method: string;
  url: URL;
  body: unknown;
}

type Responder = (call: Call) => unknown;

/**
 * Mocks fetch with a table of `METHOD /path` -> answer (a value, a Response, or a function of the call).
 * Every call is recorded. Unknown calls answer 404, or an empty JSON list with `unknown: 'empty-list'`.
 */
export function mockFetch(
  routes: Record<string, unknown>,
  { unknown = 'not-found' }: { unknown?: 'not-found' | 'empty-list' } = {},
) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const raw = init?.body;
    const call = { method, url, body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (handler === undefined) {
      return unknown === 'empty-list'
        ? new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 404, statusText: 'Not Found' });
    }
    const answer = typeof handler === 'function' ? (handler as Responder)(call) : handler;
    if (answer instanceof Response) return answer;
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** Shows the router's location, so a test can read where a screen navigated. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/**
 * Renders `routes` at `path` with the app's providers (i18n, Mantine, a fresh query client), each
 * top-level screen beside a location probe and the modal host, in the market state `market` (roles,
 * time zone, areas).
 */
export function renderScreens(
  routes: RouteObject[],
  path: string,
  market: Partial<ReturnType<typeof useMarketStore.getState>>,
): ReturnType<typeof render> {
  useMarketStore.setState(market);
  const wrap = (screen: ReactElement) => (
    <>
      {screen}
      <LocationProbe />
      <ModalHost />
    </>
  );
  const router = createMemoryRouter(
    routes.map((route) => ({ ...route, element: wrap(route.element as ReactElement) })),
    { initialEntries: [path] },
  );
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <Notifications />
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
}

let nextResultId = 100;
/**
 * A procedure result as the calls answer it: a finished success of January 2024 in Oslo; `over`
 * sets any field (the features' fixtures set their procedure and user).
 */
export function procedureResult(over: Partial<ProcedureResult> = {}): ProcedureResult {
  const id = over.id ?? nextResultId++;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    procedureName: 'cebd-preprocessing',
    status: 'success',
    executeStartTime: '2024-02-01T08:00:00Z',
    executeEndTime: '2024-02-01T08:05:00Z',
    refTime: null,
    entityRefs: [],
    entityName: null,
    // January 2024 in Oslo.
    periodStart: '2023-12-31T23:00:00Z',
    periodEnd: '2024-01-31T23:00:00Z',
    progress: 1,
    message: null,
    username: 'settlement-area-responsible',
    jobId: null,
    ...over,
  };
}
