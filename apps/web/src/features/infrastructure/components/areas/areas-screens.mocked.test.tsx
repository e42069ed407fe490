import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAreaSummaryStore } from '../../hooks/area-summary-store';
import { FAKE_DRAWING } from '../../testing/fake-area-map';
import { area, mockFetch, renderAreas } from '../../testing/render-areas';

// jsdom cannot run WebGL: the screens get a stand-in map (the real one is tested in components/ui/map
// with a fake engine, and in the browser journey e2e/src/areas.e2e.ts).
vi.mock('../../../../components/ui/map/lazy-area-map', async () => {
  const { FakeAreaMap } = await import('../../testing/fake-area-map');
  return { LazyAreaMap: FakeAreaMap };
});

afterEach(() => {
  vi.unstubAllGlobals();
  useAreaSummaryStore.getState().clear();
});

const EUSA = '00000000-0000-4000-8000-0000000000e1';
const PRICE = '00000000-0000-4000-8000-0000000000b1';
const TAX = '00000000-0000-4000-8000-0000000000c1';
const GRID = area();
const OTHER = area({ uuid: '00000000-0000-4000-8000-000000000002', name: 'NO2 grid', parentRef: EUSA });
const minimal = (uuid: string, name: string, type: string) => ({
  uuid,
  name,
  type,
  active: true,
  state: 'ACTIVE',
  timeRange: { start: '2015-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
});
const areaCalls = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls.filter((c) => c.url.pathname === '/api/domain/fleet/areas');

describe('areas overview', () => {
  it('asks for settlement areas, active only, by default and sends the chosen toggles', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/fleet/areas': ({ url }: { url: URL }) =>
        url.searchParams.get('areaTypes') === 'settlementarea'
          ? [area({ name: 'Norway', type: 'SettlementArea', uuid: '00000000-0000-4000-8000-0000000000aa' })]
          : [GRID, OTHER],
      'GET /api/domain/energyusesettlementarea/minimal/all': [minimal(EUSA, 'NO1 EUSA', 'EnergyUseSettlementArea')],
    });
    renderAreas('/infrastructure/areas/overview');

    expect(await screen.findAllByTestId('area-row')).toHaveLength(1);
    const first = areaCalls(calls)[0]!.url.searchParams;
    expect(Object.fromEntries(first)).toEqual({
      areaTypes: 'settlementarea',
      includeActive: 'true',
      includeInactive: 'false',
    });
    expect(screen.getByTestId('areas-map')).toHaveTextContent('Norway');

    await user.click(screen.getByRole('checkbox', { name: 'Inactive' }));
    await waitFor(() => expect(areaCalls(calls).at(-1)!.url.searchParams.get('includeInactive')).toBe('true'));
    expect(screen.getByTestId('location')).toHaveTextContent('inactive=true');

    await user.click(screen.getByRole('textbox', { name: 'Area types' }));
    await user.click(await screen.findByRole('option', { name: 'Grid area' }));
    await waitFor(() =>
      expect(areaCalls(calls).at(-1)!.url.searchParams.get('areaTypes')).toBe('settlementarea,gridarea'),
    );
    const rows = await screen.findAllByTestId('area-row');
    expect(rows).toHaveLength(2);
    // The parent column names the energy use settlement area.
    await waitFor(() => expect(within(rows[1]!).getByText('NO1 EUSA')).toBeInTheDocument());
  });

  it('fits the map to the selection and exports only what is selected', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/fleet/areas': [GRID, OTHER],
      'GET /api/domain/energyusesettlementarea/minimal/all': [],
      'POST /api/excel/domain/export': new Response(new Blob(['xlsx']), { status: 200 }),
    });
    renderAreas('/infrastructure/areas/overview?types=gridarea');
    const rows = await screen.findAllByTestId('area-row');

    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/excel/domain/export')).toBe(false);

    await user.click(within(rows[1]!).getByRole('checkbox'));
    // The map follows the selection on its next render (a slow machine shows the render in between).
    await waitFor(() => expect(screen.getByTestId('areas-map')).toHaveAttribute('data-focus', OTHER.uuid));
    expect(screen.getByTestId('areas-map')).toHaveTextContent('NO1 gridNO2 grid');
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/excel/domain/export')?.body).toEqual({ uuids: [OTHER.uuid] }),
    );
  });

  it("expands a row into the area's segments", async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/domain/fleet/areas': [GRID],
      [`GET /api/domain/gridarea/versions/${GRID.uuid}`]: [
        {
          id: 1,
          name: 'NO1 grid',
          timeRange: { start: '2015-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
          active: true,
          state: 'ACTIVE',
          comments: 'drawn',
          lastModified: '2020-01-01T00:00:00.000Z',
          lastModifiedBy: 'erex-administrator',
          attributes: {},
        },
      ],
    });
    renderAreas('/infrastructure/areas/overview?types=gridarea');
    const [row] = await screen.findAllByTestId('area-row');
    await user.click(within(row!).getByRole('button', { name: 'Expand row' }));
    const segments = await screen.findByTestId('area-segments');
    await waitFor(() => expect(segments).toHaveTextContent('drawn'));
    expect(segments).toHaveTextContent('01.01.2015');
  });

  it('sends one status change per area type and shows the failures on the error summary', async () => {
    const user = userEvent.setup();
    const price = area({ uuid: '00000000-0000-4000-8000-000000000003', name: 'NO1', type: 'PriceArea' });
    const { calls } = mockFetch({
      'GET /api/domain/fleet/areas': [GRID, price],
      'POST /api/domain/status': ({ body }: { body: unknown }) => {
        const { type, uuids } = body as { type: string; uuids: string[] };
        const item = {
          uuid: uuids[0],
          name: type === 'GridArea' ? 'NO1 grid' : 'NO1',
          validFrom: '2024-01-01T00:00:00.000Z',
          validTo: '2070-01-01T00:00:00.000Z',
          status: 'INACTIVE',
        };
        return type === 'GridArea'
          ? { success: false, items: [{ ...item, status: 'ACTIVE', error: 'Not allowed' }] }
          : { success: true, items: [item] };
      },
    });
    renderAreas('/infrastructure/areas/overview?types=gridarea,pricearea');
    await screen.findAllByTestId('area-row');
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set inactive' }));
    await user.click(within(await screen.findByTestId('set-status-dialog')).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/infrastructure/areas/overview/errorsummary'),
    );
    const statusCalls = calls.filter((c) => c.url.pathname === '/api/domain/status');
    expect(statusCalls.map((c) => (c.body as { type: string }).type).sort()).toEqual(['GridArea', 'PriceArea']);
    expect(await screen.findByTestId('areas-errorsummary-failed')).toHaveTextContent('Not allowed');
    expect(screen.getByTestId('areas-errorsummary-succeeded')).toHaveTextContent('NO1');
  });
});

