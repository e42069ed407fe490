import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, getConfig, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROCESS_PAGES } from '../process-pages';
import { AUDIT, mockFetch, pageOf, renderMonitor, result, type Call } from '../testing/render-monitor';

// These screens follow runs with one-second reads and load their texts on first render: on a busy
// machine a find needs more than Testing Library's default second. Files share a worker's modules
// (isolate: false), so the default comes back after this file.
const defaultTimeout = getConfig().asyncUtilTimeout;
beforeAll(() => configure({ asyncUtilTimeout: 5_000 }));
afterAll(() => configure({ asyncUtilTimeout: defaultTimeout }));

afterEach(() => vi.unstubAllGlobals());

const FIND_BY = '/api/eventlog/procedure-result/findBy';
const lookups = {
  'GET /api/eventlog/procedure-result/statuses': ['initial', 'running', 'success', 'failure'],
  'GET /api/domain/consumptionpoint/minimal/all': [],
  'GET /api/domain/tractionunit/minimal/all': [],
  'GET /api/domain/organisation/minimal/all': [
    {
      uuid: '22222222-2222-4222-8222-222222222222',
      name: 'Vy',
      type: 'Organisation',
      active: true,
      state: 'ACTIVE',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
    },
  ],
};
// The first screen of a file also waits for the features' texts to load.
const findRows = () => screen.findAllByTestId('process-log-row', {}, { timeout: 5_000 });
const logCalls = (calls: Call[]) => calls.filter((c) => c.url.pathname === FIND_BY);

