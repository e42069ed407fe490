import { MantineProvider } from '@mantine/core';
import { VERSION_STRING } from '@railwatt/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppAuth } from '../lib/auth/auth';
import { queryClient } from '../lib/query-client';
import { useLastVisitStore } from '../lib/stores/last-visit-store';
import { useMarketStore } from '../lib/stores/market-store';
import { App } from './app';
import { ProfileMenu } from './profile-menu';
import { createTestRouter } from './router';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const CONSUMER: AppAuth['functions'] = [
  { role: 'consumer', areaId: '00000000-0000-4000-8000-000000000001' },
  { role: 'consumer', areaId: '00000000-0000-4000-8000-000000000002' },
];

const auth = vi.hoisted(() => ({
  refreshToken: vi.fn(async () => undefined),
  signOut: vi.fn(),
  /** The signed-in user's market functions (a consumer in Belgium and Norway unless a test says otherwise). */
  functions: null as AppAuth['functions'] | null,
}));

// A fake signed-in user: the auth module's hook is mocked, nothing reaches an identity provider.
vi.mock('../lib/auth/auth', () => ({
  useAppAuth: (): AppAuth => ({
    isAuthenticated: true,
    username: 'ada',
    displayName: 'Ada Lovelace',
    functions: auth.functions ?? CONSUMER,
    signOut: auth.signOut,
  }),
  getAccessToken: async () => 'token',
  refreshToken: auth.refreshToken,
}));

const AREAS = [
  { uuid: uuid(2), name: 'Norway', timeZone: 'Europe/Oslo', settlementPartner: true },
  { uuid: uuid(1), name: 'Belgium', timeZone: 'Europe/Brussels', settlementPartner: true },
  { uuid: uuid(3), name: 'Finland', timeZone: 'Europe/Helsinki', settlementPartner: false },
];

function renderShell(path = '/') {
  const router = createTestRouter([path]);
  render(<App router={router} mantineEnv="test" />);
  return router;
}

