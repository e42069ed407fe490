import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEntityStatusSummaryStore } from './status-summary-store';
import { mockFetch, minimal, minimalPath, renderEntityKit, versioned } from './testing/render-entity-kit';

const U = {
  a: '11111111-1111-4111-8111-111111111111',
  b: '22222222-2222-4222-8222-222222222222',
  grid: '33333333-3333-4333-8333-333333333333',
  type: '44444444-4444-4444-8444-444444444444',
};

const points = [
  versioned(U.a, 'NO-SUB-1', 'SupplyMeteringPoint', {
    supplyMeteringPointTypeRef: U.type,
    gridAreaRef: U.grid,
    location: '59.9,10.7',
  }),
  versioned(U.b, 'NO-SUB-2', 'SupplyMeteringPoint', { supplyMeteringPointTypeRef: U.type, gridAreaRef: U.grid }),
];
const routes = {
  'GET /api/domain/supplymeteringpoint/all': points,
  [minimalPath('gridarea')]: [minimal(U.grid, 'Oslo grid', 'GridArea')],
  [minimalPath('supplymeteringpointtype')]: [minimal(U.type, 'Substation', 'SupplyMeteringPointType')],
};

afterEach(() => {
  vi.unstubAllGlobals();
  useEntityStatusSummaryStore.getState().clear();
});

