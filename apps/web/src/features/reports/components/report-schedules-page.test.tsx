import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderScreens, type Call } from '../../../components/ui/screen-harness';
import { ReportSchedulePage } from './report-schedule-page';
import { ReportSchedulesPage } from './report-schedules-page';

const ID = '6f1c2a4e-0000-4000-8000-0000000000aa';
/** Whole forms typed in: slow on a loaded machine. */
const WAIT = { timeout: 10_000 };
const SLOW = 60_000;

const schedule = {
  id: ID,
  name: 'Monthly prices',
  reportName: 'priceelements',
  frequency: 'monthly',
  time: '06:30',
  dayOfWeek: null,
  dayOfMonth: 3,
  daysAfterPeriod: 0,
  monthsAfterPeriod: 0,
  format: 'csv',
  language: 'en',
  correction: false,
  refs: [],
  reportSpecificParameters: {},
  destination: {
    destinationType: 'ftp',
    protocol: 'FTP',
    host: 'ftp.example.org',
    port: 21,
    remoteDirectory: '/reports',
    username: 'reports',
    hasPassword: true,
  },
  owner: 'settlement-area-responsible',
  nextRunAt: '2026-12-03T05:30:00Z',
  lastRunAt: null,
  lastDataLogId: null,
};

const render = (path: string) =>
  renderScreens(
    [
      {
        path: '/reports/schedules/:report',
        element: <ReportSchedulesPage titleKey="routes.reports.scheduleOverview" />,
      },
      {
        path: '/reports/priceelements/schedule',
        element: (
          <ReportSchedulePage titleKey="routes.reports.schedule" titleArgs={{ report: 'reports.priceelements' }} />
        ),
      },
    ],
    path,
    { rolesInArea: ['settlement-area-responsible'], timeZone: 'Europe/Oslo' },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('report schedules (issue 20 item 6)', () => {
  it(
    "lists the report's schedules with when, where and the next run on the area's clock",
    async () => {
      const { calls } = mockFetch({ 'GET /api/processing/scheduledreports': [schedule] });
      render('/reports/schedules/priceelements');
      const table = await screen.findByTestId('report-schedules');
      const row = within(table).getByText('Monthly prices').closest('tr')!;
      expect(row).toHaveTextContent('Day 3 of the month at 06:30');
      expect(row).toHaveTextContent('FTP reports@ftp.example.org/reports');
      expect(row).toHaveTextContent('CSV');
      // 05:30 UTC is 06:30 in Oslo in December.
      expect(row).toHaveTextContent('6:30');
      expect(calls[0]!.url.searchParams.get('reportName')).toBe('priceelements');
      expect(screen.getByRole('link', { name: 'New schedule' })).toHaveAttribute(
        'href',
        '/reports/priceelements/schedule',
      );
      expect(screen.getByRole('link', { name: 'Edit Monthly prices' })).toHaveAttribute(
        'href',
        `/reports/priceelements/schedule?id=${ID}`,
      );
    },
    SLOW,
  );

  it(
    'deletes a schedule only after the question is answered yes',
    async () => {
      const user = userEvent.setup({ delay: null });
      let listed = [schedule];
      const { calls } = mockFetch({
        'GET /api/processing/scheduledreports': () => listed,
        [`DELETE /api/processing/scheduledreports/${ID}`]: () => {
          listed = [];
          return { id: ID };
        },
      });
      render('/reports/schedules/priceelements');
      await user.click(await screen.findByRole('button', { name: 'Delete Monthly prices' }));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('Delete the schedule Monthly prices?');
      await user.click(within(dialog).getByRole('button', { name: 'No' }));
      expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

      await user.click(await screen.findByRole('button', { name: 'Delete Monthly prices' }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
      await vi.waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1), WAIT);
      expect(await screen.findByText('The schedule Monthly prices was deleted.')).toBeInTheDocument();
      expect(await screen.findByText('This report has no schedules yet.')).toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'creates a weekly FTP schedule, sending the password with credentials',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = mockFetch({
        'POST /api/processing/scheduledreports/with-credentials': (call: Call) => ({
          ...schedule,
          ...(call.body as object),
          id: ID,
          destination: { ...schedule.destination, hasPassword: true },
        }),
        'GET /api/processing/scheduledreports': [schedule],
      });
      render('/reports/priceelements/schedule');
      await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Weekly prices');
      await user.click(screen.getByRole('textbox', { name: 'Frequency' }));
      await user.click(await screen.findByRole('option', { name: 'Weekly' }));
      await user.click(screen.getByRole('textbox', { name: 'Day of week' }));
      await user.click(await screen.findByRole('option', { name: 'Wednesday' }));
      await user.click(screen.getByRole('textbox', { name: 'Destination type' }));
      await user.click(await screen.findByRole('option', { name: 'FTP' }));
      await user.type(screen.getByRole('textbox', { name: 'Host' }), 'ftp.example.org');
      await user.clear(screen.getByRole('textbox', { name: 'Remote directory' }));
      await user.type(screen.getByRole('textbox', { name: 'Remote directory' }), '/in');
      await user.type(screen.getByRole('textbox', { name: 'Username' }), 'reports');
      await user.type(screen.getByLabelText(/^Password/), 's3cret');
      await user.click(screen.getByRole('button', { name: 'Save schedule' }));

      const post = await vi.waitFor(() => {
        const call = calls.find((c) => c.method === 'POST');
        if (!call) throw new Error('not saved yet');
        return call;
      }, WAIT);
      expect(post.body).toMatchObject({
        name: 'Weekly prices',
        reportName: 'priceelements',
        frequency: 'weekly',
        dayOfWeek: 3,
        dayOfMonth: null,
        time: '06:00',
        destination: {
          destinationType: 'ftp',
          protocol: 'FTP',
          host: 'ftp.example.org',
          port: 21,
          remoteDirectory: '/in',
          username: 'reports',
          password: 's3cret',
        },
      });
      expect(await screen.findByText('The schedule Weekly prices was saved.', {}, WAIT)).toBeInTheDocument();
      await vi.waitFor(
        () => expect(screen.getByTestId('location')).toHaveTextContent('/reports/schedules/priceelements'),
        WAIT,
      );
    },
    SLOW,
  );

  it(
    'checks the contract before sending, and puts the server refusal of a duplicate name on the name',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = mockFetch({
        'POST /api/processing/scheduledreports': new Response(
          JSON.stringify({
            status: 400,
            error: 'Bad Request',
            code: 'uniquename',
            message: 'The schedule report name already exists.',
            timestamp: '2026-11-28T00:00:00Z',
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        ),
      });
      render('/reports/priceelements/schedule');
      await user.click(await screen.findByRole('button', { name: 'Save schedule' }));
      expect(await screen.findByText('The name field is required', {}, WAIT)).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

      await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Monthly prices');
      await user.click(screen.getByRole('button', { name: 'Save schedule' }));
      expect(await screen.findByText('The schedule report name already exists.', {}, WAIT)).toBeInTheDocument();
      const post = calls.find((c) => c.method === 'POST')!;
      // "My email" carries nothing else, and no password goes to the plain call.
      expect(post.body).toMatchObject({ name: 'Monthly prices', destination: { destinationType: 'my email' } });
    },
    SLOW,
  );

  it(
    'edits a schedule: the stored password is kept unless a new one is typed',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = mockFetch({
        'GET /api/processing/scheduledreports': [schedule],
        'POST /api/processing/scheduledreports': (call: Call) => ({
          ...schedule,
          ...(call.body as object),
          destination: schedule.destination,
        }),
      });
      render(`/reports/priceelements/schedule?id=${ID}`);
      const name = await screen.findByRole('textbox', { name: 'Name' });
      expect(name).toHaveValue('Monthly prices');
      expect(screen.getByText('A password is stored; leave empty to keep it.')).toBeInTheDocument();
      await user.clear(screen.getByRole('textbox', { name: 'Time' }));
      await user.type(screen.getByRole('textbox', { name: 'Time' }), '07:15');
      await user.click(screen.getByRole('button', { name: 'Save schedule' }));
      const post = await vi.waitFor(() => {
        const call = calls.find((c) => c.method === 'POST');
        if (!call) throw new Error('not saved yet');
        return call;
      }, WAIT);
      expect(post.url.pathname).toBe('/api/processing/scheduledreports');
      expect(post.body).toMatchObject({ id: ID, time: '07:15', destination: { host: 'ftp.example.org' } });
      expect((post.body as { destination: object }).destination).not.toHaveProperty('password');
    },
    SLOW,
  );
});
