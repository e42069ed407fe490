import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderScreens } from '../../../components/ui/screen-harness';
import { ReportOrderPage } from './report-order-page';
import { ReportsIndexPage } from './reports-index-page';

const JOB = '6f1c2a4e-0000-4000-8000-000000000001';

const settlement = {
  name: 'settlement',
  family: 'settlement',
  title: 'Settlement',
  period: 'month',
  refs: [],
  parameters: [],
  statuses: ['approved', 'success'],
  formats: ['xlsx', 'csv', 'xml'],
  roles: ['settlement-area-responsible'],
  columns: [
    { key: 'organisation', kind: 'text', unit: null, header: 'Organisation' },
    { key: 'energy', kind: 'number', unit: 'kWh', header: 'Energy' },
    { key: 'amount', kind: 'number', unit: 'currency', header: 'Amount' },
  ],
};

const job = (status: string) => ({
  id: JOB,
  name: 'report-order',
  status,
  progress: status === 'success' ? 1 : 0.5,
  message: null,
  dataLogId: 41,
  attempts: 1,
  createdAt: '2026-11-27T10:00:00.000Z',
  startedAt: '2026-11-27T10:00:00.000Z',
  finishedAt: status === 'success' ? '2026-11-27T10:00:02.000Z' : null,
});

const render = (path: string) =>
  renderScreens(
    [
      { path: '/reports', element: <ReportsIndexPage titleKey="routes.reports.section" /> },
      {
        path: '/reports/:report',
        element: <ReportOrderPage titleKey="routes.reports.order" titleArgs={{ report: 'reports.settlement' }} />,
      },
    ],
    path,
    { rolesInArea: ['settlement-area-responsible'], timeZone: 'Europe/Oslo' },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ordering a report (issue 20 item 6)', () => {
  it('lists the reports the user may order, by family, each linking to its order page', async () => {
    const { calls } = mockFetch({ 'GET /api/domain/reports': [settlement] });
    render('/reports');
    const family = await screen.findByTestId('report-family-settlement');
    expect(within(family).getByRole('heading', { name: 'Settlement and invoicing' })).toBeInTheDocument();
    expect(within(family).getByRole('link', { name: 'Settlement' })).toHaveAttribute('href', '/reports/settlement');
    expect(calls[0]!.url.searchParams.get('locale')).toBe('en');
  });

  it('orders the month in the chosen format, follows the job and downloads the file', async () => {
    const user = userEvent.setup();
    let polls = 0;
    const { calls } = mockFetch({
      'GET /api/domain/reports': [settlement],
      'POST /api/processing/tasks/settlement': {
        reportName: 'settlement',
        jobId: JOB,
        dataLogId: 41,
        fileName: 'settlement-2026-10.csv',
      },
      [`GET /api/jobs/${JOB}`]: () => job(++polls > 1 ? 'success' : 'running'),
      'GET /api/eventlog/datalog/reports/41/file': () =>
        new Response('organisation;energy\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
    });
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render('/reports/settlement');
    // The columns with their units say what the file holds.
    const columns = await screen.findByTestId('report-columns');
    expect(within(columns).getByText('Energy').closest('tr')).toHaveTextContent('kWh');
    expect(within(columns).getByText('Amount').closest('tr')).toHaveTextContent(/^Amount(NOK|EUR|SEK|DKK|CHF)$/);

    await user.click(screen.getByRole('textbox', { name: 'Month' }));
    await user.click(await screen.findByRole('option', { name: 'October' }));
    await user.clear(screen.getByRole('textbox', { name: 'Year' }));
    await user.type(screen.getByRole('textbox', { name: 'Year' }), '2026');
    await user.click(screen.getByRole('textbox', { name: 'File format' }));
    await user.click(await screen.findByRole('option', { name: 'CSV' }));
    await user.click(screen.getByRole('button', { name: 'Order' }));

    const order = await vi.waitFor(() => {
      const call = calls.find((c) => c.method === 'POST');
      if (!call) throw new Error('not ordered yet');
      return call;
    });
    expect(Object.fromEntries(order.url.searchParams)).toEqual({ year: '2026', month: '10', zoneId: 'Europe/Oslo' });
    expect(order.body).toEqual({ zoneId: 'Europe/Oslo', format: 'csv', language: 'en' });
    expect(await screen.findByText('Ordered: settlement-2026-10.csv')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Download settlement-2026-10.csv' }, { timeout: 5000 }));
    await vi.waitFor(() => expect(saved).toEqual(['settlement-2026-10.csv']));
  });

  it('says so on the page of a report the server does not offer this user', async () => {
    mockFetch({ 'GET /api/domain/reports': [settlement] });
    render('/reports/energymarket');
    expect(await screen.findByTestId('report-unavailable')).toHaveTextContent(
      'This report cannot be ordered here yet.',
    );
  });
});
