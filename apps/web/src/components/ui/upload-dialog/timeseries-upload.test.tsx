import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobRun, TimeSeriesUploadResult } from '@railwatt/contracts';
import { createFakeXhr, type FakeXhr, type FakeXhrAnswer } from '../../../lib/api/testing/fake-xhr';
import { mockFetch, renderScreens } from '../screen-harness';
import { timeSeriesCallFor, TimeSeriesUploadButton, type TimeSeriesUploadButtonProps } from './timeseries-upload';
import { NORWAY_AREA as NORWAY } from '../../../lib/testing/areas';

const JOB = '6f0c8a52-3c1e-4a7e-9d55-1c2f3e4a5b6c';
const OK: TimeSeriesUploadResult = { success: true, sheetParseResults: [] };

const file = (name: string, type = '') => new File(['x'], name, { type });

function renderUpload(props: Partial<TimeSeriesUploadButtonProps> = {}) {
  return renderScreens(
    [{ path: '/upload', element: <TimeSeriesUploadButton initiallyOpened {...props} /> }],
    '/upload',
    {
      areas: [NORWAY],
      area: NORWAY,
      rolesInArea: ['erex-administrator'],
      timeZone: NORWAY.timeZone,
    },
  );
}

/** Fake XMLHttpRequests answering each upload with `answer` (or left to the test without one). */
function mockUpload(answer?: (xhr: FakeXhr) => FakeXhrAnswer) {
  const fake = createFakeXhr(answer);
  vi.stubGlobal('XMLHttpRequest', fake.Constructor);
  return fake;
}

const dialog = () => screen.getByTestId('upload-dialog');
const statuses = () => screen.getAllByTestId('upload-file-status').map((s) => s.getAttribute('data-status'));
const path = (xhr: FakeXhr) => new URL(xhr.url, 'http://localhost').pathname;

