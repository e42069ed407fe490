import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { Role } from '@railwatt/contracts';
import { i18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { useMarketStore } from '../../../lib/stores/market-store';
import { ModalHost } from '../../../components/ui/modal-host';
import { FleetOverviewPage } from '../components/fleet-overview-page';
import { FleetRegistrationPage } from '../components/fleet-registration-page';
import { FleetErrorSummaryPage } from '../components/fleet-error-summary-page';
import { SegmentsHistoryPage } from '../components/segments-history-page';
import { FleetImportPage } from '../components/fleet-import-page';
import { MasterdataUpdatesPage } from '../components/masterdata-updates-page';

/** A recorded call of the mocked fetch. */
export interface Call {
  method: string;
  url: URL;
  body: unknown;
}

type Responder = (call: Call) => unknown;

/**
 * Mocks fetch with a table of `METHOD /path` -> answer (a value, a Response, or a function of the call).
 * Unknown calls answer 404. Every call is recorded.
 */
export function mockFetch(routes: Record<string, unknown | Responder>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const raw = init?.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    const call = { method, url, body };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (handler === undefined) return new Response('{}', { status: 404, statusText: 'Not Found' });
    const answer = typeof handler === 'function' ? (handler as Responder)(call) : handler;
    if (answer instanceof Response) return answer;
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders the fleet screens at `path` with the app's providers, signed in with `roles` in Norway. */
export function renderFleet(path: string, { roles = ['vehicle-keeper'] as Role[] } = {}): ReturnType<typeof render> {
  useMarketStore.setState({ rolesInArea: roles, timeZone: 'Europe/Oslo' });
  const wrap = (screen: ReactElement) => (
    <>
      {screen}
      <LocationProbe />
      <ModalHost />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/fleet/overview', element: wrap(<FleetOverviewPage />) },
      { path: '/fleet/registration', element: wrap(<FleetRegistrationPage />) },
      { path: '/fleet/segmentshistory', element: wrap(<SegmentsHistoryPage />) },
      { path: '/fleet/overview/errorsummary', element: wrap(<FleetErrorSummaryPage />) },
      { path: '/fleet/import', element: wrap(<FleetImportPage />) },
      { path: '/fleet/masterdata-updates', element: wrap(<MasterdataUpdatesPage />) },
    ],
    { initialEntries: [path] },
  );
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
}