beforeEach(() => {
  useMarketStore.setState({ areas: [], area: null, timeZone: null, functions: [], rolesInArea: [], rendered: true });
  useLastVisitStore.setState({ visits: {} });
  auth.functions = null;
  queryClient.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the shell', () => {
  it('shows the header, the footer version and asks for an area before one is chosen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderShell('/');
    expect(await screen.findByTestId('user-display-name')).toHaveTextContent('Ada Lovelace');
    expect(screen.getByTestId('app-version')).toHaveTextContent(VERSION_STRING);
    expect(screen.getByText('Please select settlement area')).toBeInTheDocument();
    expect(screen.getByTestId('logout')).toHaveTextContent('Log out');
    expect(screen.getByRole('textbox', { name: 'Settlement area' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: /main/i })).queryAllByRole('link')).toHaveLength(0);
  });

  it('selects the first partner area, shows its time zone, the menu and the dashboard', async () => {
    // A settlement-area responsible: a consumer's / lands on its settlement figures (redirects.ts HOME_LANDINGS).
    auth.functions = [{ role: 'settlement-area-responsible', areaId: uuid(1) }];
    const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(AREAS), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    renderShell('/');
    await waitFor(() => expect(screen.getByTestId('area-selector')).toHaveValue('Belgium'));
    expect(fetch.mock.calls[0]![0]).toBe('/api/user/settlementareas');
    expect(screen.getByTestId('selected-timezone')).toHaveTextContent('Europe/Brussels');
    const nav = screen.getByRole('navigation', { name: /main/i });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Monitor', 'Settlement and verification', 'Fleet', 'Infrastructure', 'Administration']);
    // The dashboard is a lazy chunk with its chart library: its first load may take seconds here.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Welcome to Belgium')).toBeInTheDocument();
    // The dashboard's own parts (issue 9): the week of CEBD statistics.
    expect(await screen.findByText('CEBD statistics for the previous seven days')).toBeInTheDocument();
    expect(window.sessionStorage.getItem('selectedSettlementArea')).toBe(uuid(1));
  });

  it('switching area refreshes the token and lands a consumer on settlement base verification', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
    );
    const router = renderShell('/');
    await waitFor(() => expect(screen.getByTestId('area-selector')).toHaveValue('Belgium'));
    await userEvent.click(screen.getByTestId('area-selector'));
    await userEvent.click(await screen.findByRole('option', { name: 'Norway' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/settlementandverification/settlementbaseverification'),
    );
    expect(auth.refreshToken).toHaveBeenCalled();
    expect(screen.getByTestId('selected-timezone')).toHaveTextContent('Europe/Oslo');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settlement base verification' })).toBeInTheDocument();
    expect(screen.getByTestId('settlement-month')).toBeInTheDocument();
    expect(window.localStorage.getItem('selectedSettlementArea')).toBe(uuid(2));
  });

  it('lands a consumer on its own settlement figures, without a Fleet or a Dashboard entry (issue 18)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
    );
    window.sessionStorage.clear();
    window.localStorage.removeItem('selectedSettlementArea');
    const router = renderShell('/');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/settlementandverification/settlementbaseverification'),
    );
    const nav = screen.getByRole('navigation', { name: /main/i });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
      // No Fleet for a consumer: the menu shows only what the route (and the server's domainRead) admits.
    ).toEqual(['Monitor', 'Settlement and verification', 'Infrastructure', 'Administration']);
  });

  it('brings a returning user back to the area and page left, when the guard still admits it (issue 18)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
    );
    window.sessionStorage.clear();
    window.localStorage.removeItem('selectedSettlementArea');
    // Last time: the event monitor in Norway (not the first area, Belgium).
    useLastVisitStore.getState().remember('ada', { areaId: uuid(2), path: '/monitor/eventmonitor?page=1' });
    const router = renderShell('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/eventmonitor'));
    expect(router.state.location.search).toBe('?page=1');
    expect(screen.getByTestId('area-selector')).toHaveValue('Norway');
    // Each page opened is remembered, in local storage, for this user.
    await act(async () => {
      await router.navigate('/infrastructure/areas/overview');
    });
    await waitFor(() =>
      expect(useLastVisitStore.getState().visits['ada']).toEqual({
        areaId: uuid(2),
        path: '/infrastructure/areas/overview',
      }),
    );
    expect(window.localStorage.getItem('railwatt.lastVisit')).toContain('/infrastructure/areas/overview');
  });

  it('does not bring a user back to a page the guard now refuses: the landing rules apply', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
    );
    window.sessionStorage.clear();
    useLastVisitStore
      .getState()
      .remember('ada', { areaId: uuid(1), path: '/administration/user/viewacrosssettlementareas' });
    const router = renderShell('/');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/settlementandverification/settlementbaseverification'),
    );
    expect(screen.getByTestId('area-selector')).toHaveValue('Belgium');
  });

  it('sends a user without the role to /unauthorized and an unknown path to /notfound', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
    );
    const router = renderShell('/administration/user/viewacrosssettlementareas');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Unauthorized' })).toBeInTheDocument();
    await act(async () => {
      await router.navigate('/no/such/page');
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/notfound'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
  });

  it('logs out through the auth module', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderShell('/');
    await userEvent.click(await screen.findByTestId('logout'));
    expect(auth.signOut).toHaveBeenCalled();
  });
});

describe('profile menu', () => {
  it('closes 100 ms after losing focus, and offers the six languages', () => {
    vi.useFakeTimers();
    render(
      <MantineProvider env="test">
        <ProfileMenu displayName="Ada Lovelace" />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByTestId('user-display-name'));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitemradio')
        .map((b) => b.textContent),
    ).toEqual(['English', 'Dansk', 'Norsk bokmål', 'Svenska', 'Suomi', 'Español']);
    fireEvent.blur(screen.getByTestId('user-display-name'));
    act(() => vi.advanceTimersByTime(99));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stays open while focus moves inside it, and switches language', () => {
    vi.useFakeTimers();
    render(
      <MantineProvider env="test">
        <ProfileMenu displayName="Ada Lovelace" />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByTestId('user-display-name'));
    fireEvent.blur(screen.getByTestId('user-display-name'));
    const dansk = screen.getByRole('menuitemradio', { name: 'Dansk' });
    fireEvent.focus(dansk);
    act(() => vi.advanceTimersByTime(500));
    fireEvent.click(dansk);
    expect(window.localStorage.getItem('language')).toBe('da');
    expect(screen.getByTestId('user-display-name')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'English' }));
  });
});
