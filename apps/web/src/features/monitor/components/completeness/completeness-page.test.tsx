import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompletenessRow } from '@railwatt/contracts';
import { mockFetch, renderScreens, type Call } from '../../../../components/ui/screen-harness';
import { MonitorScreen } from '../monitor-screen';
import { NORWAY_AREA as NORWAY } from '../../../../lib/testing/areas';
import { setLanguage } from '../../../../lib/i18n';

afterEach(() => vi.unstubAllGlobals());

const uuid = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** U2 never delivered (CP3); U1's CP2 last delivered 9 January 2026, its CP1 is up to date. */
const ANSWER: CompletenessRow[] = [
  {
    uuid: uuid(2),
    name: 'U2',
    evn: '917600100021',
    ownerUuid: uuid(9),
    ownerName: 'Keeper One',
    lastDelivery: null,
    hoursMissing: null,
    consumptionPoints: [{ uuid: uuid(13), cpid: 'CPID-3', lastDelivery: null, hoursMissing: null, missing: true }],
  },
  {
    uuid: uuid(1),
    name: 'U1',
    evn: '917600100013',
    ownerUuid: uuid(8),
    ownerName: 'Keeper Two',
    lastDelivery: '2026-01-09T12:05:00.000Z',
    hoursMissing: 7630,
    consumptionPoints: [
      { uuid: uuid(11), cpid: 'CPID-1', lastDelivery: '2026-11-23T10:00:00.000Z', hoursMissing: 2, missing: false },
      { uuid: uuid(12), cpid: 'CPID-2', lastDelivery: '2026-01-09T12:05:00.000Z', hoursMissing: 7630, missing: true },
    ],
  },
];

const PATH = '/api/statistics/completenessverification/tractionunits';
const asked = (calls: Call[]) => calls.filter((c) => c.url.pathname === PATH);

const renderCompleteness = (path: string) =>
  renderScreens(
    [
      {
        path: '/monitor/completenessverification',
        element: <MonitorScreen titleKey="routes.monitor.completenessVerification" />,
      },
      {
        path: '/monitor/completenessverificationcp',
        element: <MonitorScreen titleKey="routes.monitor.completenessVerificationCp" />,
      },
    ],
    path,
    { rolesInArea: ['settlement-area-responsible'], timeZone: 'Europe/Oslo', area: NORWAY },
  );

describe('completeness verification', { timeout: 20_000 }, () => {
  it('lists the traction units missing data for 24 hours by default, never-delivered shown as such', async () => {
    const { calls } = mockFetch({ [`GET ${PATH}`]: ANSWER });
    renderCompleteness('/monitor/completenessverification');
    const rows = await screen.findAllByTestId('completeness-row');
    expect(asked(calls)[0]!.url.searchParams.get('threshold')).toBe('24');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('U2917600100021Keeper OneNever deliveredCPID-3');
    // 12:05 UTC is 13:05 in Oslo in January.
    expect(rows[1]).toHaveTextContent('U1917600100013Keeper Two09.01.2026 13:057,630CPID-2');
    expect(screen.getByTestId('completeness-count')).toHaveTextContent('2 found');
  });

  it('refuses a threshold under 24 hours with the spec’s words and asks nothing; a valid one goes to the URL', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ [`GET ${PATH}`]: ANSWER });
    renderCompleteness('/monitor/completenessverification');
    await screen.findAllByTestId('completeness-row');
    const field = screen.getByLabelText('Threshold (hours)');
    await user.clear(field);
    await user.type(field, '12');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Completeness verification threshold minimum 24 hours')).toBeInTheDocument();
    expect(asked(calls)).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/monitor\/completenessverification$/);

    await user.clear(field);
    await user.type(field, '48');
    await user.type(screen.getByLabelText('Filter'), 'keeper two');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(asked(calls).at(-1)!.url.searchParams.get('threshold')).toBe('48'));
    expect(screen.getByTestId('location')).toHaveTextContent('threshold=48');
    expect(screen.getByTestId('location')).toHaveTextContent('q=keeper+two');
    await waitFor(() => expect(screen.getAllByTestId('completeness-row')).toHaveLength(1));
    expect(screen.getByTestId('completeness-row')).toHaveTextContent('U1');
  });

  it('reads a threshold under 24 from the URL as refused, without a call', async () => {
    const { calls } = mockFetch({ [`GET ${PATH}`]: ANSWER });
    renderCompleteness('/monitor/completenessverification?threshold=5');
    expect(await screen.findByText('Completeness verification threshold minimum 24 hours')).toBeInTheDocument();
    expect(asked(calls)).toHaveLength(0);
  });

  it('the cp variant lists each consumption point missing data with its unit, at the threshold of the URL', async () => {
    const { calls } = mockFetch({ [`GET ${PATH}`]: ANSWER });
    renderCompleteness('/monitor/completenessverificationcp?threshold=72');
    const rows = await screen.findAllByTestId('completeness-row');
    expect(asked(calls)[0]!.url.searchParams.get('threshold')).toBe('72');
    // CPID-1 delivered two hours ago: not listed.
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['CPID-3', 'CPID-2']);
    expect(rows[1]).toHaveTextContent('CPID-2U1Keeper Two09.01.2026 13:057,630');
    expect(screen.getByLabelText('Threshold (hours)')).toHaveValue('72');
  });

  it('shows the hours missing in the separators of the user’s language (issue 18 item 2)', async () => {
    await setLanguage('nb');
    try {
      mockFetch({ [`GET ${PATH}`]: ANSWER });
      renderCompleteness('/monitor/completenessverificationcp');
      const rows = await screen.findAllByTestId('completeness-row');
      const hours = within(rows[1]!).getAllByRole('cell').at(-1)!;
      await waitFor(() => expect(hours.textContent?.replace(/[\u00a0\u202f]/g, ' ')).toBe('7 630'));
    } finally {
      await setLanguage('en');
    }
  });
});
