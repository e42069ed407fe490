import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  HOST_KEY,
  interfaceRoute,
  mockFetch,
  pageOf,
  renderInterfaces,
  testedWithHostKey,
} from './testing/render-interfaces';

const BASE = '/api/sftpintegration/interface-configuration';
const ROUTES = [
  interfaceRoute(),
  interfaceRoute({ routeId: 'utilts-out', interfaceType: 'UTILTS', direction: 'OUT', enabled: false }),
];

afterEach(() => vi.unstubAllGlobals());

// Whole screens through Mantine in jsdom: more room than the default 5 s when the machine is busy.
describe('interface overview', { timeout: 20_000 }, () => {
  it('lists the routes with their columns, links to edit and history, and sends the URL filters', async () => {
    const { calls } = mockFetch({ [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES) });
    renderInterfaces('/administration/interface/overview?direction=IN&enabled=true&search=cebd');
    const rows = await screen.findAllByTestId('interface-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('sftp.example.org')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Disabled')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/administration/interface/registration?routeId=cebd-in-no',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      '/administration/interface/history?routeId=cebd-in-no',
    );
    const query = calls[0]!.url.searchParams;
    expect(Object.fromEntries(query)).toEqual({
      direction: 'IN',
      enabled: 'true',
      search: 'cebd',
      page: '0',
      size: '20',
    });
  });

  it('disables the selected routes', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES),
      [`POST ${BASE}/enable-disable`]: [interfaceRoute({ enabled: false })],
    });
    renderInterfaces('/administration/interface/overview');
    const rows = await screen.findAllByTestId('interface-row');
    expect(screen.getByRole('button', { name: 'Disable' })).toBeDisabled();
    await user.click(within(rows[0]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/enable-disable`)?.body).toEqual({
        routeIds: ['cebd-in-no'],
        enabled: false,
      }),
    );
    expect(await screen.findByText('The selected routes are disabled')).toBeInTheDocument();
  });

  it('exports the selected routes, or what the filters select', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES),
      'POST /api/excel/sftp/integrationconfigurations/download': new Response(new Blob(['xlsx']), { status: 200 }),
    });
    renderInterfaces('/administration/interface/overview?interfaceType=UTILTS');
    const rows = await screen.findAllByTestId('interface-row');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname.startsWith('/api/excel'))?.body).toEqual({ interfaceType: 'UTILTS' }),
    );
    await user.click(within(rows[1]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname.startsWith('/api/excel')).at(-1)?.body).toEqual({
        routeIds: ['utilts-out'],
      }),
    );
  });

  it('tests the connection of a route and shows the result with the listing', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES),
      [`POST ${BASE}/test-connection`]: {
        ok: true,
        outcome: 'ok',
        message: 'Connected to sftp.example.org:22; 2 entries in /incoming',
        entries: ['a.xml', 'b.xml'],
      },
    });
    renderInterfaces('/administration/interface/overview');
    const rows = await screen.findAllByTestId('interface-row');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Test connection' }));
    const result = await screen.findByTestId('test-connection-result');
    expect(result).toHaveTextContent('cebd-in-no: Connection succeeded');
    expect(result).toHaveTextContent('Connected to sftp.example.org:22; 2 entries in /incoming');
    expect(screen.getByTestId('test-connection-entries')).toHaveTextContent('a.xml');
    expect(calls.find((c) => c.url.pathname === `${BASE}/test-connection`)?.body).toEqual({ routeId: 'cebd-in-no' });
  });

  it('tells when the test of a saved route pinned the host key the server presented', async () => {
    const user = userEvent.setup();
    mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES),
      [`POST ${BASE}/test-connection`]: testedWithHostKey({ hostKeyPinned: true }),
    });
    renderInterfaces('/administration/interface/overview');
    const rows = await screen.findAllByTestId('interface-row');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Test connection' }));
    await screen.findByTestId('test-connection-result');
    expect(screen.getByTestId('test-connection-host-key')).toHaveTextContent(HOST_KEY);
    expect(screen.getByTestId('test-connection-host-key-pinned')).toHaveTextContent(
      'The route had no host key: this one is now pinned, and a server presenting another key will be refused.',
    );
    expect(screen.queryByTestId('test-connection-host-key-filled')).toBeNull();
  });

  it('shows a failed test in red with the reason', async () => {
    const user = userEvent.setup();
    mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf(ROUTES),
      [`POST ${BASE}/test-connection`]: {
        ok: false,
        outcome: 'auth_failed',
        message: 'Authentication failed at sftp.example.org:22: check the username and credentials',
      },
    });
    renderInterfaces('/administration/interface/overview');
    const rows = await screen.findAllByTestId('interface-row');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByTestId('test-connection-result')).toHaveTextContent('Authentication failed');
  });
});