describe('area registration', () => {
  const lookups = {
    'GET /api/domain/fleet/areas': [OTHER],
    'GET /api/domain/energyusesettlementarea/minimal/all': [minimal(EUSA, 'NO1 EUSA', 'EnergyUseSettlementArea')],
    'GET /api/domain/pricearea/minimal/all': [minimal(PRICE, 'NO1 price', 'PriceArea')],
    'GET /api/domain/taxarea/minimal/all': [minimal(TAX, 'Nord-Norge', 'TaxArea')],
  };

  async function fillGridArea(user: ReturnType<typeof userEvent.setup>) {
    await user.type(await screen.findByLabelText(/^Name/), 'New grid');
    await user.click(screen.getByRole('textbox', { name: /^Parent area/ }));
    await user.click(await screen.findByRole('option', { name: 'NO1 EUSA' }));
  }

  it('saves a grid area drawn on the map with its parent, then lists its type', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/save': ({ body }: { body: Record<string, unknown> }) => ({
        ...body,
        uuid: '00000000-0000-4000-8000-000000000009',
        active: true,
        state: 'ACTIVE',
        timeRange: { start: '1970-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
        segments: [],
        lastModified: '2026-01-01T00:00:00.000Z',
        lastModifiedBy: 'erex-administrator',
        comments: null,
        allInactive: false,
      }),
    });
    renderAreas('/infrastructure/areas/registration');
    await fillGridArea(user);
    // The map fits the chosen parent.
    await waitFor(() => expect(screen.getByTestId('area-registration-map')).toHaveAttribute('data-focus', EUSA));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('area-geometry-error')).toHaveTextContent('Draw the area on the map');
    expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'fake-draw' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/infrastructure/areas/overview?types=gridarea'),
    );
    const saved = calls.find((c) => c.url.pathname === '/api/domain/save')!.body as Record<string, unknown>;
    expect(saved).toMatchObject({
      type: 'GridArea',
      name: 'New grid',
      energyUseSettlementAreaRef: EUSA,
      geometry: { type: 'Polygon', coordinates: [[...FAKE_DRAWING, FAKE_DRAWING[0]]] },
    });
  });

  it("sends the grid area's chosen price area and tax area, and leaves out the ones not chosen", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, 'POST /api/domain/save': new Response('{}', { status: 500 }) });
    renderAreas('/infrastructure/areas/registration');
    await fillGridArea(user);
    await user.click(screen.getByRole('button', { name: 'fake-draw' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(true));
    const first = calls.find((c) => c.url.pathname === '/api/domain/save')!.body as Record<string, unknown>;
    expect(first).not.toHaveProperty('priceAreaRef');
    expect(first).not.toHaveProperty('taxAreaRef');

    await user.click(screen.getByRole('textbox', { name: 'Price area' }));
    await user.click(await screen.findByRole('option', { name: 'NO1 price' }));
    await user.click(screen.getByRole('textbox', { name: 'Tax area' }));
    await user.click(await screen.findByRole('option', { name: 'Nord-Norge' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/domain/save')).toHaveLength(2));
    expect(calls.filter((c) => c.url.pathname === '/api/domain/save')[1]!.body).toMatchObject({
      type: 'GridArea',
      energyUseSettlementAreaRef: EUSA,
      priceAreaRef: PRICE,
      taxAreaRef: TAX,
    });
  });

  it('offers a price area and a tax area only to grid areas', async () => {
    const user = userEvent.setup();
    mockFetch(lookups);
    renderAreas('/infrastructure/areas/registration');
    expect(await screen.findByRole('textbox', { name: 'Tax area' })).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /^Area type/ }));
    await user.click(await screen.findByRole('option', { name: 'Surveillance area' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Tax area' })).not.toBeInTheDocument());
    expect(screen.queryByRole('textbox', { name: 'Price area' })).not.toBeInTheDocument();
  });

  it("shows the server's refusals where they are fixed: overlap under the map, a taken name on the name", async () => {
    const user = userEvent.setup();
    let answer = 'nooverlap';
    mockFetch({
      ...lookups,
      'POST /api/domain/save': () =>
        answer === 'nooverlap'
          ? new Response(
              JSON.stringify({
                status: 400,
                error: 'Bad Request',
                code: 'nooverlap',
                message: 'Areas must not overlap: New grid and NO2 grid',
                errors: [
                  { code: 'nooverlap', field: 'geometry', message: 'Areas must not overlap: New grid and NO2 grid' },
                ],
              }),
              { status: 400 },
            )
          : new Response(
              JSON.stringify({
                status: 400,
                error: 'Bad Request',
                code: 'uniquename',
                errors: [
                  {
                    code: 'uniquename',
                    field: 'name',
                    message: 'The chosen name already exists for another entity. Please choose a new name',
                  },
                ],
              }),
              { status: 400 },
            ),
    });
    renderAreas('/infrastructure/areas/registration');
    await fillGridArea(user);
    await user.click(screen.getByRole('button', { name: 'fake-draw' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('area-geometry-error')).toHaveTextContent(
      'Areas must not overlap (New grid and NO2 grid)',
    );

    answer = 'uniquename';
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The chosen name already exists for another entity. Please choose a new name'),
    ).toBeInTheDocument();
  });

  it('reads the polygon from a GeoJSON file and explains a file that holds something else', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, 'POST /api/domain/save': new Response('{}', { status: 500 }) });
    const { container } = renderAreas('/infrastructure/areas/registration');
    await fillGridArea(user);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;

    const point = new File([JSON.stringify({ type: 'Point', coordinates: [10, 60] })], 'point.geojson');
    await user.upload(input, point);
    expect(await screen.findByTestId('area-file-error')).toHaveTextContent(
      'An area must be a Polygon or MultiPolygon, not Point.',
    );

    const ring = [
      [10, 59],
      [11, 59],
      [11, 60],
      [10, 59],
    ];
    const feature = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } };
    await user.upload(input, new File([JSON.stringify(feature)], 'area.geojson'));
    await waitFor(() => expect(screen.queryByTestId('area-file-error')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(true));
    const saved = calls.find((c) => c.url.pathname === '/api/domain/save')!.body as Record<string, unknown>;
    expect(saved.geometry).toEqual({ type: 'Polygon', coordinates: [ring] });
  });

  it('opens an existing area for editing with its polygon and keeps its other attributes', async () => {
    const user = userEvent.setup();
    const stored = {
      uuid: GRID.uuid,
      name: 'NO1 grid',
      type: 'GridArea',
      active: true,
      state: 'ACTIVE',
      timeRange: { start: '2015-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
      segments: [],
      lastModified: '2026-01-01T00:00:00.000Z',
      lastModifiedBy: 'erex-administrator',
      comments: null,
      allInactive: false,
      geometry: GRID.geometry,
      code: 'GA-NO1',
      energyUseSettlementAreaRef: EUSA,
      priceAreaRef: PRICE,
      taxAreaRef: TAX,
    };
    const { calls } = mockFetch({
      ...lookups,
      [`GET /api/domain/gridarea/id/${GRID.uuid}`]: stored,
      'POST /api/domain/save': stored,
    });
    renderAreas(`/infrastructure/areas/registration?uuid=${GRID.uuid}&type=gridarea`);
    expect(await screen.findByLabelText(/^Name/)).toHaveValue('NO1 grid');
    // The grid area's price area and tax area are chosen as stored.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Tax area' })).toHaveValue('Nord-Norge'));
    expect(screen.getByRole('textbox', { name: 'Price area' })).toHaveValue('NO1 price');
    // The stored polygon opens closed, ready to be dragged (the fake map shows no drawing toolbar).
    expect(screen.getByRole('button', { name: 'fake-draw' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/domain/save')!.body).toMatchObject({
      uuid: GRID.uuid,
      code: 'GA-NO1',
      energyUseSettlementAreaRef: EUSA,
      priceAreaRef: PRICE,
      taxAreaRef: TAX,
      geometry: GRID.geometry,
    });
  });
});

