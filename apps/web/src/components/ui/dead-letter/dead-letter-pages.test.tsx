import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeadLetterMessage, DeadLetterQueue } from '@railwatt/contracts';
import { mockFetch, renderScreens } from '../screen-harness';
import { DeadLetterQueueAdminPage, ProcedureDeadLetterPage } from './dead-letter-pages';
import { NORWAY_AREA as NORWAY } from '../../../lib/testing/areas';

afterEach(() => vi.unstubAllGlobals());

const message = (n: number, overrides: Partial<DeadLetterMessage> = {}): DeadLetterMessage => ({
  id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  queueName: 'procedure-run__dead',
  runId: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
  failedAt: '2024-03-01T10:15:00.000Z',
  reason: `chunk failed ${n}`,
  attempts: 3,
  username: 'erex-settlement-operator',
  processedObject: {
    kind: 'procedure-result',
    description: `combine 2024-03-01 – 2024-03-02 (procedure result ${n}, failure)`,
    procedureResultId: n,
    procedureName: 'combine',
    dataLogId: null,
  },
  estimated: false,
  ...overrides,
});

const PROFILE = message(3, {
  reason: 'profile volumes missing',
  estimated: true,
  processedObject: {
    kind: 'procedure-result',
    description: 'profile 2024-03-01 – 2024-04-01 (procedure result 3, failure)',
    procedureResultId: 3,
    procedureName: 'profile',
    dataLogId: null,
  },
});

const market = { areas: [NORWAY], area: NORWAY, rolesInArea: ['erex-administrator' as const], timeZone: 'Europe/Oslo' };

describe('dead letter queue admin', () => {
  it('shows queues with counts and the first messages; reruns the selected, the estimated and everything', async () => {
    const user = userEvent.setup();
    let waiting = [message(1), message(2), PROFILE];
    const queues = (): DeadLetterQueue[] => [
      { name: 'timeseries-import__dead', jobName: 'timeseries-import', count: 0, estimatedCount: 0 },
      {
        name: 'procedure-run__dead',
        jobName: 'procedure-run',
        count: waiting.length,
        estimatedCount: waiting.filter((m) => m.estimated).length,
      },
    ];
    const { calls } = mockFetch({
      'GET /api/processing/dead-letter-queues': () => queues(),
      'GET /api/processing/dead-letter-queues/messages': () => waiting,
      'POST /api/processing/dead-letter-queues/procedure-run__dead/rerun': (call: { body: { ids: string[] } }) => {
        waiting = waiting.filter((m) => !call.body.ids.includes(m.id));
        return { rerun: call.body.ids.length, settled: 0, runIds: [] };
      },
      'POST /api/processing/dead-letter-queues/procedure-run__dead/rerun-estimated': () => {
        waiting = waiting.filter((m) => !m.estimated);
        return { rerun: 1, settled: 0, runIds: [] };
      },
      'POST /api/processing/dead-letter-queues/rerun': () => {
        const count = waiting.length;
        waiting = [];
        return { rerun: count - 1, settled: 1, runIds: [] };
      },
    });
    renderScreens(
      [
        {
          path: '/administration/deadletterqueueadmin',
          element: <DeadLetterQueueAdminPage titleKey="routes.administration.deadLetterQueueAdmin" />,
        },
      ],
      '/administration/deadletterqueueadmin',
      market,
    );

    const row = await screen.findByTestId('dead-letter-queue-procedure-run__dead');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['procedure-run__dead', '3', '1']);
    // The queue with messages is chosen; its messages show reason, failure time (Oslo) and object.
    const rows = await screen.findAllByTestId('dead-letter-message');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('chunk failed 1')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/01\.03\.2024 11:15/)).toBeInTheDocument();
    expect(
      within(rows[2]!).getByText('profile 2024-03-01 – 2024-04-01 (procedure result 3, failure)'),
    ).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Estimated')).toBeInTheDocument();

    await user.click(within(rows[0]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Rerun selected (1)' }));
    expect(await screen.findByText('1 queued again, 0 already finished and removed.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ ids: [message(1).id] });
    await waitFor(() => expect(screen.getAllByTestId('dead-letter-message')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Rerun estimated' }));
    await waitFor(() => expect(screen.getAllByTestId('dead-letter-message')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Rerun estimated' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Rerun all' }));
    expect(await screen.findByText('0 queued again, 1 already finished and removed.')).toBeInTheDocument();
    expect(await screen.findByText('No messages wait in this queue.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rerun all' })).toBeDisabled();
  });

  it('refreshes on demand and says when more messages wait than are shown', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/processing/dead-letter-queues': [
        { name: 'procedure-run__dead', jobName: 'procedure-run', count: 1250, estimatedCount: 0 },
      ],
      'GET /api/processing/dead-letter-queues/messages': [message(1)],
    });
    renderScreens(
      [{ path: '/a', element: <DeadLetterQueueAdminPage titleKey="routes.administration.deadLetterQueueAdmin" /> }],
      '/a',
      market,
    );
    // Counts in the separators of the user's language (issue 18 item 2).
    expect(await screen.findByText('The first 1 of 1,250 messages are shown.')).toBeInTheDocument();
    expect(within(screen.getByTestId('dead-letter-queues')).getByText('1,250')).toBeInTheDocument();
    const before = calls.length;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(before + 2));
    const messagesCall = calls.find((c) => c.url.pathname.endsWith('/messages'));
    expect(Object.fromEntries(messagesCall!.url.searchParams)).toEqual({ queue: 'procedure-run__dead', size: '100' });
  });
});

describe('combine dead letter page', () => {
  it('shows the combine runs of the procedure-run queue and reruns all of them', async () => {
    const user = userEvent.setup();
    let waiting = [message(1), message(2)];
    const { calls } = mockFetch({
      'GET /api/processing/dead-letter-queues/messages': () => waiting,
      'POST /api/processing/dead-letter-queues/procedure-run__dead/rerun': () => {
        waiting = [];
        return { rerun: 2, settled: 0, runIds: [] };
      },
    });
    renderScreens(
      [
        {
          path: '/monitor/processes/combine/deadletterqueue',
          element: (
            <ProcedureDeadLetterPage
              procedure="combine"
              titleKey="routes.monitor.process.deadLetterQueue"
              titleArgs={{ process: 'processes.combine' }}
            />
          ),
        },
      ],
      '/monitor/processes/combine/deadletterqueue',
      market,
    );
    expect(await screen.findAllByTestId('dead-letter-message')).toHaveLength(2);
    const read = calls.find((c) => c.url.pathname.endsWith('/messages'));
    expect(Object.fromEntries(read!.url.searchParams)).toEqual({
      queue: 'procedure-run__dead',
      procedureName: 'combine',
      size: '100',
    });
    expect(screen.getByRole('button', { name: 'Rerun selected (0)' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Rerun all' }));
    expect(await screen.findByText('2 queued again, 0 already finished and removed.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ all: true, procedureName: 'combine' });
    expect(await screen.findByText('No messages wait in this queue.')).toBeInTheDocument();
  });
});
