import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { HOST_KEY, interfaceRoute, mockFetch, pageOf, renderInterfaces } from './testing/render-interfaces';

const BASE = '/api/sftpintegration/interface-configuration';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, change: string, over: Record<string, unknown> = {}) => {
  const { createdAt: _a, createdBy: _b, updatedAt: _c, updatedBy: _d, ...route } = interfaceRoute();
  return {
    id,
    routeId: 'cebd-in-no',
    change,
    changedFields: [],
    credentialsChanged: false,
    changeComment: null,
    changedBy: 'erex-administrator',
    changedAt: '2026-03-01T09:30:00.000Z',
    route,
    ...over,
  };
};

describe('interface history and information', () => {
  it('lists every change of a route with comment, who and when', async () => {
    const { calls } = mockFetch({
      [`GET ${BASE}/route-history`]: [
        // A new server drops the old one's pinned host key.
        entry(2, 'UPDATED', {
          changedFields: ['hostname', 'hostKeyFingerprint'],
          credentialsChanged: true,
          changeComment: 'New server',
        }),
        entry(1, 'CREATED'),
      ],
    });
    renderInterfaces('/administration/interface/history?routeId=cebd-in-no');
    const rows = await screen.findAllByTestId('interface-history-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('01.03.2026 10:30')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Updated')).toBeInTheDocument();
    expect(
      within(rows[0]!).getByText('Hostname, Host key (SHA256 fingerprint), Credentials replaced'),
    ).toBeInTheDocument();
    expect(within(rows[0]!).getByText('New server')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Created')).toBeInTheDocument();
    expect(calls[0]!.url.searchParams.get('routeId')).toBe('cebd-in-no');
  });

  it('explains each configured route in words', async () => {
    mockFetch({
      [`GET ${BASE}/filtered-routes`]: pageOf([
        interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
        interfaceRoute({ routeId: 'report-out', interfaceType: 'REPORT', direction: 'OUT', backupPath: null }),
      ]),
    });
    renderInterfaces('/administration/interface/config/information');
    const table = await screen.findByTestId('interface-information');
    expect(table).toHaveTextContent(
      'CEBD files are fetched from /incoming on the Internal server sftp.example.org:22 as railwatt. Read files are kept in /backup.',
    );
    expect(table).toHaveTextContent('Reports files are delivered to /incoming');
    const [pinned, notPinned] = within(table).getAllByTestId('interface-host-key');
    expect(pinned).toHaveTextContent(HOST_KEY);
    expect(notPinned).toHaveTextContent('Not pinned yet');
  });
});
