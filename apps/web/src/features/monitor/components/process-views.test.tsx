import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, getConfig, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EXCHANGE_ROLE_GROUP, SETTLEMENT_ROLE_GROUP } from '@railwatt/contracts';
import { setLanguage } from '../../../lib/i18n';
import { monitorRoutes } from '../monitor.routes';
import { AUDIT, event, mockFetch, pageOf, renderMonitor, result, type Call } from '../testing/render-monitor';

// These screens follow runs with one-second reads and load their texts on first render: on a busy
// machine a find needs more than Testing Library's default second. Files share a worker's modules
// (isolate: false), so the default comes back after this file.
const defaultTimeout = getConfig().asyncUtilTimeout;
beforeAll(() => configure({ asyncUtilTimeout: 5_000 }));
afterAll(() => configure({ asyncUtilTimeout: defaultTimeout }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const FIND_BY = '/api/eventlog/procedure-result/findBy';
const EVENTS = '/api/eventlog/processingevent';
const RUN = '/api/processing/cebd-preprocessing/run';
const lookups = {
  'GET /api/domain/consumptionpoint/minimal/all': [],
  'GET /api/domain/tractionunit/minimal/all': [],
  'GET /api/domain/processes': [
    { name: 'cebd-preprocessing', category: 'preprocessing', runnable: true },
    { name: 'combine', category: 'combine', runnable: true },
  ],
  'GET /api/eventlog/processingevent/errorcodes': ['56', '58'],
  'GET /api/eventlog/processingevent/cebd-preprocessing/errorcodesByProcess': ['58'],
  'POST /api/eventlog/processingevent/summary': [],
};
const posts = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.url.pathname === path);
const SLOW = { timeout: 15_000 };

describe('run page', { timeout: 45_000 }, () => {
  it('runs the previous month in the area’s zone, follows the run without a reload, then shows its outcome and events', async () => {
    // Only the clock's date: timers stay real, so the page's polling runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-02-15T12:00:00Z'));
    const user = userEvent.setup();
    let asked = 0;
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${RUN}`]: result({ id: 11, status: 'initial', progress: 0, executeEndTime: null }),
      [`POST ${FIND_BY}`]: () => {
        asked += 1;
        return pageOf([
          asked < 2
            ? result({
                id: 11,
                status: 'running',
                progress: 15 / 31,
                executeEndTime: null,
                progressCounts: { unit: 'days', done: 15, total: 31, records: 40_000 },
              })
            : result({ id: 11, status: 'success', message: 'Validated 31 area days' }),
        ]);
      },
      [`POST ${EVENTS}`]: pageOf([event({ procedureResultId: 11, errorCode: '56', severity: 'LOW', incidents: 4 })]),
    });
    renderMonitor('/monitor/processes/cebd-preprocessing/run');
    await user.click(await screen.findByTestId('run-submit', {}, SLOW));

    await waitFor(() => expect(posts(calls, RUN)).toHaveLength(1));
    const run = posts(calls, RUN)[0]!;
    expect(run.url.searchParams.get('zoneId')).toBe('Europe/Oslo');
    // January 2024 in Oslo: from its first midnight to February's.
    expect(run.body).toEqual({
      timeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
      refs: [],
    });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/monitor/processes/cebd-preprocessing/run?result=11'),
    );

    const progress = within(await screen.findByTestId('run-progress'));
    // The run's answer (queued, waiting) shows at once; the next read brings its days and records.
    await waitFor(
      () => expect(progress.getByTestId('result-progress')).toHaveTextContent('15 of 31 days, 40,000 records'),
      SLOW,
    );
    expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '48');
    await waitFor(() => expect(progress.getByTestId('result-status')).toHaveAttribute('data-status', 'success'), SLOW);
    expect(posts(calls, FIND_BY).at(-1)!.body).toEqual({ ids: [11] });
    expect(progress.getByText('Validated 31 area days')).toBeInTheDocument();
    expect(await progress.findByTestId('event-code')).toHaveTextContent('56 Too many missing values');
    expect(posts(calls, EVENTS).at(-1)!.body).toEqual({ procedureResultIds: [11] });
    expect(progress.getByTestId('run-log-link')).toHaveAttribute('href', '/monitor/processes/cebd-preprocessing/log');
    expect(progress.getByTestId('run-result-link')).toHaveAttribute('href', '/monitor/processresultview?id=11');
  });

  it('offers metered-energy-aggregation’s option with the second aggregation preselected, and sends the chosen one', async () => {
    const user = userEvent.setup();
    const AGGREGATION_RUN = '/api/processing/metered-energy-aggregation/run';
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${AGGREGATION_RUN}`]: result({ id: 12, status: 'initial', progress: 0, executeEndTime: null }),
      [`POST ${FIND_BY}`]: pageOf([result({ id: 12, status: 'initial', progress: 0, executeEndTime: null })]),
      [`POST ${EVENTS}`]: pageOf([]),
    });
    renderMonitor('/monitor/processes/metered-energy-aggregation/run');
    const option = await screen.findByTestId('run-aggregation', {}, SLOW);
    expect(option).toHaveValue('Second aggregation');
    await user.click(screen.getByTestId('run-submit'));
    await waitFor(() => expect(posts(calls, AGGREGATION_RUN)).toHaveLength(1));
    expect(posts(calls, AGGREGATION_RUN)[0]!.url.searchParams.get('aggregation')).toBe('SECOND');
    // The option travels in the query (calls.md §7 "extra params"), not in the run payload.
    expect(posts(calls, AGGREGATION_RUN)[0]!.body).not.toHaveProperty('aggregation');

    await user.click(option);
    await user.click(await screen.findByRole('option', { name: 'First aggregation' }));
    await user.click(screen.getByTestId('run-submit'));
    await waitFor(() => expect(posts(calls, AGGREGATION_RUN)).toHaveLength(2));
    expect(posts(calls, AGGREGATION_RUN)[1]!.url.searchParams.get('aggregation')).toBe('FIRST');
  });

  it('shows no aggregation option for other processes', async () => {
    mockFetch(lookups);
    renderMonitor('/monitor/processes/cebd-preprocessing/run');
    await screen.findByTestId('run-submit', {}, SLOW);
    expect(screen.queryByTestId('run-aggregation')).not.toBeInTheDocument();
  });

  it('says a run of the same period under way in the spec’s words', async () => {
    const user = userEvent.setup();
    mockFetch({
      ...lookups,
      [`POST ${RUN}`]: new Response(
        JSON.stringify({ code: 'process_already_running', message: 'Process is already running' }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      ),
    });
    renderMonitor('/monitor/processes/cebd-preprocessing/run');
    await user.click(await screen.findByTestId('run-submit', {}, SLOW));
    expect(await screen.findByRole('alert')).toHaveTextContent('Process is already running');
    expect(screen.queryByTestId('run-progress')).not.toBeInTheDocument();
  });

  it('has no run form for an audit role', async () => {
    mockFetch(lookups);
    renderMonitor('/monitor/processes/cebd-preprocessing/run', { roles: AUDIT });
    expect(await screen.findByTestId('monitor-not-for-role', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('run-submit')).not.toBeInTheDocument();
  });
});

