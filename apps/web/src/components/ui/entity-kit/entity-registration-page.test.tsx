import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, minimal, minimalPath, renderEntityKit, versioned } from './testing/render-entity-kit';

const U = {
  type: '11111111-1111-4111-8111-111111111111',
  gridA: '22222222-2222-4222-8222-222222222222',
  gridB: '33333333-3333-4333-8333-333333333333',
  point: '44444444-4444-4444-8444-444444444444',
  grid10: '55555555-5555-4555-8555-555555555555',
  taxNorth: '66666666-6666-4666-8666-666666666666',
  taxSouth: '77777777-7777-4777-8777-777777777777',
  category: '88888888-8888-4888-8888-888888888888',
};

const lookups = {
  [minimalPath('supplymeteringpointtype')]: [minimal(U.type, 'Substation', 'SupplyMeteringPointType')],
  // Out of order on purpose: the picker sorts by name, numerically and case-insensitively.
  [minimalPath('gridarea')]: [
    minimal(U.grid10, 'grid 10', 'GridArea'),
    minimal(U.gridB, 'Grid 2', 'GridArea'),
    minimal(U.gridA, 'Grid 1', 'GridArea'),
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('entity registration form built from the kind descriptor', () => {
  it("shows the kind's fields, reference options sorted by name with 'Please select one'", async () => {
    const user = userEvent.setup();
    mockFetch(lookups);
    renderEntityKit('/kit/registration/supplymeteringpoint');
    expect(await screen.findByLabelText(/^Name/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Location/)).toBeInTheDocument();
    expect(screen.getByLabelText('Excluded from settlement')).toBeInTheDocument();
    const grid = screen.getByRole('textbox', { name: /^Grid area/ });
    expect(grid).toHaveAttribute('placeholder', 'Please select one');
    await user.click(grid);
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Grid 1', 'Grid 2', 'grid 10']),
    );
  });

  it("says 'No available options' when a reference has nothing to pick", async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderEntityKit('/kit/registration/supplymeteringpoint');
    const grid = await screen.findByRole('textbox', { name: /^Grid area/ });
    await user.click(grid);
    const listbox = await waitFor(() => document.getElementById(grid.getAttribute('aria-controls') ?? '')!);
    expect(listbox).toHaveTextContent('No available options');
  });

  it('shows the verbatim messages of product.md §5 and sends nothing while they stand', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(lookups);
    renderEntityKit('/kit/registration/supplymeteringpoint');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The Name field is required')).toBeInTheDocument();
    expect(screen.getByText('The Supply metering point type field is required')).toBeInTheDocument();
    expect(screen.getByText('The Grid area field is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Location/), '91,10');
    await user.type(screen.getByLabelText(/^Name/), 'Sub station');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The value must be a geographic location (e.g. "1,1")')).toBeInTheDocument();
    expect(screen.getByText(/^The name must be the identifier of the supply metering point/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(false);
  });

  it('refuses a grid area crossing whose two areas are one', async () => {
    const user = userEvent.setup();
    mockFetch(lookups);
    renderEntityKit('/kit/registration/gridareacrossing');
    await user.type(await screen.findByLabelText(/^Name/), 'Crossing');
    for (const label of [/^From grid area/, /^To grid area/]) {
      await user.click(screen.getByRole('textbox', { name: label }));
      await user.click(await screen.findByRole('option', { name: 'Grid 1' }));
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The two areas must differ')).toBeInTheDocument();
  });

  it('saves the attributes the contract reads, for the whole range of a new entity', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/save': versioned(U.point, 'NO-SUB-1', 'SupplyMeteringPoint'),
    });
    renderEntityKit('/kit/registration/supplymeteringpoint');
    await user.type(await screen.findByLabelText(/^Name/), 'NO-SUB-1');
    await user.click(screen.getByRole('textbox', { name: /^Supply metering point type/ }));
    await user.click(await screen.findByRole('option', { name: 'Substation' }));
    await user.click(screen.getByRole('textbox', { name: /^Grid area/ }));
    await user.click(await screen.findByRole('option', { name: 'Grid 2' }));
    await user.type(screen.getByLabelText(/^Location/), '59.91,10.75');
    await user.click(screen.getByLabelText('Excluded from settlement'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/kit/overview?kind=supplymeteringpoint'),
    );
    expect(calls.find((c) => c.url.pathname === '/api/domain/save')?.body).toEqual({
      type: 'SupplyMeteringPoint',
      name: 'NO-SUB-1',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      comments: null,
      supplyMeteringPointTypeRef: U.type,
      gridAreaRef: U.gridB,
      location: '59.91,10.75',
      excludedFromSettlement: true,
    });
  });

  it('hides the for_erex_admin_only field from other roles and leaves it out of their save', async () => {
    const user = userEvent.setup();
    const stored = versioned(U.point, 'NO-SUB-1', 'SupplyMeteringPoint', {
      supplyMeteringPointTypeRef: U.type,
      gridAreaRef: U.gridA,
      excludedFromSettlement: true,
    });
    const { calls } = mockFetch({
      ...lookups,
      [`GET /api/domain/supplymeteringpoint/id/${U.point}`]: stored,
      'POST /api/domain/save': stored,
    });
    renderEntityKit(`/kit/registration/supplymeteringpoint?uuid=${U.point}`, {
      roles: ['settlement-area-responsible'],
    });
    expect(await screen.findByDisplayValue('NO-SUB-1')).toBeInTheDocument();
    expect(screen.queryByLabelText('Excluded from settlement')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(true));
    const body = calls.find((c) => c.url.pathname === '/api/domain/save')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ uuid: U.point, gridAreaRef: U.gridA });
    expect(body).not.toHaveProperty('excludedFromSettlement');
    // An edit without a chosen day applies over the latest segment's range (the server's default).
    expect(body).not.toHaveProperty('timeRange');
  });

  it("puts the server's name refusal on the name field", async () => {
    const user = userEvent.setup();
    const message = 'The chosen name already exists for another entity. Please choose a new name';
    mockFetch({
      'POST /api/domain/save': () =>
        new Response(
          JSON.stringify({ code: 'uniquename', message, errors: [{ code: 'uniquename', field: 'name', message }] }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        ),
    });
    renderEntityKit('/kit/registration/contract');
    await user.type(await screen.findByLabelText(/^Name/), 'Supply');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('offers the kinds of the section on the registration page and opens the chosen form', async () => {
    const user = userEvent.setup();
    mockFetch(lookups);
    renderEntityKit('/kit/registration');
    await user.click(await screen.findByRole('textbox', { name: 'Entity type' }));
    await user.click(await screen.findByRole('option', { name: 'Grid area crossing' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/kit/registration/gridareacrossing'));
    expect(await screen.findByRole('textbox', { name: /^From grid area/ })).toBeInTheDocument();
  });

  it('starts with the contract defaults and words number and format rules as product.md §5 does', async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderEntityKit('/kit/registration/pricecategorytimeinterval');
    // Days of the week default to Monday..Sunday (the contract's default).
    await screen.findByLabelText(/^From time/);
    const pills = [...document.querySelectorAll('[class*="Pill-label"]')].map((p) => p.textContent);
    expect(pills).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    await user.type(screen.getByLabelText(/^From time/), '6 am');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The From time field format is invalid')).toBeInTheDocument();
    expect(screen.getByText('The Price category field is required')).toBeInTheDocument();
  });

  it('checks the bounds of number fields', async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderEntityKit('/kit/registration/track');
    await user.type(await screen.findByLabelText(/^Length \(km\)/), '-3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The Length (km) field must be 0 or more')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Length \(km\)/));
    await user.type(screen.getByLabelText(/^Length \(km\)/), 'long');
    expect(await screen.findByText('The Length (km) field must be a decimal')).toBeInTheDocument();
  });
});

describe('rates by tax area on the tax category form', () => {
  const taxAreas = {
    [minimalPath('taxarea')]: [
      minimal(U.taxSouth, 'Sør-Norge', 'TaxArea'),
      minimal(U.taxNorth, 'Nord-Norge', 'TaxArea'),
    ],
  };
  const saveCall = (calls: { url: URL; body?: unknown }[]) => calls.find((c) => c.url.pathname === '/api/domain/save');

  async function addRow(user: ReturnType<typeof userEvent.setup>, number: number, area: string, rate: string) {
    await user.click(screen.getByRole('button', { name: 'Add tax area' }));
    await user.click(await screen.findByRole('textbox', { name: `Tax area ${number}` }));
    await user.click(await screen.findByRole('option', { name: area }));
    await user.type(screen.getByRole('textbox', { name: `Rate ${number}` }), rate);
  }

  it('saves each added row as a tax area with its rate as a number', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...taxAreas,
      'POST /api/domain/save': versioned(U.category, 'Electricity tax', 'TaxCategory'),
    });
    renderEntityKit('/kit/registration/taxcategory');
    await user.type(await screen.findByLabelText(/^Name/), 'Electricity tax');
    await user.type(screen.getByRole('textbox', { name: /^Rate$/ }), '16,69');
    await addRow(user, 1, 'Nord-Norge', '0');
    await addRow(user, 2, 'Sør-Norge', '12,5');
    // A row added and left blank is no row.
    await user.click(screen.getByRole('button', { name: 'Add tax area' }));
    expect(screen.getAllByTestId('area-rate-row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(saveCall(calls)).toBeDefined());
    expect(saveCall(calls)!.body).toEqual({
      type: 'TaxCategory',
      name: 'Electricity tax',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      comments: null,
      rate: 16.69,
      taxAreaRates: [
        { taxAreaRef: U.taxNorth, rate: 0 },
        { taxAreaRef: U.taxSouth, rate: 12.5 },
      ],
    });
  });

  it('refuses a tax area named twice, a rate that is no decimal and a rate without area', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(taxAreas);
    renderEntityKit('/kit/registration/taxcategory');
    await user.type(await screen.findByLabelText(/^Name/), 'Electricity tax');
    await addRow(user, 1, 'Nord-Norge', '1');
    await addRow(user, 2, 'Nord-Norge', '2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Each tax area may appear at most once')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove row 2' }));
    await waitFor(() => expect(screen.queryByText('Each tax area may appear at most once')).not.toBeInTheDocument());
    await user.clear(screen.getByRole('textbox', { name: 'Rate 1' }));
    await user.type(screen.getByRole('textbox', { name: 'Rate 1' }), 'low');
    expect(await screen.findByText('The Rates by tax area field must be a decimal')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Rate 1' }));
    await user.type(screen.getByRole('textbox', { name: 'Rate 1' }), '1');
    await user.click(screen.getByRole('button', { name: 'Add tax area' }));
    await user.type(screen.getByRole('textbox', { name: 'Rate 2' }), '3');
    expect(await screen.findByText('The Tax area field is required')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(false);
  });

  it('opens a stored tax category with its rows and saves them back as they are', async () => {
    const user = userEvent.setup();
    const stored = versioned(U.category, 'Electricity tax', 'TaxCategory', {
      rate: 16.69,
      taxAreaRates: [{ taxAreaRef: U.taxNorth, rate: 0 }],
    });
    const { calls } = mockFetch({
      ...taxAreas,
      [`GET /api/domain/taxcategory/id/${U.category}`]: stored,
      'POST /api/domain/save': stored,
    });
    renderEntityKit(`/kit/registration/taxcategory?uuid=${U.category}`);
    expect(await screen.findByDisplayValue('Electricity tax')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Tax area 1' })).toHaveValue('Nord-Norge'));
    expect(screen.getByRole('textbox', { name: 'Rate 1' })).toHaveValue('0');
    await addRow(user, 2, 'Sør-Norge', '8');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveCall(calls)).toBeDefined());
    expect(saveCall(calls)!.body).toMatchObject({
      uuid: U.category,
      rate: 16.69,
      taxAreaRates: [
        { taxAreaRef: U.taxNorth, rate: 0 },
        { taxAreaRef: U.taxSouth, rate: 8 },
      ],
    });
  });
});
