import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CebdDay, DashboardStatisticsItem, Role } from '@railwatt/contracts';
import { DASHBOARD_CATEGORIES } from '@railwatt/contracts';
import { mockFetch, renderScreens, type Call } from '../../../components/ui/screen-harness';
import { DashboardHome } from './dashboard-home';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const area = {
  uuid: 'uuid-norway',
  name: 'Norway',
  key: 'norway',
  kind: 'norway' as const,
  timeZone: 'Europe/Oslo',
  tenantId: 'uuid-norway',
};

const day = (d: string, over: Partial<CebdDay> = {}): CebdDay => ({
  day: d,
  files: 0,
  failedFiles: 0,
  records: 0,
  consumptionPoints: 0,
  preprocessed: 0,
  valid: 0,
  withErrors: 0,
  ...over,
});
const item = (type: (typeof DASHBOARD_CATEGORIES)[number], over: Partial<DashboardStatisticsItem> = {}) => ({
  type,
  initial: 0,
  running: 0,
  success: 0,
  notSuccess: 0,
  other: 0,
  sum: 0,
  queue: 0,
  uniqueCPIDs: null,
  ...over,
});

const answers = {
  'GET /api/statistics/cebd': {
    zoneId: 'Europe/Oslo',
    days: [
      ...['17', '18', '19', '20', '21'].map((d) => day(`2026-11-${d}`)),
      day('2026-11-22', {
        files: 3,
        failedFiles: 1,
        records: 95,
        consumptionPoints: 4,
        preprocessed: 90,
        valid: 80,
        withErrors: 7,
      }),
      day('2026-11-23', { files: 1, records: 12, consumptionPoints: 1 }),
    ],
  },
  'GET /api/statistics/dashboardstatistics': DASHBOARD_CATEGORIES.map((type) =>
    type === 'combine'
      ? item(type, { running: 1, success: 4, notSuccess: 2, sum: 7, queue: 3, uniqueCPIDs: 12 })
      : item(type),
  ),
  'GET /api/statistics/dashboardevents': [
    { processName: 'combine', errorCode: 'match-energy-failed', incidents: 5, severity: 'HIGH' },
    { processName: 'cebd-preprocessing', errorCode: '58', incidents: 2, severity: 'LOW' },
  ],
  'GET /api/statistics/queue-size': Object.fromEntries(
    DASHBOARD_CATEGORIES.map((c) => [c, c === 'combine' ? 3 : c === 'cebd-import' ? 2 : 0]),
  ),
  'GET /api/statistics/offset-lag': [
    { stage: 'cebd-preprocessing', waiting: 40, oldest: '2026-11-20T10:05:00.000Z' },
    { stage: 'combine', waiting: 0, oldest: null },
    { stage: 'train-preprocessing', waiting: 2, oldest: '2026-11-19' },
  ],
};

const renderDashboard = (roles: Role[] = ['settlement-area-responsible']) =>
  renderScreens([{ path: '/', element: <DashboardHome titleKey="routes.dashboard" /> }], '/', {
    rolesInArea: roles,
    timeZone: 'Europe/Oslo',
    area,
  });

const callsTo = (calls: Call[], path: string) => calls.filter((c) => c.url.pathname === path);