describe('process log', { timeout: 45_000 }, () => {
  it('shows what a run’s extra params chose under its period', async () => {
    mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: pageOf([
        result({ id: 9, procedureName: 'metered-energy-aggregation', runOptions: { aggregation: 'FIRST' } }),
        result({ id: 8, procedureName: 'metered-energy-aggregation' }),
      ]),
    });
    renderMonitor('/monitor/processes/metered-energy-aggregation/log');
    const rows = await findRows();
    expect(within(rows[0]!).getByTestId('log-run-options')).toHaveTextContent('First aggregation');
    expect(within(rows[1]!).queryByTestId('log-run-options')).not.toBeInTheDocument();
  });

  it('asks for page 0 of 20 newest first with the screen’s zone, and shows each run with its status, period and links', async () => {
    const { calls, fetchMock } = mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: pageOf(
        [result({ id: 7, message: 'Validated 31 days' }), result({ id: 6, status: 'failure' })],
        45,
      ),
    });
    renderMonitor('/monitor/processes/cebd-preprocessing/log');
    const rows = await findRows();
    expect(rows).toHaveLength(2);
    expect(Object.fromEntries(logCalls(calls)[0]!.url.searchParams)).toEqual({
      procedureName: 'cebd-preprocessing',
      page: '0',
      size: '20',
      sortBy: 'executeStartTime',
      descendingOrder: 'true',
    });
    const init = fetchMock.mock.calls.find(([url]) => String(url).includes(FIND_BY))![1]!;
    expect(init.headers).toMatchObject({ 'Current-Tenant-ZoneId': 'Europe/Oslo' });

    const first = within(rows[0]!);
    expect(first.getByTestId('result-status')).toHaveTextContent('Success');
    expect(first.getByText('01.01.2024 – 31.01.2024')).toBeInTheDocument();
    expect(first.getByText('01.02.2024 09:00')).toBeInTheDocument();
    expect(first.getByText('Validated 31 days')).toBeInTheDocument();
    expect(first.getByTestId('log-result-link')).toHaveAttribute('href', '/monitor/processresultview?id=7');
    expect(first.getByTestId('log-events-link')).toHaveAttribute('href', '/monitor/eventmonitor?result=7');
    expect(within(rows[1]!).getByTestId('result-status')).toHaveAttribute('data-status', 'failure');
    expect(screen.getByTestId('log-run-link')).toHaveAttribute('href', '/monitor/processes/cebd-preprocessing/run');
  });

  it('sends the URL’s filters as the process log filter (days in the area’s zone), sorts, and a new search starts at page 1', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...lookups, [`POST ${FIND_BY}`]: pageOf([result()], 60) });
    renderMonitor(
      '/monitor/processes/cebd-preprocessing/log?from=2024-02-01&to=2024-02-29&obsFrom=2024-01-01&obsTo=2024-01-31&statuses=failure,bogus&orgs=22222222-2222-4222-8222-222222222222&page=3',
    );
    await findRows();
    const first = logCalls(calls)[0]!;
    expect(first.url.searchParams.get('page')).toBe('2');
    expect(first.body).toEqual({
      processingTime: { start: '2024-01-31T23:00:00Z', end: '2024-02-29T23:00:00Z' },
      observationTimeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
      // An unknown status in a stale link is dropped.
      statuses: ['failure'],
      organisations: ['22222222-2222-4222-8222-222222222222'],
    });

    await user.click(screen.getByRole('button', { name: /Period/ }));
    await waitFor(() => expect(logCalls(calls).at(-1)!.url.searchParams.get('sortBy')).toBe('periodStart'));
    expect(logCalls(calls).at(-1)!.url.searchParams.get('page')).toBe('0');

    await user.type(screen.getByLabelText('User'), 'operator-1');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(logCalls(calls).at(-1)!.body).toMatchObject({ userId: 'operator-1' }));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(logCalls(calls).at(-1)!.body).toEqual({}));
  });

  it('follows a running row every second until it ends, with its progress bar', async () => {
    let asked = 0;
    mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: () => {
        asked += 1;
        return pageOf([
          asked < 2
            ? result({ id: 9, status: 'running', progress: 0.4, executeEndTime: null })
            : result({ id: 9, status: 'success' }),
        ]);
      },
    });
    renderMonitor('/monitor/processes/cebd-preprocessing/log');
    expect(await screen.findByTestId('result-progress')).toHaveTextContent('40 %');
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveAttribute('data-status', 'success'), {
      timeout: 4_000,
    });
    expect(screen.queryByTestId('result-progress')).not.toBeInTheDocument();
  });

  it('reruns a finished row after a yes, in the screen’s zone', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: pageOf([result({ id: 7, status: 'failure' })]),
      'POST /api/processing/cebd-preprocessing/rerun': [result({ id: 7, status: 'initial', progress: 0 })],
    });
    renderMonitor('/monitor/processes/cebd-preprocessing/log');
    await user.click(await screen.findByRole('button', { name: 'Rerun' }));
    expect(await screen.findByText('Run result 7 of CEBD preprocessing again?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/processing/cebd-preprocessing/rerun')).toBeDefined(),
    );
    const rerun = calls.find((c) => c.url.pathname === '/api/processing/cebd-preprocessing/rerun')!;
    expect(rerun.body).toEqual({ rows: [7] });
    expect(rerun.url.searchParams.get('zoneId')).toBe('Europe/Oslo');
    expect(await screen.findByText('The run has started again')).toBeInTheDocument();
  });

  it('gives an audit role the log without run or rerun; metered-energy-aggregation is never rerun', async () => {
    mockFetch({ ...lookups, [`POST ${FIND_BY}`]: pageOf([result({ status: 'failure' })]) });
    const audit = renderMonitor('/monitor/processes/cebd-preprocessing/log', { roles: AUDIT });
    await findRows();
    expect(screen.queryByRole('button', { name: 'Rerun' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('log-run-link')).not.toBeInTheDocument();
    audit.unmount();

    renderMonitor('/monitor/processes/metered-energy-aggregation/log');
    await findRows();
    expect(screen.getByTestId('log-run-link')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rerun' })).not.toBeInTheDocument();
  });

  it('tells a role outside the process readers so instead of asking', async () => {
    const { calls } = mockFetch({});
    renderMonitor('/monitor/processes/cebd-preprocessing/log', { roles: ['train-run-data-provider'] });
    expect(await screen.findByTestId('monitor-not-for-role')).toBeInTheDocument();
    expect(logCalls(calls)).toHaveLength(0);
  });
});

describe('processes index', () => {
  it('lists the processes with Monitor pages, linking logs, and run pages where a process has one', async () => {
    mockFetch({
      'GET /api/domain/processes': [
        { name: 'cebd-preprocessing', category: 'preprocessing', runnable: true },
        { name: 'payload-with-trainprofile', category: null, runnable: false },
        { name: 'combine', category: 'combine', runnable: true },
        { name: 'settlement', category: null, runnable: true },
      ],
    });
    renderMonitor('/monitor/processes');
    const rows = await screen.findAllByTestId('process-row', {}, { timeout: 5_000 });
    // settlement has no Monitor page.
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'CEBD preprocessing',
      'Payload with train profile',
      'Combine',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Run' })).toHaveAttribute(
      'href',
      '/monitor/processes/cebd-preprocessing/run',
    );
    expect(within(rows[1]!).getByText('Log only')).toBeInTheDocument();
    // The run links follow the routes' list: combine has none there (yet).
    const combineHasRun = PROCESS_PAGES.find((p) => p.name === 'combine')?.run ?? false;
    expect(within(rows[2]!).queryByRole('link', { name: 'Run' }) !== null).toBe(combineHasRun);
    expect(within(rows[2]!).getByRole('link', { name: 'Log' })).toHaveAttribute(
      'href',
      '/monitor/processes/combine/log',
    );
    // Each process's configuration is one click from the index (issue 18 item 1); a log-only process has none.
    expect(within(rows[0]!).getByRole('link', { name: 'Configuration' })).toHaveAttribute(
      'href',
      '/monitor/processes/cebd-preprocessing/configuration/view',
    );
    expect(within(rows[2]!).getByRole('link', { name: 'Configuration' })).toHaveAttribute(
      'href',
      '/monitor/processes/combine/configuration/view',
    );
    expect(within(rows[1]!).queryByRole('link', { name: 'Configuration' })).not.toBeInTheDocument();
  });
});