describe('time-series upload dialog', () => {
  it('is the timeseries_upload modal', async () => {
    mockFetch({});
    renderUpload();
    expect(await screen.findByTestId('upload-dialog')).toHaveAttribute('data-modal-type', 'timeseries_upload');
  });

  it('sends each file to the endpoint of its extension; .xml to CEBD or train runs as chosen', async () => {
    const user = userEvent.setup();
    mockFetch({});
    const fake = mockUpload(() => ({ body: OK }));
    renderUpload();
    await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
      file('a.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
      file('b.EDI'),
      file('c.sdv'),
      file('d.csv', 'text/csv'),
      file('e.xml', 'application/xml'),
    ]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(statuses()).toEqual(Array(5).fill('finished')));
    expect(fake.requests.map(path)).toEqual([
      '/api/excel/timeseries/import',
      '/api/timeseries/import/edi',
      '/api/timeseries/import/sdv',
      '/api/excel/timeseries/csv-import',
      '/api/cebd/import',
    ]);
    // The CEBD file names its area (tenant-name); the other endpoints take no such header.
    expect(fake.latest().headers).toMatchObject({ 'current-tenant-id': NORWAY.tenantId, 'tenant-name': 'Norway' });
    expect(fake.requests[0]!.headers).not.toHaveProperty('tenant-name');

    await user.click(within(dialog()).getByRole('radio', { name: 'Train runs' }));
    await user.upload(within(dialog()).getByTestId('upload-input'), [file('runs.xml', 'text/xml')]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(fake.requests).toHaveLength(6));
    expect(path(fake.latest())).toBe('/api/timeseries/import/trainrun');
  }, 15_000);

  it('does not list files of other extensions', async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderUpload();
    const input = within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input');
    await user.upload(input, [file('notes.txt', 'text/plain'), file('prices.sdv', 'text/plain')]);
    expect(screen.getAllByTestId('upload-file-name').map((n) => n.textContent)).toEqual(['prices.sdv']);
    expect(timeSeriesCallFor('archive.zip', 'cebd')).toBeNull();
    expect(timeSeriesCallFor('no-extension', 'cebd')).toBeNull();
  });

  it('takes at most 5 files: above that it says so and the upload button is disabled', async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderUpload();
    const input = within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input');
    await user.upload(
      input,
      ['1', '2', '3', '4', '5', '6'].map((n) => file(`${n}.csv`, 'text/csv')),
    );
    expect(screen.getByTestId('upload-file-limit')).toHaveTextContent('You can upload at most 5 files at a time');
    expect(within(dialog()).getByRole('button', { name: 'Upload' })).toBeDisabled();
    await user.click(within(dialog()).getAllByRole('button', { name: 'Remove file' })[0]!);
    expect(screen.queryByTestId('upload-file-limit')).not.toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('cuts names at 60 characters with an ellipsis, the whole name in the title', async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderUpload();
    const long = `${'x'.repeat(70)}.csv`;
    await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
      file(long, 'text/csv'),
    ]);
    const name = screen.getByTestId('upload-file-name');
    expect(name).toHaveTextContent(`${'x'.repeat(60)}...`);
    expect(name).toHaveAttribute('title', long);
  });

  it('colours the dialog blue, yellow while progressing, green when finished, red when one failed', async () => {
    const user = userEvent.setup();
    mockFetch({});
    const fake = mockUpload();
    renderUpload();
    const input = within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input');
    expect(dialog()).toHaveAttribute('data-color', 'blue');
    await user.upload(input, [file('one.csv', 'text/csv')]);
    expect(dialog()).toHaveAttribute('data-color', 'blue');
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'yellow'));
    act(() => fake.latest().respond({ body: OK }));
    await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'green'));

    await user.upload(input, [file('two.csv', 'text/csv'), file('three.csv', 'text/csv')]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    act(() =>
      fake.latest().respond({
        body: {
          success: true,
          sheetParseResults: [
            {
              sheetName: 'spot_price',
              type: 'spot_price',
              rowsRead: 3,
              failures: [{ errorMessage: 'Value x is invalid', type: 'spot_price' }],
            },
          ],
        },
      }),
    );
    await waitFor(() => expect(fake.requests).toHaveLength(3));
    await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'yellow'));
    act(() => fake.latest().respond({ body: OK }));
    await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'red'));
    expect(statuses()).toEqual(['failed', 'finished']);
    expect(within(dialog()).getByTestId('upload-failures')).toHaveTextContent('Value x is invalid');
  }, 15_000);

  it('shows a file stored for a background job as accepted and follows its job every second to the end', async () => {
    const user = userEvent.setup();
    let reads = 0;
    const job = (extra: Partial<JobRun>): JobRun => ({
      id: JOB,
      name: 'timeseries-import',
      status: 'running',
      progress: 0.4,
      message: null,
      dataLogId: 12,
      attempts: 1,
      createdAt: '2026-11-23T10:00:00Z',
      startedAt: '2026-11-23T10:00:01Z',
      finishedAt: null,
      ...extra,
    });
    const { calls } = mockFetch({
      [`GET /api/jobs/${JOB}`]: () =>
        ++reads < 2 ? job({}) : job({ status: 'success', progress: 1, message: '96 values imported' }),
    });
    mockUpload(() => ({ body: { ...OK, async: true, dataLogIds: [12], jobIds: [JOB] } }));
    const onUploaded = vi.fn();
    const onJobFinished = vi.fn();
    renderUpload({ onUploaded, onJobFinished });
    await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
      file('cebd.xml', 'application/xml'),
    ]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(statuses()).toEqual(['finished_async']));
    expect(screen.getByTestId('upload-file-status')).toHaveTextContent('Accepted');
    const progress = await screen.findByTestId('job-progress');
    await waitFor(() => expect(progress).toHaveAttribute('data-status', 'running'));
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    // The file is accepted, but its import is still under way.
    expect(dialog()).toHaveAttribute('data-color', 'yellow');

    await waitFor(() => expect(screen.getByTestId('job-progress')).toHaveAttribute('data-status', 'success'), {
      timeout: 3000,
    });
    expect(screen.getByTestId('job-status')).toHaveTextContent('Succeeded');
    expect(screen.getByTestId('job-message')).toHaveTextContent('96 values imported');
    await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'green'));
    expect(statuses()).toEqual(['finished_async']);
    expect(onUploaded).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(onJobFinished).toHaveBeenCalledWith(expect.objectContaining({ status: 'success' })));
    expect(onJobFinished).toHaveBeenCalledTimes(1);
    // It stops reading once the job ended.
    const done = calls.filter((c) => c.url.pathname === `/api/jobs/${JOB}`).length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(calls.filter((c) => c.url.pathname === `/api/jobs/${JOB}`)).toHaveLength(done);
  }, 15_000);

  it.each(['failure', 'dead'] as const)(
    'turns the dialog red with the refusal when a followed job ends as %s, the file still accepted',
    async (end) => {
      const user = userEvent.setup();
      let reads = 0;
      const refusal = 'segment 7 (LOC), line 7: Unknown metering point SMP-E2E-1';
      mockFetch({
        [`GET /api/jobs/${JOB}`]: (): JobRun => ({
          id: JOB,
          name: 'timeseries-import',
          status: ++reads < 2 ? 'queued' : end,
          progress: 0,
          message: reads < 2 ? null : refusal,
          dataLogId: 13,
          attempts: 1,
          createdAt: '2026-11-23T10:00:00Z',
          startedAt: null,
          finishedAt: null,
        }),
      });
      mockUpload(() => ({ body: { ...OK, async: true, dataLogIds: [13], jobIds: [JOB] } }));
      const onJobFinished = vi.fn();
      renderUpload({ onJobFinished });
      await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
        file('supply.edi'),
      ]);
      await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
      await waitFor(() => expect(statuses()).toEqual(['finished_async']));
      await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'yellow'));
      await waitFor(() => expect(screen.getByTestId('job-progress')).toHaveAttribute('data-status', end), {
        timeout: 3000,
      });
      expect(screen.getByTestId('job-message')).toHaveTextContent(refusal);
      await waitFor(() => expect(dialog()).toHaveAttribute('data-color', 'red'));
      expect(statuses()).toEqual(['finished_async']);
      expect(onJobFinished).toHaveBeenCalledWith(expect.objectContaining({ status: end, message: refusal }));
      // Not a failure at upload time: no import error screen.
      expect(screen.queryByTestId('import-error-screen')).not.toBeInTheDocument();
    },
    15_000,
  );

  it.each([
    [400, { code: 'invalid_input', message: 'End date missing' }, 'End date missing'],
    [400, {}, 'Something is wrong with uploaded data'],
    [401, {}, 'Not authorized'],
    [403, {}, 'Not authorized'],
    [500, {}, 'Failed to upload. Ask administrator for help'],
    [502, {}, 'Failed to upload. Ask administrator for help'],
  ])('a single file refused with %i goes to the import error screen: %j -> %s', async (status, body, message) => {
    const user = userEvent.setup();
    mockFetch({});
    mockUpload(() => ({ status, body }));
    renderUpload();
    await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
      file('bad.csv', 'text/csv'),
    ]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(errorScreen).toHaveTextContent('Import failed');
    expect(errorScreen).toHaveTextContent(message);
    await waitFor(() => expect(screen.queryByTestId('upload-input')).not.toBeInTheDocument());
  });

  it('with several files a failure stays in the dialog instead of the error screen', async () => {
    const user = userEvent.setup();
    mockFetch({});
    mockUpload((xhr) => (xhr.url.endsWith('/csv-import') ? { status: 403, body: {} } : { body: OK }));
    renderUpload();
    await user.upload(within(await screen.findByTestId('upload-dialog')).getByTestId('upload-input'), [
      file('a.csv', 'text/csv'),
      file('b.sdv'),
    ]);
    await user.click(within(dialog()).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(statuses()).toEqual(['failed', 'finished']));
    expect(dialog()).toHaveTextContent('Not authorized');
    expect(screen.queryByTestId('import-error-screen')).not.toBeInTheDocument();
  });
});