describe('dashboard home', { timeout: 20_000 }, () => {
  it('shows the CEBD days as a chart with a 5-tick y axis rounded to tens, and their table', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(answers);
    renderDashboard();
    const card = await screen.findByTestId('cebd-statistics');
    await waitFor(() => expect(within(card).getAllByTestId('cebd-day')).toHaveLength(7));
    expect(callsTo(calls, '/api/statistics/cebd')[0]!.url.searchParams.get('zoneId')).toBe('Europe/Oslo');
    const rows = within(card).getAllByTestId('cebd-day');
    // 22.11.2026: 3 files, 1 failed, 95 records, 4 points, 80 valid, 7 with errors.
    expect(rows[5]).toHaveTextContent(/22\.11\.2026\s*3\s*1\s*95\s*4\s*80\s*7/);
    // Files: the highest day has 3 -> 0..40 in tens.
    const chart = within(card).getByRole('img', { name: 'CEBD Files per day' });
    expect(chart).toHaveAttribute('data-y-ticks', '0,10,20,30,40');
    // Each axis names its unit: the days along, the measure counted up.
    expect(chart).toHaveAttribute('data-x-label', 'Day');
    expect(chart).toHaveAttribute('data-y-label', 'Files');
    // Records: 95 -> steps of 30 (95 / 4 = 23.75, up to tens).
    await user.click(within(card).getByRole('radio', { name: 'Records' }));
    expect(within(card).getByRole('img', { name: 'CEBD Records per day' })).toHaveAttribute(
      'data-y-ticks',
      '0,30,60,90,120',
    );
    expect(within(card).getByRole('img', { name: 'CEBD Records per day' })).toHaveAttribute('data-y-label', 'Records');
  });

  it('lists every category with its columns, the queue sizes and the waiting work', async () => {
    mockFetch(answers);
    renderDashboard();
    const table = await screen.findByTestId('category-statistics');
    await waitFor(() => expect(within(table).getAllByTestId('category-row')).toHaveLength(DASHBOARD_CATEGORIES.length));
    const combine = within(table)
      .getAllByTestId('category-row')
      .find((r) => r.textContent?.startsWith('Combine'));
    // initial 0, running 1, success 4, not success 2, other 0, sum 7, queue 3, unique CPIDs 12.
    expect(combine).toHaveTextContent(/^Combine\s*0\s*1\s*4\s*2\s*0\s*7\s*3\s*12$/);
    const queues = screen.getByTestId('queue-sizes');
    await waitFor(() => expect(within(queues).getAllByTestId('queue-size')).toHaveLength(2));
    expect(within(queues).getByText('Combine: 3')).toBeInTheDocument();
    expect(within(queues).getByText('CEBD import: 2')).toBeInTheDocument();
    const lag = await within(queues).findAllByTestId('offset-lag-row');
    expect(lag[0]).toHaveTextContent('CEBD records not preprocessed4020.11.2026 11:05');
    expect(lag[2]).toHaveTextContent('Train runs not checked219.11.2026');
  });

  it('shows the HIGH events first, and every severity on "All"', async () => {
    const user = userEvent.setup();
    mockFetch(answers);
    renderDashboard();
    const events = await screen.findByTestId('dashboard-events');
    await waitFor(() => expect(within(events).getAllByTestId('event-row')).toHaveLength(1));
    // The code in words, the code itself in its title (issue 18: no raw keys on screen).
    expect(within(events).getByTestId('event-row')).toHaveTextContent('Match energy failed5High');
    expect(within(events).getByTestId('dashboard-event-code')).toHaveAttribute('title', 'match-energy-failed');
    await user.click(within(events).getByRole('radio', { name: 'All' }));
    expect(within(events).getAllByTestId('event-row')).toHaveLength(2);
    // A numeric CEBD code keeps its number in front of its words.
    expect(within(events).getAllByTestId('dashboard-event-code')[1]).toHaveTextContent(/^58 \S/);
  });

  it('asks for the previous seven days, refreshes on the button and by itself every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { calls } = mockFetch(answers);
    renderDashboard();
    await waitFor(() => expect(callsTo(calls, '/api/statistics/dashboardstatistics')).toHaveLength(1));
    const query = callsTo(calls, '/api/statistics/dashboardstatistics')[0]!.url.searchParams;
    const [start, end] = query.get('timeRange')!.split(',');
    expect(Date.parse(end!) - Date.parse(start!)).toBe(7 * 86_400_000);
    expect(query.get('zoneId')).toBe('Europe/Oslo');
    // Every card has asked once before the refresh (a card rendered later would ask only once).
    await waitFor(() => expect(callsTo(calls, '/api/statistics/queue-size')).toHaveLength(1));
    await waitFor(() => expect(callsTo(calls, '/api/statistics/dashboardevents')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(callsTo(calls, '/api/statistics/dashboardstatistics')).toHaveLength(2));
    // Each card asks by itself: wait for the queue sizes' own second call too.
    await waitFor(() => expect(callsTo(calls, '/api/statistics/queue-size')).toHaveLength(2));

    // 30 s after each card's own last answer (the cards asked a moment apart): a second more.
    await vi.advanceTimersByTimeAsync(31_000);
    await waitFor(() => expect(callsTo(calls, '/api/statistics/dashboardstatistics')).toHaveLength(3));
  });
});
