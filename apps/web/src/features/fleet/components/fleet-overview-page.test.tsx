import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderFleet } from '../testing/render-fleet';
import { fleetEntry, fleetPage, organisation, TWO_UNITS, UUID } from '../testing/fixtures';
import { useStatusSummaryStore } from '../hooks/status-summary-store';

const lookups = {
  'GET /api/domain/tractionunittype/minimal/all': [],
  'GET /api/domain/organisations': [],
};

afterEach(() => {
  vi.unstubAllGlobals();
  useStatusSummaryStore.getState().clear();
});

const fleetCalls = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls.filter((c) => c.url.pathname === '/api/domain/fleet');

describe('fleet overview', () => {
  it('asks for page 0 of size 10 first, and goes back to page 1 when the page size changes', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/fleet': ({ url }: { url: URL }) =>
        fleetPage(TWO_UNITS, {
          page: Number(url.searchParams.get('page')),
          size: Number(url.searchParams.get('size')),
          totalElements: 120,
        }),
    });
    renderFleet('/fleet/overview');

    expect(await screen.findAllByTestId('fleet-row')).toHaveLength(2);
    const first = fleetCalls(calls)[0]!;
    expect(first.url.searchParams.get('page')).toBe('0');
    expect(first.url.searchParams.get('size')).toBe('10');
    expect(first.body).toMatchObject({ searchMode: 'OWN_READ_WRITE' });

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(fleetCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('1'));
    expect(screen.getByTestId('location')).toHaveTextContent('page=2');

    await user.click(screen.getByRole('textbox', { name: 'Rows per page' }));
    await user.click(screen.getByRole('option', { name: '50' }));
    await waitFor(() => expect(fleetCalls(calls).at(-1)!.url.searchParams.get('size')).toBe('50'));
    expect(fleetCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('0');
    expect(screen.getByTestId('location')).toHaveTextContent('page=1&size=50');
  });

  it('keeps filters in the URL and sends them', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, 'POST /api/domain/fleet': fleetPage(TWO_UNITS) });
    renderFleet('/fleet/overview?evn=9176&page=3');
    await screen.findAllByTestId('fleet-row');
    expect(fleetCalls(calls)[0]!.body).toMatchObject({ evn: '9176' });
    expect(fleetCalls(calls)[0]!.url.searchParams.get('page')).toBe('2');

    await user.type(screen.getByLabelText('VKM'), 'NSB');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(fleetCalls(calls).at(-1)!.body).toMatchObject({ evn: '9176', vkm: 'NSB' }));
    expect(fleetCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('0');
  });

  it("says 'No entities selected' on export with nothing selected, without calling the server", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, 'POST /api/domain/fleet': fleetPage(TWO_UNITS) });
    renderFleet('/fleet/overview');
    await screen.findAllByTestId('fleet-row');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/excel/domain/export')).toBe(false);
  });

  it('exports the selected uuids', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
      'POST /api/excel/domain/export': () => new Response(new Blob(['xlsx']), { status: 200 }),
    });
    renderFleet('/fleet/overview');
    const rows = await screen.findAllByTestId('fleet-row');
    await user.click(within(rows[1]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/excel/domain/export')?.body).toEqual({ uuids: [UUID.unitB] }),
    );
  });

  it('exports master data for the current filters when nothing is selected, the selection narrowing them', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
      'POST /api/excel/masterdata/export': () => new Response(new Blob(['csv']), { status: 200 }),
    });
    renderFleet('/fleet/overview?evn=9176&vkm=NSB&mode=ALL_READ_ONLY');
    const rows = await screen.findAllByTestId('fleet-row');
    const exports = () => calls.filter((c) => c.url.pathname === '/api/excel/masterdata/export');

    await user.click(screen.getByRole('button', { name: 'Export master data (CSV)' }));
    await waitFor(() => expect(exports()).toHaveLength(1));
    // The same filter body the overview sends to POST /domain/fleet, no uuids.
    expect(exports()[0]!.body).toEqual(fleetCalls(calls).at(-1)!.body);
    expect(exports()[0]!.body).toMatchObject({ searchMode: 'ALL_READ_ONLY', evn: '9176', vkm: 'NSB' });
    expect(exports()[0]!.body).not.toHaveProperty('uuids');

    await user.click(within(rows[1]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export master data (CSV)' }));
    await waitFor(() => expect(exports()).toHaveLength(2));
    expect(exports()[1]!.body).toMatchObject({ evn: '9176', vkm: 'NSB', uuids: [UUID.unitB] });
  });

  it('shows the whole state of every unit, not a clipped badge', async () => {
    mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage([
        fleetEntry(),
        fleetEntry({ uuid: UUID.unitB, status: 'APPROVED_FOR_BILLING', active: false }),
      ]),
    });
    renderFleet('/fleet/overview');
    await screen.findAllByTestId('fleet-row');
    const badges = screen.getAllByTestId('fleet-status');
    expect(badges.map((b) => b.textContent)).toEqual(['Active', 'Approved for billing']);
    for (const badge of badges) expect(badge).toHaveStyle({ minWidth: 'max-content', overflow: 'visible' });
  });

  it('shows the consumption points of an expanded row', async () => {
    const user = userEvent.setup();
    mockFetch({ ...lookups, 'POST /api/domain/fleet': fleetPage(TWO_UNITS) });
    renderFleet('/fleet/overview');
    await screen.findAllByTestId('fleet-row');
    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(screen.getByText('NO_NSB_917600100015_EMS1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByText('NO_NSB_917600100015_EMS1')).not.toBeInTheDocument();
  });

  it('applies the range and comment to every selected uuid and goes to the error summary when some fail', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
      'POST /api/domain/status': {
        success: false,
        items: [
          {
            uuid: UUID.unitA,
            name: 'El18-2241',
            validFrom: '2024-04-30T22:00:00Z',
            validTo: '2070-01-01T00:00:00Z',
            status: 'RETIRED',
          },
          {
            uuid: UUID.unitB,
            name: 'El18-2242',
            validFrom: '2024-04-30T22:00:00Z',
            validTo: '2070-01-01T00:00:00Z',
            status: 'ACTIVE',
            error: 'Approved for billing in the range',
          },
        ],
      },
    });
    renderFleet('/fleet/overview');
    await screen.findAllByTestId('fleet-row');
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Retire' }));

    const dialog = await screen.findByTestId('set-status-dialog');
    const from = within(dialog).getByLabelText(/Valid from/);
    await user.clear(from);
    await user.type(from, '01.05.2024');
    await user.type(within(dialog).getByLabelText('Valid to'), '01.06.2024');
    await user.type(within(dialog).getByLabelText('Comment'), 'scrapped');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/fleet/overview/errorsummary'));
    const status = calls.find((c) => c.url.pathname === '/api/domain/status')!;
    expect(status.body).toEqual({
      action: 'retire',
      uuids: [UUID.unitA, UUID.unitB],
      type: 'TractionUnit',
      timeRange: { start: '2024-04-30T22:00:00Z', end: '2024-05-31T22:00:00Z' },
      comment: 'scrapped',
    });
    const failed = await screen.findByTestId('errorsummary-failed');
    expect(within(failed).getByText('El18-2242')).toBeInTheDocument();
    expect(within(failed).getByText('Approved for billing in the range')).toBeInTheDocument();
    expect(within(screen.getByTestId('errorsummary-succeeded')).getByText('El18-2241')).toBeInTheDocument();
  });

  it("confirms 'success change' when every entity was saved", async () => {
    const user = userEvent.setup();
    mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
      'POST /api/domain/status': {
        success: true,
        items: [
          {
            uuid: UUID.unitA,
            name: 'El18-2241',
            validFrom: '2024-04-30T22:00:00Z',
            validTo: '2070-01-01T00:00:00Z',
            status: 'INACTIVE',
          },
        ],
      },
    });
    renderFleet('/fleet/overview');
    const rows = await screen.findAllByTestId('fleet-row');
    await user.click(within(rows[0]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set inactive' }));
    await user.click(within(await screen.findByTestId('set-status-dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('success change')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/fleet/overview');
  });

  it("sends an empty 'Valid to' as open-ended: the fixed end of time, not midnight of 2070 in Oslo", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
      'POST /api/domain/status': { success: true, items: [] },
    });
    renderFleet('/fleet/overview');
    const rows = await screen.findAllByTestId('fleet-row');
    await user.click(within(rows[0]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set inactive' }));
    const dialog = await screen.findByTestId('set-status-dialog');
    const from = within(dialog).getByLabelText(/Valid from/);
    await user.clear(from);
    await user.type(from, '01.03.2025');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/status')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/domain/status')!.body).toMatchObject({
      action: 'setinactive',
      // 1 March 2025 starts at 00:00 in Oslo (23:00 UTC the day before); no 2069-12-31T23:00Z end.
      timeRange: { start: '2025-02-28T23:00:00Z', end: '2070-01-01T00:00:00Z' },
    });
  });

  it("filters by days at midnight in the area's zone and offers a vehicle keeper only its own owners", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/domain/organisations': ({ url }: { url: URL }) =>
        url.searchParams.get('ownerChoices') === 'true'
          ? [organisation(UUID.ownerA, 'Norske tog AS')]
          : [organisation(UUID.ownerA, 'Norske tog AS'), organisation(UUID.ownerB, 'Vy Tog AS')],
      'POST /api/domain/fleet': fleetPage(TWO_UNITS),
    });
    renderFleet('/fleet/overview?to=2024-07-01');
    await screen.findAllByTestId('fleet-row');
    // Only a "to": the range starts at the start of time and ends at midnight of 1 July in Oslo.
    expect(fleetCalls(calls)[0]!.body).toMatchObject({
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2024-06-30T22:00:00Z' },
    });

    await user.click(screen.getByRole('textbox', { name: 'Responsible / owner' }));
    expect(await screen.findByRole('option', { name: 'Norske tog AS' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Vy Tog AS' })).not.toBeInTheDocument();
  });

  it('offers no write actions to an audit role', async () => {
    mockFetch({ ...lookups, 'POST /api/domain/fleet': fleetPage(TWO_UNITS) });
    renderFleet('/fleet/overview', { roles: ['audit-settlement-area-responsible'] });
    await screen.findAllByTestId('fleet-row');
    expect(screen.queryByRole('button', { name: 'Set status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });
});
