import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TIME_SERIES_TYPES, type JobRun, type Role } from '@railwatt/contracts';
import { renderScreens, mockFetch } from '../../../../components/ui/screen-harness';
import { createFakeXhr, type FakeXhrAnswer } from '../../../../lib/api/testing/fake-xhr';
import { AREA_OPTIONS } from '../../testing/render-administration';
import { ImportPricesPage } from './import-prices-page';
import { TimeSeriesImportPage } from './timeseries-import-page';

const JOB = '0d9b7c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

const job = (extra: Partial<JobRun> = {}): JobRun => ({
  id: JOB,
  name: 'nordpool-import',
  status: 'success',
  progress: 1,
  message: 'Prices imported for 5 price areas',
  dataLogId: 7,
  attempts: 1,
  createdAt: '2026-11-23T10:00:00Z',
  startedAt: '2026-11-23T10:00:01Z',
  finishedAt: '2026-11-23T10:00:09Z',
  ...extra,
});

const TYPES = (['supply_energy', 'cebd_active_energy_consumed'] as const).map((typeName) => ({
  typeName,
  ...TIME_SERIES_TYPES[typeName],
}));

function renderPages(path: string, roles: Role[] = ['erex-administrator']) {
  const area = AREA_OPTIONS[0]!;
  return renderScreens(
    [
      {
        path: '/administration/timeseries/import',
        element: <TimeSeriesImportPage titleKey="routes.administration.timeseriesImport" />,
      },
      {
        path: '/administration/import-prices',
        element: <ImportPricesPage titleKey="routes.administration.importPrices" />,
      },
    ],
    path,
    { areas: AREA_OPTIONS, area, rolesInArea: roles, timeZone: area.timeZone },
  );
}

function mockUpload(answer: FakeXhrAnswer) {
  const fake = createFakeXhr(() => answer);
  vi.stubGlobal('XMLHttpRequest', fake.Constructor);
  return fake;
}

describe('time-series import page', () => {
  it('opens the upload dialog, lists the time-series types with unit and resolution, and links the data log', async () => {
    const { calls } = mockFetch({ 'GET /api/timeseries/types': TYPES });
    renderPages('/administration/timeseries/import');
    expect(await screen.findByTestId('upload-dialog')).toHaveAttribute('data-modal-type', 'timeseries_upload');
    const rows = await screen.findAllByTestId('timeseries-type-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('supply_energy');
    expect(rows[0]).toHaveTextContent('kWh');
    expect(rows[0]).toHaveTextContent('PT1H');
    expect(rows[1]).toHaveTextContent('PT5M');
    expect(calls.some((c) => c.method === 'GET' && c.url.pathname === '/api/timeseries/types')).toBe(true);
    expect(screen.getByTestId('datalog-link')).toHaveAttribute('href', '/monitor/datalog');
  });
});

describe('import prices page', () => {
  it('imports prices from Nord Pool and follows the started jobs', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/integration/prices/import-prices': { success: true, sheetParseResults: [], async: true, jobIds: [JOB] },
      [`GET /api/jobs/${JOB}`]: job(),
    });
    renderPages('/administration/import-prices');
    await user.click(await screen.findByRole('button', { name: 'Import prices from Nord Pool' }));
    const jobs = await screen.findByTestId('import-prices-jobs');
    expect(jobs).toHaveTextContent('Started 1 import job');
    await waitFor(() => expect(within(jobs).getByTestId('job-progress')).toHaveAttribute('data-status', 'success'));
    expect(within(jobs).getByTestId('job-message')).toHaveTextContent('Prices imported for 5 price areas');
    expect(calls.filter((c) => c.url.pathname === '/api/integration/prices/import-prices')).toHaveLength(1);
  });

  it('says when the import of prices was refused', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/integration/prices/import-prices': new Response('{}', { status: 500, statusText: 'Server Error' }),
    });
    renderPages('/administration/import-prices');
    await user.click(await screen.findByRole('button', { name: 'Import prices from Nord Pool' }));
    expect(await screen.findByTestId('import-prices-error')).toHaveTextContent('The prices could not be imported');
  });

  it('uploads a Nord Pool price file to the Nord Pool import and shows its job', async () => {
    const user = userEvent.setup();
    mockFetch({ [`GET /api/jobs/${JOB}`]: job() });
    const fake = mockUpload({ body: { success: true, sheetParseResults: [], async: true, jobIds: [JOB] } });
    renderPages('/administration/import-prices');
    await user.click(await screen.findByRole('button', { name: 'Upload price file' }));
    const dialog = await screen.findByTestId('upload-dialog');
    await user.upload(within(dialog).getByTestId('upload-input'), [
      new File(['x'], 'spot2611.sdv', { type: 'text/plain' }),
      new File(['x'], 'readme.txt', { type: 'text/plain' }),
    ]);
    expect(
      within(dialog)
        .getAllByTestId('upload-file-name')
        .map((n) => n.textContent),
    ).toEqual(['spot2611.sdv']);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('upload-file-status')).toHaveAttribute('data-status', 'finished_async'),
    );
    expect(new URL(fake.latest().url, 'http://localhost').pathname).toBe('/api/automaticfileimport/importnordpool');
    await waitFor(() => expect(within(dialog).getByTestId('job-progress')).toHaveAttribute('data-status', 'success'));
  });
});
