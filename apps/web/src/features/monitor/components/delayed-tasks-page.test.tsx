import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DelayedTask, DelayedTaskPage, JobRun, ProcedureResult } from '@railwatt/contracts';
import { mockFetch, renderScreens } from '../../../components/ui/screen-harness';
import { MonitorScreen } from './monitor-screen';
import { NORWAY_AREA as NORWAY } from '../../../lib/testing/areas';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/monitor/processes/shunting-and-stabling/delayedtasks';
const JOB_ID = '30000000-0000-4000-8000-000000000001';

const task = (id: number, status: DelayedTask['status'], over: Partial<DelayedTask> = {}): DelayedTask => ({
  id,
  destinationUri: 'shunting-and-stabling',
  // 1 October 2026 in Oslo (UTC+2): 00:00 to 00:00.
  periodStart: '2026-09-30T22:00:00.000Z',
  periodEnd: '2026-10-01T22:00:00.000Z',
  dueAt: '2026-10-06T23:00:00.000Z',
  reason: '5 of 9 records have no train run within 60 minutes',
  status,
  procedureResultId: 4,
  startedResultId: null,
  createdAt: '2026-10-02T08:15:00.000Z',
  updatedAt: '2026-10-02T08:15:00.000Z',
  ...over,
});
const pageOf = (content: DelayedTask[]): DelayedTaskPage => ({
  content,
  totalPages: 1,
  totalElements: content.length,
});
const result: ProcedureResult = {
  id: 12,
  uuid: '40000000-0000-4000-8000-000000000001',
  procedureName: 'shunting-and-stabling',
  status: 'initial',
  executeStartTime: '2026-10-08T10:00:00.000Z',
  executeEndTime: null,
  refTime: null,
  entityRefs: [],
  entityName: null,
  periodStart: '2026-09-30T22:00:00.000Z',
  periodEnd: '2026-10-01T22:00:00.000Z',
  progress: 0,
  message: null,
  username: 'kari',
  jobId: JOB_ID,
};
const job = (status: JobRun['status'], progress: number, message: string | null = null): JobRun => ({
  id: JOB_ID,
  name: 'procedure-run',
  status,
  progress,
  message,
  dataLogId: null,
  attempts: 1,
  createdAt: '2026-10-08T10:00:00.000Z',
  startedAt: '2026-10-08T10:00:01.000Z',
  finishedAt: status === 'success' ? '2026-10-08T10:00:05.000Z' : null,
});

function renderPage() {
  return renderScreens(
    [
      {
        path: PATH,
        element: (
          <MonitorScreen
            titleKey="routes.monitor.process.delayedTasks"
            titleArgs={{ process: 'processes.shunting-and-stabling' }}
          />
        ),
      },
    ],
    PATH,
    { areas: [NORWAY], area: NORWAY, rolesInArea: ['settlement-area-responsible'], timeZone: NORWAY.timeZone },
  );
}

describe('shunting-and-stabling delayed tasks page', () => {
  it('lists the tasks with period, due time, reason, status and creation in the area’s zone, and the waiting count', async () => {
    const { calls } = mockFetch({
      'GET /api/eventlog/delayed-tasks/count': 1,
      'GET /api/eventlog/delayed-tasks': pageOf([task(7, 'waiting'), task(3, 'done', { startedResultId: 9 })]),
    });
    renderPage();
    const rows = await screen.findAllByTestId('delayed-task-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('01.10.2026 00:00 – 02.10.2026 00:00')).toBeInTheDocument();
    expect(first.getByText('07.10.2026 01:00')).toBeInTheDocument();
    expect(first.getByText('5 of 9 records have no train run within 60 minutes')).toBeInTheDocument();
    expect(first.getByText('Waiting')).toBeInTheDocument();
    expect(first.getByText('02.10.2026 10:15')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Run now' })).toBeInTheDocument();
    // A done task is not run again.
    expect(within(rows[1]!).getByText('Done')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: 'Run now' })).not.toBeInTheDocument();
    expect(screen.getByTestId('waiting-count')).toHaveTextContent('1 task waiting');
    const list = calls.find((c) => c.url.pathname === '/api/eventlog/delayed-tasks')!;
    expect(Object.fromEntries(list.url.searchParams)).toEqual({
      destinationUri: 'shunting-and-stabling',
      page: '0',
      size: '20',
      sortBy: 'dueAt',
      descendingOrder: 'true',
    });
    const count = calls.find((c) => c.url.pathname === '/api/eventlog/delayed-tasks/count')!;
    expect(count.url.searchParams.get('destinationUri')).toBe('shunting-and-stabling');
  });

  it('runs a task now, follows its job to the end and reads the tasks again', async () => {
    let done = false;
    let jobReads = 0;
    const { calls } = mockFetch({
      'GET /api/eventlog/delayed-tasks/count': () => (done ? 0 : 1),
      'GET /api/eventlog/delayed-tasks': () =>
        pageOf([done ? task(7, 'done', { startedResultId: 12 }) : task(7, 'waiting')]),
      'POST /api/processing/shunting-and-stabling/run-delayed-task': () => [result],
      [`GET /api/jobs/${JOB_ID}`]: () => {
        jobReads++;
        if (jobReads === 1) return job('running', 0.5);
        done = true;
        return job('success', 1, '1 of 1 days processed');
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const progress = await screen.findByTestId('run-progress');
    expect(progress).toHaveTextContent('Run for 01.10.2026 00:00 – 02.10.2026 00:00');
    await waitFor(() => expect(progress).toHaveAttribute('data-status', 'success'), { timeout: 4000 });
    expect(screen.getByTestId('run-status')).toHaveTextContent('Succeeded');
    expect(screen.getByTestId('run-message')).toHaveTextContent('1 of 1 days processed');
    const run = calls.find((c) => c.method === 'POST')!;
    expect(run.body).toEqual({ id: 7 });
    // The run ended: the page reads the tasks and the count again.
    await waitFor(() => expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 tasks waiting'));
    expect(within(screen.getByTestId('delayed-task-row')).getByText('Done')).toBeInTheDocument();
  });

  it('runs all due tasks and says so when none is due', async () => {
    const { calls } = mockFetch({
      'GET /api/eventlog/delayed-tasks/count': 1,
      'GET /api/eventlog/delayed-tasks': pageOf([task(7, 'waiting')]),
      'POST /api/processing/shunting-and-stabling/run-delayed-task': () => [],
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run all due' }));
    expect(await screen.findByTestId('nothing-due')).toHaveTextContent('No waiting task is due yet.');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({});
  });

  it('shows the server’s reason when a run is refused', async () => {
    mockFetch({
      'GET /api/eventlog/delayed-tasks/count': 1,
      'GET /api/eventlog/delayed-tasks': pageOf([task(7, 'waiting')]),
      'POST /api/processing/shunting-and-stabling/run-delayed-task': () =>
        new Response(JSON.stringify({ code: 'process_already_running', message: 'Process already running' }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/already running/i);
  });

  it('filters by status through the URL', async () => {
    const { calls } = mockFetch({
      'GET /api/eventlog/delayed-tasks/count': 0,
      'GET /api/eventlog/delayed-tasks': pageOf([]),
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No delayed tasks')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`${PATH}?status=done&page=1`));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('status') === 'done')).toBe(true));
  });
});