describe('processes page', { timeout: 45_000 }, () => {
  it('shows each process’s runs under way with their days and records, and links them', async () => {
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: pageOf([
        result({
          id: 12,
          status: 'running',
          progress: 3 / 31,
          executeEndTime: null,
          progressCounts: { unit: 'days', done: 3, total: 31, records: 864 },
        }),
      ]),
    });
    renderMonitor('/monitor/processes');
    const run = await screen.findByTestId('process-run-under-way', {}, SLOW);
    expect(run).toHaveTextContent('Run 12');
    expect(within(run).getByTestId('result-progress')).toHaveTextContent('3 of 31 days, 864 records');
    expect(within(run).getByRole('link', { name: 'Run 12' })).toHaveAttribute(
      'href',
      '/monitor/processresultview?id=12',
    );
    const row = screen.getAllByTestId('process-row').find((r) => r.textContent?.includes('CEBD preprocessing'))!;
    expect(row).toContainElement(run);
    expect(posts(calls, FIND_BY)[0]!.body).toEqual({ statuses: ['initial', 'running'] });
  });
});

describe('event monitor', { timeout: 45_000 }, () => {
  it('pages by 50 zero-based, filters by the URL (one result’s events), counts, and shows codes with their text', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${EVENTS}`]: pageOf(
        [event({ id: 1 }), event({ id: 2, errorCode: 'unknown-evn', severity: 'MEDIUM' })],
        120,
        50,
      ),
      [`POST ${EVENTS}/count`]: 1200,
    });
    renderMonitor('/monitor/eventmonitor?result=7&from=2024-01-01&to=2024-01-31');
    const rows = await screen.findAllByTestId('event-row', {}, SLOW);
    expect(rows).toHaveLength(2);
    const list = posts(calls, EVENTS)[0]!;
    expect(Object.fromEntries(list.url.searchParams)).toEqual({
      page: '0',
      size: '50',
      sortBy: 'time',
      descendingOrder: 'true',
    });
    expect(list.body).toEqual({
      procedureResultIds: [7],
      timeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
    });
    // The count is a request of its own: it may leave after the page's rows arrived (the API's rate
    // limiter lets five go per second), and the screen says '0 events' until it answers. Its answer
    // is waited for before its body is read.
    // In the separators of the user's language (issue 18 item 2).
    await waitFor(() => expect(screen.getByTestId('event-count')).toHaveTextContent('1,200 events'), SLOW);
    expect(posts(calls, `${EVENTS}/count`)[0]!.body).toEqual(list.body);
    expect(screen.getByTestId('event-result-filter')).toHaveTextContent('Events of result 7');
    expect(within(rows[0]!).getByTestId('event-code')).toHaveTextContent('58 Value outside expected limits');
    expect(within(rows[0]!).getByText('01.01.2024 11:00')).toBeInTheDocument();
    // A slug code reads as its words (its code in the title), a number keeps its number.
    expect(within(rows[1]!).getByTestId('event-code')).toHaveTextContent(/^Unknown EVN$/);
    expect(within(rows[1]!).getByTestId('event-code')).toHaveAttribute('title', 'unknown-evn');
    expect(within(rows[1]!).getByTestId('event-result-link')).toHaveAttribute(
      'href',
      '/monitor/processresultview?id=7',
    );

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(posts(calls, EVENTS).at(-1)!.url.searchParams.get('page')).toBe('1'));
    await user.click(screen.getByRole('button', { name: 'Show the events of every result' }));
    await waitFor(() => expect(posts(calls, EVENTS).at(-1)!.body).not.toHaveProperty('procedureResultIds'));
    // Superseded runs' events only when asked for.
    expect(posts(calls, EVENTS).at(-1)!.body).not.toHaveProperty('includeSuperseded');
    await user.click(screen.getByRole('switch', { name: 'Show the events of superseded runs' }));
    await waitFor(() => expect(posts(calls, EVENTS).at(-1)!.body).toMatchObject({ includeSuperseded: true }));
    await waitFor(() =>
      expect(posts(calls, `${EVENTS}/summary`).at(-1)!.body).toMatchObject({ includeSuperseded: true }),
    );
  });

  it('exports events.xlsx of the filter in the monitor’s sort', async () => {
    const user = userEvent.setup();
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${EVENTS}`]: pageOf([event()]),
      [`POST ${EVENTS}/count`]: 1,
      [`POST ${EVENTS}/export`]: () => new Response(new Blob(['xlsx'])),
    });
    renderMonitor('/monitor/eventmonitor?severities=HIGH&sortBy=errorCode&desc=false');
    await screen.findAllByTestId('event-row', {}, SLOW);
    // Click the export once the screen offers it (it may wait for the first page under load).
    const exportButton = screen.getByRole('button', { name: 'Export events.xlsx' });
    await waitFor(() => expect(exportButton).toBeEnabled());
    await user.click(exportButton);
    await waitFor(() => expect(saved).toEqual(['events.xlsx']));
    const exported = posts(calls, `${EVENTS}/export`)[0]!;
    expect(Object.fromEntries(exported.url.searchParams)).toEqual({ sortBy: 'errorCode', descendingOrder: 'false' });
    expect(exported.body).toEqual({ severities: ['HIGH'] });
    click.mockRestore();
  });
});