describe('entity overview', () => {
  it("shows a tax category's rates by tax area with the areas' names", async () => {
    const north = '55555555-5555-4555-8555-555555555555';
    const south = '66666666-6666-4666-8666-666666666666';
    mockFetch({
      'GET /api/domain/taxcategory/all': [
        versioned(U.a, 'Electricity tax', 'TaxCategory', {
          rate: 16.69,
          taxAreaRates: [
            { taxAreaRef: north, rate: 0 },
            { taxAreaRef: south, rate: 1234.5 },
          ],
        }),
      ],
      [minimalPath('taxarea')]: [minimal(north, 'Nord-Norge', 'TaxArea'), minimal(south, 'Sør-Norge', 'TaxArea')],
    });
    renderEntityKit('/kit/overview?kind=taxcategory');
    const [row] = await screen.findAllByTestId('entity-row');
    await waitFor(() => expect(within(row!).getByText('Nord-Norge: 0; Sør-Norge: 1,234.5')).toBeInTheDocument());
    expect(row).not.toHaveTextContent('[object Object]');
  });

  it('shows a public holiday as dd.MM.yyyy and a VAT percentage with 2 decimals (issue 18 item 2)', async () => {
    mockFetch({
      'GET /api/domain/publicholiday/all': [versioned(U.a, 'Christmas Day', 'PublicHoliday', { date: '2026-12-25' })],
      'GET /api/domain/vatcategory/all': [versioned(U.b, 'Standard VAT', 'VatCategory', { percentage: 25 })],
    });
    const view = renderEntityKit('/kit/overview?kind=publicholiday');
    const [holiday] = await screen.findAllByTestId('entity-row');
    expect(within(holiday!).getByText('25.12.2026')).toBeInTheDocument();
    expect(holiday).not.toHaveTextContent('2026-12-25');
    view.unmount();
    renderEntityKit('/kit/overview?kind=vatcategory');
    const [vat] = await screen.findAllByTestId('entity-row');
    expect(within(vat!).getByText('25.00%')).toBeInTheDocument();
  });

  it('lists the kind of the URL with references by name, and asks for inactive ones when toggled', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes);
    renderEntityKit('/kit/overview?kind=supplymeteringpoint');
    const rows = await screen.findAllByTestId('entity-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('NO-SUB-1')).toBeInTheDocument();
    await waitFor(() => expect(within(rows[0]!).getByText('Oslo grid')).toBeInTheDocument());
    expect(within(rows[0]!).getByText('Substation')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('59.9,10.7')).toBeInTheDocument();
    const lists = () => calls.filter((c) => c.url.pathname === '/api/domain/supplymeteringpoint/all');
    expect(lists()[0]!.url.searchParams.get('includeInactive')).toBe('false');

    await user.click(screen.getByLabelText('Include inactive'));
    await waitFor(() => expect(lists().at(-1)!.url.searchParams.get('includeInactive')).toBe('true'));
    expect(screen.getByTestId('location')).toHaveTextContent('inactive=true');
  });

  it('expands a row to its segments', async () => {
    const user = userEvent.setup();
    mockFetch(routes);
    renderEntityKit('/kit/overview?kind=supplymeteringpoint');
    const rows = await screen.findAllByTestId('entity-row');
    await within(rows[0]!).findByText('Oslo grid');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Expand row' }));
    expect(await screen.findByTestId('entity-segments')).toHaveTextContent('01.01.1970');
  });

  it("says 'No entities selected' on export with nothing selected, and exports the selected uuids", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...routes,
      'POST /api/excel/domain/export': () => new Response(new Blob(['xlsx']), { status: 200 }),
    });
    renderEntityKit('/kit/overview?kind=supplymeteringpoint');
    const rows = await screen.findAllByTestId('entity-row');
    await within(rows[0]!).findByText('Oslo grid');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/excel/domain/export')).toBe(false);

    await user.click(within(rows[1]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/excel/domain/export')?.body).toEqual({ uuids: [U.b] }),
    );
  });

  it('changes the status of the selection and shows the failures on the error summary', async () => {
    const user = userEvent.setup();
    const item = (uuid: string, name: string, error?: string) => ({
      uuid,
      name,
      validFrom: '2026-01-01T00:00:00Z',
      validTo: '2070-01-01T00:00:00Z',
      status: error ? 'ACTIVE' : 'INACTIVE',
      ...(error ? { error } : {}),
    });
    const { calls } = mockFetch({
      ...routes,
      'POST /api/domain/status': {
        success: false,
        items: [item(U.a, 'NO-SUB-1', 'Segments must not overlap'), item(U.b, 'NO-SUB-2')],
      },
    });
    renderEntityKit('/kit/overview?kind=supplymeteringpoint');
    const rows = await screen.findAllByTestId('entity-row');
    // References show by name once the lookups answer; the rows then stay as they are.
    await within(rows[0]!).findByText('Oslo grid');
    await user.click(within(rows[0]!).getByRole('checkbox'));
    await waitFor(() => expect(screen.getByTestId('selected-count')).toHaveTextContent('1 selected'));
    await user.click(within(rows[1]!).getByRole('checkbox'));
    await waitFor(() => expect(screen.getByTestId('selected-count')).toHaveTextContent('2 selected'));
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set inactive' }));
    const dialog = await screen.findByTestId('set-status-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/kit/overview/errorsummary'));
    expect(calls.find((c) => c.url.pathname === '/api/domain/status')?.body).toMatchObject({
      action: 'setinactive',
      type: 'SupplyMeteringPoint',
      uuids: [U.a, U.b],
    });
    expect(await screen.findByTestId('errorsummary-failed')).toHaveTextContent('Segments must not overlap');
    expect(screen.getByTestId('errorsummary-succeeded')).toHaveTextContent('NO-SUB-2');
  });

  it('offers register, set status and edit to writers only', async () => {
    mockFetch(routes);
    renderEntityKit('/kit/overview?kind=supplymeteringpoint', { roles: ['audit-settlement-area-responsible'] });
    await screen.findAllByTestId('entity-row');
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set status' })).not.toBeInTheDocument();
    expect(screen.queryAllByRole('link', { name: 'Edit' })).toHaveLength(0);
    expect(screen.getAllByRole('link', { name: 'History' })[0]).toHaveAttribute(
      'href',
      `/kit/segmentshistory?uuid=${U.a}&type=supplymeteringpoint`,
    );
  });

  it('switches kind through the selector, kept in the URL', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes);
    renderEntityKit('/kit/overview');
    await screen.findAllByTestId('entity-row');
    await user.click(screen.getByRole('textbox', { name: 'Entity type' }));
    await user.click(await screen.findByRole('option', { name: 'Contract' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('kind=contract'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/contract/all')).toBe(true));
  });
});
