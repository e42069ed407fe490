import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ParameterOverview, ParameterType } from '@railwatt/contracts';
import { AUDIT, mockFetch, renderMonitor, type Call } from '../../testing/render-monitor';
import { setLanguage } from '../../../../lib/i18n';
import { defaultMonths, monthsInZone } from './parameter-months';

afterEach(() => vi.unstubAllGlobals());

const OVERVIEW = '/api/timeseries/parameterOverview';
const INVALIDATE = `${OVERVIEW}/invalidate`;
/** January to March 2024, as the URL keeps it. */
const PAGE = '/monitor/parameteroverview?from=2024-01&to=2024-03';
/** Those months in Oslo: DST starts on 31 March, so April begins at 22:00 UTC. */
const Q1 = { start: '2023-12-31T23:00:00Z', end: '2024-03-31T22:00:00Z' };

const HEAVY = '11111111-1111-4111-8111-111111111111';
const LIGHT = '22222222-2222-4222-8222-222222222222';
const REGIONAL = '33333333-3333-4333-8333-333333333333';

const TYPES: ParameterType[] = [
  { typeName: 'consumption_factor_trainprofile', refKind: 'trainprofile', unit: 'kWh/gtkm', resolution: 'P1M' },
  { typeName: 'consumption_factor_trafficcategory', refKind: 'trafficcategory', unit: 'kWh/gtkm', resolution: 'P1M' },
  { typeName: 'on_account_energy', refKind: 'organisation', unit: 'kWh', resolution: 'P1M' },
];