describe('process result, event and error views', { timeout: 45_000 }, () => {
  it('shows a result’s fields, its events summed by code and severity, and all 83 of them paged', async () => {
    const user = userEvent.setup();
    const all = Array.from({ length: 83 }, (_, i) =>
      event({ id: 1000 + i, errorCode: i % 3 === 0 ? '56' : 'match-energy-failed', severity: i % 3 ? 'HIGH' : 'LOW' }),
    );
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${FIND_BY}`]: pageOf([result({ id: 7, message: 'Validated 31 area days' })]),
      [`POST ${EVENTS}/summary`]: [
        { errorCode: 'match-energy-failed', severity: 'HIGH', events: 55, incidents: 1200 },
        { errorCode: '56', severity: 'LOW', events: 28, incidents: 28 },
      ],
      [`POST ${EVENTS}`]: (call: Call) => {
        const page = Number(call.url.searchParams.get('page'));
        const size = Number(call.url.searchParams.get('size'));
        const body = call.body as { errorCodes?: string[] };
        const matching = body.errorCodes ? all.filter((e) => body.errorCodes!.includes(e.errorCode)) : all;
        return pageOf(matching.slice(page * size, (page + 1) * size), matching.length, size);
      },
    });
    renderMonitor('/monitor/processresultview?id=7');
    const view = within(await screen.findByTestId('result-view', {}, SLOW));
    expect(view.getByText('Result 7: CEBD preprocessing')).toBeInTheDocument();
    expect(view.getByTestId('result-period')).toHaveTextContent('01.01.2024 – 31.01.2024');
    expect(view.getByTestId('result-message')).toHaveTextContent('Validated 31 area days');
    expect(posts(calls, FIND_BY)[0]!.body).toEqual({ ids: [7] });

    const groups = await screen.findAllByTestId('result-code-group', {}, SLOW);
    expect(
      groups.map((g) =>
        within(g)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Match energy failed', 'High', '55', '1,200'],
      ['56 Too many missing values', 'Low', '28', '28'],
    ]);
    expect(posts(calls, `${EVENTS}/summary`)[0]!.body).toEqual({ procedureResultIds: [7] });
    expect(screen.getByText('Events (83)')).toBeInTheDocument();

    // 50 on the first page, the other 33 on the second.
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(50), SLOW);
    expect(Object.fromEntries(posts(calls, EVENTS)[0]!.url.searchParams)).toMatchObject({ page: '0', size: '50' });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(33), SLOW);
    expect(posts(calls, EVENTS).at(-1)!.url.searchParams.get('page')).toBe('1');
    expect(screen.getByTestId('location')).toHaveTextContent('page=2');

    // A summary row narrows the list to its code and severity, from the first page; again shows all.
    await user.click(within(groups[1]!).getByRole('button', { name: '56 Too many missing values' }));
    await waitFor(() =>
      expect(posts(calls, EVENTS).at(-1)!.body).toEqual({
        procedureResultIds: [7],
        errorCodes: ['56'],
        severities: ['LOW'],
      }),
    );
    expect(posts(calls, EVENTS).at(-1)!.url.searchParams.get('page')).toBe('0');
    await waitFor(() => expect(screen.getByTestId('run-events-chosen')).toHaveTextContent('Showing 28 of 83 events'));
    await user.click(screen.getByRole('button', { name: 'Show all events' }));
    // The whole list again (its first page may come from the cache).
    await waitFor(() => expect(screen.getAllByTestId('event-row')).toHaveLength(50), SLOW);
    expect(screen.queryByTestId('run-events-chosen')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).not.toHaveTextContent('codes=');
  });

  it('says so when the result is not in the area', async () => {
    mockFetch({ ...lookups, [`POST ${FIND_BY}`]: pageOf([]), [`POST ${EVENTS}`]: pageOf([]) });
    renderMonitor('/monitor/processresultview?id=99');
    expect(await screen.findByTestId('result-not-found', {}, SLOW)).toBeInTheDocument();
  });

  it('shows one event by id with links to its result and that result’s events', async () => {
    const { calls } = mockFetch({
      ...lookups,
      [`POST ${EVENTS}`]: pageOf([event({ id: 5, message: 'CPID unknown', procedureResultId: 7 })]),
    });
    renderMonitor('/monitor/eventview?id=5');
    const view = within(await screen.findByTestId('event-view', {}, SLOW));
    expect(view.getByText('CPID unknown')).toBeInTheDocument();
    expect(view.getByTestId('event-code')).toHaveTextContent('58 Value outside expected limits');
    expect(view.getByRole('link', { name: 'Result 7' })).toHaveAttribute('href', '/monitor/processresultview?id=7');
    expect(posts(calls, EVENTS)[0]!.body).toEqual({ ids: [5] });
  });

  it('lists the HIGH events in the error view, narrowed by the URL’s code', async () => {
    const { calls } = mockFetch({ ...lookups, [`POST ${EVENTS}`]: pageOf([event()]) });
    renderMonitor('/monitor/errorview?codes=58');
    await screen.findAllByTestId('event-row', {}, SLOW);
    expect(posts(calls, EVENTS)[0]!.body).toEqual({ errorCodes: ['58'], severities: ['HIGH'] });
    expect(screen.queryByLabelText('Severities')).not.toBeInTheDocument();
  });
});

describe('view routes', () => {
  it('open the error, event and process result views to the settlement role group, keeping the exchange roles', () => {
    for (const path of ['errorview', 'eventview', 'processresultview']) {
      const roles = monitorRoutes.children?.find((c) => c.path === path)?.roles ?? [];
      expect({ path, roles: [...roles].sort() }).toEqual({
        path,
        roles: [...new Set([...SETTLEMENT_ROLE_GROUP, ...EXCHANGE_ROLE_GROUP])].sort(),
      });
    }
  });
});

describe('numbers in the user’s language (issue 18 item 2)', { timeout: 45_000 }, () => {
  const ORG = '00000000-0000-4000-8000-0000000000a1';
  const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

  it('shows an allocation’s energy per payer with the unit in its header and Norwegian separators', async () => {
    await setLanguage('nb');
    try {
      mockFetch({
        ...lookups,
        [`POST ${FIND_BY}`]: pageOf([result({ id: 7, procedureName: 'combine' })]),
        [`POST ${EVENTS}`]: pageOf([]),
        [`POST ${EVENTS}/summary`]: [{ errorCode: '56', severity: 'LOW', events: 1200, incidents: 1200 }],
        'POST /api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds': [
          { procedureResultId: 7, organisation: { uuid: ORG, type: 'Organisation' }, totalSettledConsumption: 1234.5 },
        ],
        'GET /api/domain/organisation/minimal/all': [{ uuid: ORG, name: 'Cargo AS' }],
      });
      renderMonitor('/monitor/processresultview?id=7');
      const panel = within(await screen.findByTestId('result-allocation', {}, SLOW));
      const row = await panel.findByTestId('allocation-row', {}, SLOW);
      expect(panel.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Energi (kWh)');
      await waitFor(() => expect(plain(within(row).getAllByRole('cell')[1]!.textContent)).toBe('1 234,5'));
      // The run's events counted in the same separators.
      await waitFor(() => expect(plain(screen.getByTestId('run-events').textContent)).toContain('Hendelser (1 200)'));
    } finally {
      await setLanguage('en');
    }
  });

  it('shows an event’s incidents with the separators of the user’s language', async () => {
    await setLanguage('nb');
    try {
      mockFetch({ ...lookups, [`POST ${EVENTS}`]: pageOf([event({ id: 5, incidents: 12345 })]) });
      renderMonitor('/monitor/eventview?id=5');
      const view = await screen.findByTestId('event-view', {}, SLOW);
      await waitFor(() => expect(plain(view.textContent)).toContain('12 345'));
      expect(view).not.toHaveTextContent('12345');
    } finally {
      await setLanguage('en');
    }
  });
});
