import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobRun, Role } from '@railwatt/contracts';
import { createFakeXhr } from '../../../lib/api/testing/fake-xhr';
import { setLanguage } from '../../../lib/i18n';
import { entry, mockFetch, page, renderDataLog } from '../testing/render-datalog';

afterEach(() => vi.unstubAllGlobals());

const lookups = {
  'GET /api/eventlog/datalog/types': ['CEBD_IMPORT', 'SDV_IMPORT', 'ORDERED_REPORT'],
  'GET /api/eventlog/datalog/statuses': ['OK', 'ERROR', 'REJECTED'],
};
const listCalls = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls.filter((c) => c.url.pathname === '/api/eventlog/datalog');

describe('settlement data log', { timeout: 20_000 }, () => {
  it('asks for page 0 of 100 newest first, pages, and goes back to page 1 when the size changes', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': ({ url }: { url: URL }) =>
        page([entry(), entry()], 250, Number(url.searchParams.get('size'))),
    });
    renderDataLog('/monitor/datalog');
    expect(await screen.findAllByTestId('datalog-row')).toHaveLength(2);
    const first = listCalls(calls)[0]!.url.searchParams;
    expect(Object.fromEntries(first)).toMatchObject({
      page: '0',
      size: '100',
      sortBy: 'logTimeStamp',
      descendingOrder: 'true',
      enableObservationTime: 'false',
    });

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('1'));

    await user.click(screen.getByRole('textbox', { name: 'Rows per page' }));
    await user.click(screen.getByRole('option', { name: '10' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.url.searchParams.get('size')).toBe('10'));
    expect(listCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('0');
  });

  it('sorts by a column, and a new search resets sort to logTimeStamp and page to 1', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, 'GET /api/eventlog/datalog': page([entry()], 300) });
    renderDataLog('/monitor/datalog?page=2');
    await screen.findAllByTestId('datalog-row');
    await user.click(screen.getByRole('button', { name: /File name/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.url.searchParams.get('sortBy')).toBe('fileName'));
    await user.click(screen.getByRole('button', { name: /File name/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.url.searchParams.get('descendingOrder')).toBe('false'));

    await user.type(screen.getByLabelText('File name'), 'EXP_agg');
    await user.type(screen.getByLabelText('Entity identifiers'), 'CP1, CP2');
    await user.type(screen.getByLabelText('Train id'), 'T42');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.url.searchParams.get('fileName')).toBe('EXP_agg'));
    const last = Object.fromEntries(listCalls(calls).at(-1)!.url.searchParams);
    expect(last).toMatchObject({
      sortBy: 'logTimeStamp',
      descendingOrder: 'true',
      page: '0',
      entityIdentifiers: 'CP1,CP2',
      trainId: 'T42',
    });
  });

  it('sends the observation range only with the toggle on, and the types and statuses chosen', async () => {
    const { calls } = mockFetch({ ...lookups, 'GET /api/eventlog/datalog': page([entry()]) });
    renderDataLog(
      '/monitor/datalog?obsFrom=2024-01-01&obsTo=2024-01-31&observation=true&types=CEBD_IMPORT,SDV_IMPORT&statuses=ERROR&from=2025-03-01',
    );
    await screen.findAllByTestId('datalog-row');
    const query = Object.fromEntries(listCalls(calls)[0]!.url.searchParams);
    expect(query).toMatchObject({
      enableObservationTime: 'true',
      // Days in the area's zone (Europe/Oslo); the "to" day is included.
      observationTimeRange: '2023-12-31T23:00:00Z,2024-01-31T23:00:00Z',
      processingTimeRange: '2025-02-28T23:00:00Z,2070-01-01T00:00:00Z',
      typeName: 'CEBD_IMPORT,SDV_IMPORT',
      status: 'ERROR',
    });
  });

  it('shows statuses with their labels, red for REJECTED and ERROR, and wraps long file names', async () => {
    const long = `${'x'.repeat(32)}${'y'.repeat(10)}.xml`;
    mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([
        entry({ messageStatus: 'REJECTED', fileName: long }),
        entry({ messageStatus: 'PARTLY_REJECTED' }),
      ]),
    });
    renderDataLog('/monitor/datalog');
    const [rejected, partly] = await screen.findAllByTestId('datalog-status');
    expect(rejected).toHaveTextContent('Rejected');
    expect(partly).toHaveTextContent('Partly rejected');
    expect(rejected!.getAttribute('style')).toContain('red');
    expect(partly!.getAttribute('style')).not.toContain('red');
    const name = screen.getAllByTestId('datalog-file-name')[0]!;
    expect(name.querySelectorAll('br')).toHaveLength(1);
  });

  it('expands a row to its time series, hiding the values count for a train-run delete', async () => {
    const user = userEvent.setup();
    const series = {
      startTime: '2024-01-01T00:00:00.000Z',
      endTime: '2024-01-02T00:00:00.000Z',
      timeSeriesType: 'cebd_active_energy_consumed',
      entityIdentifier: 'CP-1',
      valuesCount: 288,
      message: 'fine',
    };
    mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([
        entry({ messageType: 'CEBD_IMPORT', messageLogTimeSeries: [series] }),
        entry({ messageType: 'TRAIN_RUN_DELETE', messageLogTimeSeries: [{ ...series, entityIdentifier: 'TR-9' }] }),
      ]),
    });
    renderDataLog('/monitor/datalog');
    const [cebd, deleted] = await screen.findAllByRole('button', { name: 'Expand row' });
    await user.click(cebd!);
    const details = await screen.findByTestId('datalog-time-series');
    expect(within(details).getByText('CP-1')).toBeInTheDocument();
    expect(within(details).getByText('288')).toBeInTheDocument();
    expect(within(details).getByText('01.01.2024 01:00')).toBeInTheDocument();
    await user.click(deleted!);
    const tables = await screen.findAllByTestId('datalog-time-series');
    expect(within(tables[1]!).getByText('TR-9')).toBeInTheDocument();
    expect(within(tables[1]!).queryByText('Values')).toBeNull();
  });

  it('shows a series’ values count in the separators of the user’s language (issue 18 item 2)', async () => {
    const user = userEvent.setup();
    await setLanguage('nb');
    try {
      mockFetch({
        ...lookups,
        'GET /api/eventlog/datalog': page([
          entry({
            messageType: 'CEBD_IMPORT',
            messageLogTimeSeries: [
              {
                startTime: '2024-01-01T00:00:00.000Z',
                endTime: '2024-02-01T00:00:00.000Z',
                timeSeriesType: 'cebd_active_energy_consumed',
                entityIdentifier: 'CP-1',
                valuesCount: 12345,
                message: null,
              },
            ],
          }),
        ]),
      });
      renderDataLog('/monitor/datalog');
      await user.click(await screen.findByRole('button', { name: 'Utvid rad' }));
      const details = await screen.findByTestId('datalog-time-series');
      const cells = within(details)
        .getAllByRole('cell')
        .map((c) => c.textContent?.replace(/[\u00a0\u202f]/g, ' '));
      expect(cells).toContain('12 345');
      expect(cells).not.toContain('12345');
      // The type as words (issue 18 item 3), its key in the title.
      expect(cells).toContain('Aktiv energi forbrukt (CEBD)');
      expect(cells).not.toContain('cebd_active_energy_consumed');
    } finally {
      await setLanguage('en');
    }
  });

  it.each([
    // Re-import is the administrator's alone (product.md §6).
    ['erex-administrator', ['Re-import', 'Download', 'Set to error']],
    ['train-run-data-provider', ['Download']],
    ['audit-erex-settlement-operator', ['Download']],
    ['erex-settlement-operator', ['Download']],
  ] as const)('shows %s only the buttons the rules allow', async (role, expected) => {
    mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([
        entry({ messageType: 'SDV_IMPORT', messageStatus: 'REJECTED' }),
        entry({ messageType: 'ORDERED_REPORT', messageStatus: 'RUNNING', fileName: null }),
      ]),
    });
    renderDataLog('/monitor/datalog', { roles: [role] });
    await screen.findAllByTestId('datalog-row');
    const buttons = screen.getAllByTestId('datalog-actions').flatMap((g) =>
      within(g)
        .queryAllByRole('button')
        .map((b) => b.textContent),
    );
    expect(buttons.sort()).toEqual([...expected].sort());
  });

  it('offers a Netherlands aggregation export its response (RES_) and, when rejected, the administrator a re-export', async () => {
    const user = userEvent.setup();
    const rejected = entry({
      messageType: 'METERED_ENERGY_AGGREGATION',
      messageStatus: 'REJECTED',
      messageText: 'First aggregation of 2026-10-01: 24 hourly values; rejected: unknown point',
      fileName: 'MEA_RU1_2026-10-01_FIRST.csv',
    });
    const accepted = entry({
      messageType: 'METERED_ENERGY_AGGREGATION',
      messageStatus: 'ACCEPTED',
      fileName: 'MEA_TPA_2026-10-01_FIRST.csv',
    });
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([rejected, accepted]),
      'POST /api/eventlog/datalog/download': () => new Response(new Blob(['REJECTED;unknown point'])),
    });
    renderDataLog('/monitor/datalog', { roles: ['erex-administrator'], kind: 'netherlands' });
    const [first, second] = await screen.findAllByTestId('datalog-actions');
    const labels = (group: HTMLElement) =>
      within(group)
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(labels(first!)).toEqual(['Re-export', 'Download', 'Download response']);
    expect(labels(second!)).toEqual(['Download', 'Download response']);
    await user.click(within(first!).getByRole('button', { name: 'Download response' }));
    const downloads = () => calls.filter((c) => c.url.pathname === '/api/eventlog/datalog/download');
    await waitFor(() => expect(downloads()).toHaveLength(1));
    expect(downloads()[0]!.url.searchParams.get('response')).toBe('true');
    expect(downloads()[0]!.body).toEqual({ id: rejected.id, messageType: 'METERED_ENERGY_AGGREGATION' });
  });

  it('sets a report to error after a yes, and shows the answer in the row', async () => {
    const user = userEvent.setup();
    const report = entry({ messageType: 'ORDERED_REPORT', messageStatus: 'RUNNING', fileName: null });
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([report]),
      [`POST /api/processing/tasks/set-to-error/${report.id}`]: {
        messageStatus: 'ERROR',
        messageText: 'Set to error by erex-administrator',
      },
    });
    renderDataLog('/monitor/datalog');
    await user.click(await screen.findByRole('button', { name: 'Set to error' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Set to error by erex-administrator')).toBeInTheDocument();
    expect(screen.getByTestId('datalog-status')).toHaveTextContent('Error');
    expect(calls.filter((c) => c.url.pathname.includes('set-to-error'))).toHaveLength(1);
  });

  it("shows the server's refusal of a re-import in the error modal", async () => {
    const user = userEvent.setup();
    const rejected = entry({ messageType: 'SDV_IMPORT', messageStatus: 'REJECTED' });
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([rejected]),
      'POST /api/eventlog/datalog/reimport': new Response(
        JSON.stringify({ status: 400, error: 'Bad Request', timestamp: 'x', message: 'Could not reimport timeseries' }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      ),
    });
    renderDataLog('/monitor/datalog');
    await user.click(await screen.findByRole('button', { name: 'Re-import' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/Could not reimport timeseries/)).toBeInTheDocument();
    const call = calls.find((c) => c.url.pathname === '/api/eventlog/datalog/reimport')!;
    expect(call.body).toEqual({ id: rejected.id, messageType: 'SDV_IMPORT' });
  });

  it.each([
    ['erex-administrator', true],
    ['settlement-area-responsible', true],
    ['erex-settlement-operator', true],
    ['train-run-data-provider', true],
    ['audit-settlement-area-responsible', false],
    ['audit-erex-settlement-operator', false],
    ['exchange-operator', false],
  ] as const)('offers the time-series upload to %s: %s', async (role, offered) => {
    mockFetch({ ...lookups, 'GET /api/eventlog/datalog': page([entry()]) });
    renderDataLog('/monitor/datalog', { roles: [role as Role] });
    await screen.findAllByTestId('datalog-row');
    expect(screen.queryAllByRole('button', { name: 'Upload time series' })).toHaveLength(offered ? 1 : 0);
  });

  it('uploads a file from the data log, lists it at once and again when its import job ends', async () => {
    const user = userEvent.setup();
    const JOB = '6f0c8a52-3c1e-4a7e-9d55-1c2f3e4a5b6c';
    let reads = 0;
    const run = (status: JobRun['status']): JobRun => ({
      id: JOB,
      name: 'timeseries-import',
      status,
      progress: status === 'success' ? 1 : 0.5,
      message: status === 'success' ? 'Imported 48 values of 4 time series' : null,
      dataLogId: 21,
      attempts: 1,
      createdAt: '2026-11-23T10:00:00Z',
      startedAt: '2026-11-23T10:00:01Z',
      finishedAt: null,
    });
    const { calls } = mockFetch({
      ...lookups,
      'GET /api/eventlog/datalog': page([entry()]),
      [`GET /api/jobs/${JOB}`]: () => run(++reads < 2 ? 'running' : 'success'),
    });
    const fake = createFakeXhr(() => ({
      body: { success: true, sheetParseResults: [], async: true, dataLogIds: [21], jobIds: [JOB] },
    }));
    vi.stubGlobal('XMLHttpRequest', fake.Constructor);
    renderDataLog('/monitor/datalog', { roles: ['settlement-area-responsible'] });
    await screen.findAllByTestId('datalog-row');
    const before = listCalls(calls).length;
    await user.click(screen.getByRole('button', { name: 'Upload time series' }));
    const dialog = await screen.findByTestId('upload-dialog');
    await user.upload(within(dialog).getByTestId('upload-input'), [new File(['x'], 'day.xml', { type: 'text/xml' })]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('upload-file-status')).toHaveAttribute('data-status', 'finished_async'),
    );
    expect(new URL(fake.latest().url, 'http://localhost').pathname).toBe('/api/cebd/import');
    // Accepted: the list is read again (the entry is RUNNING) ...
    await waitFor(() => expect(listCalls(calls).length).toBe(before + 1));
    // ... and once more when the job ended (the entry has its outcome).
    await waitFor(() => expect(within(dialog).getByTestId('job-progress')).toHaveAttribute('data-status', 'success'), {
      timeout: 3000,
    });
    await waitFor(() => expect(listCalls(calls).length).toBe(before + 2));
    expect(dialog).toHaveAttribute('data-color', 'green');
  }, 15_000);

  it('makes no call for a role outside the data-log policy', async () => {
    const { calls } = mockFetch(lookups);
    renderDataLog('/monitor/datalog', { roles: ['cp-admin'] });
    expect(await screen.findByTestId('datalog-not-for-role')).toBeInTheDocument();
    expect(listCalls(calls)).toHaveLength(0);
  });
});