describe('segments history', () => {
  it('lists every version of an area with its parent', async () => {
    mockFetch({
      [`GET /api/domain/gridarea/versions/${GRID.uuid}`]: [
        {
          id: 1,
          name: 'NO1 grid',
          timeRange: { start: '2015-01-01T00:00:00.000Z', end: '2024-01-01T00:00:00.000Z' },
          active: true,
          state: 'ACTIVE',
          comments: 'first',
          lastModified: '2020-01-01T00:00:00.000Z',
          lastModifiedBy: 'erex-administrator',
          attributes: { energyUseSettlementAreaRef: EUSA },
        },
        {
          id: 2,
          name: 'NO1 grid',
          timeRange: { start: '2024-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
          active: false,
          state: 'INACTIVE',
          comments: null,
          lastModified: '2024-01-01T00:00:00.000Z',
          lastModifiedBy: 'erex-administrator',
          attributes: { energyUseSettlementAreaRef: EUSA },
        },
      ],
      'GET /api/domain/energyusesettlementarea/minimal/all': [minimal(EUSA, 'NO1 EUSA', 'EnergyUseSettlementArea')],
    });
    renderAreas(`/infrastructure/segmentshistory?uuid=${GRID.uuid}&type=gridarea`);
    const rows = await screen.findAllByTestId('segment-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('01.01.2015');
    expect(rows[0]).toHaveTextContent('first');
    await waitFor(() => expect(rows[1]).toHaveTextContent('NO1 EUSA'));
    expect(rows[1]).toHaveTextContent('Inactive');
  });
});