const table = (): ParameterOverview => ({
  periods: [
    { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
    { start: '2024-01-31T23:00:00Z', end: '2024-02-29T23:00:00Z' },
    { start: '2024-02-29T23:00:00Z', end: '2024-03-31T22:00:00Z' },
  ],
  rows: [
    { ref: { uuid: HEAVY, type: 'trainprofile', name: 'Heavy freight' }, values: [0.02, null, 0.0212345678] },
    { ref: { uuid: LIGHT, type: 'trainprofile', name: 'Light passenger' }, values: [null, null, null] },
    { ref: { uuid: REGIONAL, type: 'trainprofile', name: 'Regional' }, values: [1.5, 2, null] },
  ],
});

const routes = (extra: Record<string, unknown> = {}) => ({
  [`GET ${OVERVIEW}/types`]: TYPES,
  [`GET ${OVERVIEW}`]: table(),
  ...extra,
});

const reads = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.pathname === OVERVIEW);
const posts = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.url.pathname === path);
// The first screen of a file also waits for the features' texts to load.
const findRows = () => screen.findAllByTestId('parameter-row', {}, { timeout: 8_000 });
const rowOf = (name: string) => screen.getAllByTestId('parameter-row').find((r) => within(r).queryByText(name))!;
/** A blob's text as written, its byte-order mark kept (jsdom's Blob has no text()). */
const bytesOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('parameter overview', { timeout: 45_000 }, () => {
  it('asks for the type and months of the URL and shows a column per month and each entity’s values', async () => {
    const { calls } = mockFetch(routes());
    renderMonitor(PAGE, { roles: AUDIT });
    const rows = await findRows();
    expect(Object.fromEntries(reads(calls)[0]!.url.searchParams)).toEqual({
      typeName: 'consumption_factor_trainprofile',
      ...Q1,
    });
    const headers = within(screen.getByTestId('parameter-table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Name', '01.2024', '02.2024', '03.2024']);
    expect(rows.map(cellTexts)).toEqual([
      // At most four decimals (the file keeps six); a month without a value is empty.
      ['Heavy freight', '0.02', '', '0.0212'],
      ['Light passenger', '', '', ''],
      ['Regional', '1.5', '2', ''],
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('parameter-type')).toHaveValue('Consumption factor per train profile (kWh/gtkm)'),
    );
  });

  it('shows the values in the separators of the user’s language (issue 18 item 2)', async () => {
    await setLanguage('nb');
    try {
      const nb = table();
      nb.rows[2]!.values = [1234.5, 2, null];
      mockFetch(routes({ [`GET ${OVERVIEW}`]: nb }));
      renderMonitor(PAGE, { roles: AUDIT });
      await findRows();
      const plain = (row: HTMLElement) => cellTexts(row).map((c) => c?.replace(/[\u00a0\u202f]/g, ' '));
      await waitFor(() => expect(plain(rowOf('Regional'))).toEqual(['Regional', '1 234,5', '2', '']));
      expect(plain(rowOf('Heavy freight'))).toEqual(['Heavy freight', '0,02', '', '0,0212']);
    } finally {
      await setLanguage('en');
    }
  });

  it('shows this year up to next month in the area’s zone without months in the URL', async () => {
    const { calls } = mockFetch(routes());
    renderMonitor('/monitor/parameteroverview', { roles: AUDIT });
    await findRows();
    const { from, to } = defaultMonths(new Date(), 'Europe/Oslo');
    expect(from).toMatch(/^\d{4}-01$/);
    const asked = reads(calls)[0]!.url.searchParams;
    expect({ start: asked.get('start'), end: asked.get('end') }).toEqual(monthsInZone(from, to, 'Europe/Oslo'));
  });

  it('hides the rows without any value when asked, and keeps that in the URL', async () => {
    const user = userEvent.setup();
    mockFetch(routes());
    renderMonitor(PAGE, { roles: AUDIT });
    await findRows();
    await user.click(screen.getByLabelText('Hide empty rows'));
    await waitFor(() => expect(screen.getAllByTestId('parameter-row')).toHaveLength(2));
    expect(screen.queryByText('Light passenger')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('hideEmpty=true');
  });

  it('lets a writer save a value for every month of the period of the selected rows, then reads again', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes({ [`POST ${OVERVIEW}`]: { months: 3, values: 6 } }));
    renderMonitor(PAGE);
    await findRows();
    await user.click(within(rowOf('Heavy freight')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(within(rowOf('Regional')).getByRole('checkbox', { name: 'Select row' }));
    await user.type(screen.getByLabelText('Value'), '0.5');
    await user.click(screen.getByTestId('parameter-save'));

    expect(await screen.findByText('Saved. Values written: 6')).toBeInTheDocument();
    expect(posts(calls, OVERVIEW).map((c) => c.body)).toEqual([
      {
        typeName: 'consumption_factor_trainprofile',
        refs: [
          { uuid: HEAVY, type: 'trainprofile' },
          { uuid: REGIONAL, type: 'trainprofile' },
        ],
        // The period defaults to the shown months.
        timeRange: Q1,
        value: 0.5,
      },
    ]);
    await waitFor(() => expect(reads(calls)).toHaveLength(2));
  });

  it('edits a row: its last value in the value field and that row alone selected', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes({ [`POST ${OVERVIEW}`]: { months: 3, values: 3 } }));
    renderMonitor(PAGE);
    await findRows();
    await user.click(within(rowOf('Heavy freight')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByRole('button', { name: 'Edit Regional' }));
    expect(screen.getByLabelText('Value')).toHaveValue('2');
    expect(rowOf('Regional')).toHaveAttribute('aria-selected', 'true');
    expect(rowOf('Heavy freight')).toHaveAttribute('aria-selected', 'false');

    await user.click(screen.getByTestId('parameter-save'));
    await waitFor(() => expect(posts(calls, OVERVIEW)).toHaveLength(1));
    expect(posts(calls, OVERVIEW)[0]!.body).toMatchObject({
      refs: [{ uuid: REGIONAL, type: 'trainprofile' }],
      value: 2,
    });
  });

  it('refuses to write with nothing selected, in the spec’s words', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes());
    renderMonitor(PAGE);
    await findRows();
    await user.type(screen.getByLabelText('Value'), '1');
    await user.click(screen.getByTestId('parameter-save'));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByTestId('parameter-remove'));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('removes the values of the period of the selected rows after a yes', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes({ [`POST ${INVALIDATE}`]: { months: 3, values: 3 } }));
    renderMonitor(PAGE);
    await findRows();
    await user.click(within(rowOf('Heavy freight')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByTestId('parameter-remove'));
    expect(
      await screen.findByText('Remove the values from 01.2024 to 03.2024 of the selected entities (1)?'),
    ).toBeInTheDocument();
    expect(posts(calls, INVALIDATE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('Removed. Values removed: 3')).toBeInTheDocument();
    expect(posts(calls, INVALIDATE).map((c) => c.body)).toEqual([
      { typeName: 'consumption_factor_trainprofile', refs: [{ uuid: HEAVY, type: 'trainprofile' }], timeRange: Q1 },
    ]);
    await waitFor(() => expect(reads(calls)).toHaveLength(2));
  });

  it('names the type in the error modal when removing fails', async () => {
    const user = userEvent.setup();
    mockFetch(
      routes({
        [`POST ${INVALIDATE}`]: () =>
          new Response(JSON.stringify({ timestamp: 'now', status: 500, error: 'Internal Server Error' }), {
            status: 500,
            statusText: 'Internal Server Error',
            headers: { 'content-type': 'application/json' },
          }),
      }),
    );
    renderMonitor(PAGE);
    await findRows();
    await user.click(within(rowOf('Regional')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByTestId('parameter-remove'));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        'Something went wrong when attempting to invalidate Consumption factor per train profile',
      ),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).getByText('Error')).toBeInTheDocument();
  });

  it('gives an audit role the table and the download without selection, value, save, edit or remove', async () => {
    mockFetch(routes());
    renderMonitor(PAGE, { roles: AUDIT });
    await findRows();
    expect(screen.getByTestId('parameter-download')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select row' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Value')).not.toBeInTheDocument();
    expect(screen.queryByTestId('parameter-save')).not.toBeInTheDocument();
    expect(screen.queryByTestId('parameter-remove')).not.toBeInTheDocument();
    expect(screen.queryByTestId('parameter-edit')).not.toBeInTheDocument();
  });

  it('downloads the shown table as CSV named after the type', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    const saved: string[] = [];
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          blobs.push(blob);
          return 'blob:x';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    mockFetch(routes());
    renderMonitor(`${PAGE}&hideEmpty=true`, { roles: AUDIT });
    await findRows();
    await user.click(screen.getByTestId('parameter-download'));
    expect(saved).toEqual(['parameter-overview-consumption_factor_trainprofile.csv']);
    const text = await bytesOf(blobs[0]!);
    expect(text).toBe('\uFEFFName,01.2024,02.2024,03.2024\r\nHeavy freight,0.02,,0.021235\r\nRegional,1.5,2,\r\n');
    click.mockRestore();
    Object.assign(URL, original);
  });

  it('reads another type when one is chosen, with nothing of the previous type selected', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(routes());
    renderMonitor(PAGE);
    await findRows();
    await user.click(within(rowOf('Regional')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByTestId('parameter-type'));
    await user.click(await screen.findByRole('option', { name: 'On-account energy per organisation (kWh)' }));
    await waitFor(() => expect(reads(calls).at(-1)!.url.searchParams.get('typeName')).toBe('on_account_energy'));
    expect(screen.getByTestId('location')).toHaveTextContent('type=on_account_energy');
    await findRows();
    expect(screen.getByTestId('selected-count')).toHaveTextContent('0 selected');
  });
});
