import { screen, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppAuth } from '../lib/auth/auth';
import { queryClient } from '../lib/query-client';
import { useMarketStore } from '../lib/stores/market-store';
import { App } from './app';
import { createTestRouter } from './router';

const NORWAY = '00000000-0000-4000-8000-000000000001';
const ADMINISTRATION = '00000000-0000-4000-8000-000000000011';

// An erex-administrator in Norway and the administration area: the selector offers Master Data.
vi.mock('../lib/auth/auth', () => ({
  useAppAuth: (): AppAuth => ({
    isAuthenticated: true,
    username: 'erika',
    displayName: 'Erika Admin',
    functions: [
      { role: 'erex-administrator', areaId: NORWAY },
      { role: 'erex-administrator', areaId: ADMINISTRATION },
    ],
    signOut: vi.fn(),
  }),
  getAccessToken: async () => 'token',
  refreshToken: async () => undefined,
}));

const AREAS = [
  { uuid: NORWAY, name: 'Norway', timeZone: 'Europe/Oslo', settlementPartner: true },
  { uuid: ADMINISTRATION, name: 'Administration', timeZone: 'Europe/Oslo', settlementPartner: true },
];

beforeEach(() => {
  useMarketStore.setState({ areas: [], area: null, timeZone: null, functions: [], rolesInArea: [], rendered: true });
  queryClient.clear();
  window.sessionStorage.clear();
  window.localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(AREAS), { status: 200 })),
  );
});
afterEach(() => vi.unstubAllGlobals());

async function chooseMasterData(start: string) {
  const router = createTestRouter([start]);
  render(<App router={router} mantineEnv="test" />);
  await waitFor(() => expect(screen.getByTestId('area-selector')).toHaveValue('Administration'));
  const visited: string[] = [];
  router.subscribe((state) => visited.push(state.location.pathname));
  await userEvent.click(screen.getByTestId('area-selector'));
  await userEvent.click(await screen.findByRole('option', { name: 'Master Data' }));
  await waitFor(() => expect(useMarketStore.getState().area?.kind).toBe('masterdata'));
  return { router, visited };
}

describe('the area selector (product.md §1, §2 master-data mode)', () => {
  for (const start of ['/', '/administration/organisation/overview', '/infrastructure']) {
    it(`choosing Master Data on ${start} lands on its dashboard, never on /unauthorized`, async () => {
      const { router, visited } = await chooseMasterData(start);
      // The dashboard is a lazy chunk with its chart library: its first load may take seconds here.
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 10_000 }),
      ).toBeInTheDocument();
      expect(screen.getByText('Welcome to Master Data')).toBeInTheDocument();
      // A refused page redirects from an effect: give a late one the time to show.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(router.state.location.pathname).toBe('/');
      expect(visited).not.toContain('/unauthorized');
      expect(screen.queryByRole('heading', { level: 1, name: 'Unauthorized' })).not.toBeInTheDocument();
      const menu = screen.getByRole('navigation', { name: /main/i });
      expect(menu).toHaveTextContent('Master data');
    });
  }
});