describe('master-data data log', { timeout: 20_000 }, () => {
  it('lists transfers with their download buttons and downloads by content type', async () => {
    const user = userEvent.setup();
    const row = {
      id: 7,
      fileName: 'fleet.xlsx',
      fileNameResponse: 'receipt.xml',
      type: 'MASTER_DATA_TRANSFER_IN',
      status: 'REJECTED',
      mode: 'MANUAL',
      messageType: 'EXCEL_DOMAIN_IMPORT',
      messageText: 'Row 2: bad',
      logTimeStamp: '2025-03-01T10:00:00.000Z',
      username: 'erex-administrator',
      areaName: 'Norway',
    };
    const { calls } = mockFetch({
      'GET /api/masterdata/datalog': {
        content: [row],
        page: { totalPages: 1, totalElements: 1, number: 0, size: 100 },
      },
      'GET /api/masterdata/datalog/types': ['MASTER_DATA_TRANSFER_OUT', 'MASTER_DATA_TRANSFER_IN'],
      'GET /api/masterdata/datalog/statuses': ['OK', 'FAILED', 'REJECTED'],
      // A fresh Response per call: a body is read once.
      'GET /api/masterdata/datalog/download': () => new Response(new Blob(['x'])),
    });
    renderDataLog('/masterdata/datalog', { kind: 'masterdata' });
    const tableRow = await screen.findByTestId('masterdata-datalog-row');
    expect(within(tableRow).getByText('Master data transfer in')).toBeInTheDocument();
    expect(within(tableRow).getByText('Norway')).toBeInTheDocument();
    const list = calls.find((c) => c.url.pathname === '/api/masterdata/datalog')!;
    expect(Object.fromEntries(list.url.searchParams)).toMatchObject({ page: '0', size: '100' });
    await user.click(within(tableRow).getByRole('button', { name: 'Download' }));
    await user.click(within(tableRow).getByRole('button', { name: 'Download response' }));
    const downloads = () => calls.filter((c) => c.url.pathname === '/api/masterdata/datalog/download');
    await waitFor(() => expect(downloads()).toHaveLength(2));
    expect(downloads().map((d) => d.url.searchParams.get('downloadContentType'))).toEqual(['TRANSFER', 'RESPONSE']);
  });
});
