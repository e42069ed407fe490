import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createApiClient } from '../../../lib/api/client';
import { createRateLimiter } from '../../../lib/api/rate-limiter';
import { createFakeXhr } from '../../../lib/api/testing/fake-xhr';
import { renderUi } from '../test-harness';
import { UploadDialog } from './upload-dialog';
import {
  displayFileName,
  outcomeFromImportAnswer,
  uploadDialogColor,
  uploadPercent,
  type ImportAnswer,
  type UploadFn,
  type UploadOutcome,
} from './upload-state';

const xlsx = (name: string) =>
  new File(['x'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** An upload function over the API client's real upload transport, on a fake XMLHttpRequest. */
function fakeTransport() {
  const xhr = createFakeXhr();
  const api = createApiClient({
    baseUrl: () => '/api',
    token: () => 'tok',
    tenantId: () => 'tenant-1',
    limiter: createRateLimiter({ requests: 100, perMs: 1000 }),
    xhr: xhr.create,
  });
  const upload: UploadFn = async (file, onProgress) => {
    const form = new FormData();
    form.append('files', file, file.name);
    return outcomeFromImportAnswer(await api.upload<ImportAnswer>('/excel/domain/import', form, { onProgress }));
  };
  return { xhr, api, upload };
}

const IMPORTED: ImportAnswer = {
  success: true,
  sheetParseResults: [{ sheetName: 'TractionUnit', type: 'TractionUnit', rowsRead: 4, failures: [] }],
};

describe('upload dialog', () => {
  it('lets Tab reach the drop zone (Enter or Space there opens the file chooser)', async () => {
    const user = userEvent.setup();
    const { upload } = fakeTransport();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} />);
    const zone = (await screen.findByText('Drag files here or click to choose')).closest('[tabindex="0"]');
    expect(zone).not.toBeNull();
    for (let i = 0; i < 10 && document.activeElement !== zone; i += 1) await user.tab();
    expect(zone).toHaveFocus();
  });

  it('shows the real percentage of bytes sent, then a striped processing bar until the answer', async () => {
    const user = userEvent.setup();
    const { xhr, upload } = fakeTransport();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} />);
    const dialog = screen.getByTestId('upload-dialog');
    await user.upload(screen.getByTestId('upload-input'), [xlsx('big.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    const sent = xhr.latest();
    expect(sent.headers).toMatchObject({ Authorization: 'Bearer tok', 'current-tenant-id': 'tenant-1' });

    const bar = () => within(dialog).getByRole('progressbar');
    expect(bar()).toHaveAttribute('aria-valuenow', '0');
    act(() => sent.progress(2_500_000, 10_000_000));
    expect(bar()).toHaveAttribute('aria-valuenow', '25');
    expect(bar()).toHaveAccessibleName('Uploading');
    act(() => sent.progress(6_660_000, 10_000_000));
    expect(bar()).toHaveAttribute('aria-valuenow', '66');
    expect(within(dialog).getByTestId('upload-file-progress')).toHaveAttribute('data-phase', 'sending');
    expect(dialog).toHaveAttribute('data-color', 'yellow');

    // Every byte is out: the server is reading the workbook, the bar is full and striped.
    act(() => sent.finishUpload(10_000_000));
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(bar()).toHaveAccessibleName('Processing');
    expect(within(dialog).getByTestId('upload-file-progress')).toHaveAttribute('data-phase', 'processing');
    expect(screen.getByTestId('upload-file-status')).toHaveAttribute('data-status', 'progressing');

    act(() => sent.respond({ body: IMPORTED }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'green'));
    expect(screen.getByTestId('upload-file-status')).toHaveAttribute('data-status', 'finished');
    expect(within(dialog).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('sends one request per file, each with its own progress', async () => {
    const user = userEvent.setup();
    const { xhr, upload } = fakeTransport();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} />);
    await user.upload(screen.getByTestId('upload-input'), [xlsx('a.xlsx'), xlsx('b.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    act(() => xhr.latest().progress(40, 100));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    act(() => xhr.latest().finishUpload(100));
    act(() => xhr.latest().respond({ body: IMPORTED }));

    await waitFor(() => expect(xhr.requests).toHaveLength(2));
    expect((xhr.requests[1]!.body as FormData).get('files')).toHaveProperty('name', 'b.xlsx');
    const statuses = () => screen.getAllByTestId('upload-file-status').map((s) => s.getAttribute('data-status'));
    expect(statuses()).toEqual(['finished', 'progressing']);
    // The second file starts from zero, not from where the first one ended.
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    act(() => xhr.latest().progress(10, 100));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
    act(() => xhr.latest().respond({ body: IMPORTED }));
    await waitFor(() => expect(statuses()).toEqual(['finished', 'finished']));
  });

  it('an area switch during an upload cancels it silently: the file waits again and the next is not sent', async () => {
    const user = userEvent.setup();
    const { xhr, api, upload } = fakeTransport();
    const onComplete = vi.fn();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} onComplete={onComplete} />);
    const dialog = screen.getByTestId('upload-dialog');
    await user.upload(screen.getByTestId('upload-input'), [xlsx('a.xlsx'), xlsx('b.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    act(() => xhr.latest().progress(50, 100));

    act(() => api.abortAll());
    await waitFor(() => expect(onComplete).toHaveBeenCalledWith([]));
    expect(xhr.latest().aborted).toBe(true);
    expect(xhr.requests).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getAllByTestId('upload-file-status').map((s) => s.getAttribute('data-status'))).toEqual([
        'waiting',
        'waiting',
      ]),
    );
    // onComplete runs before React renders the last change, and the frame's colour a render after that.
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'blue'));
    expect(within(dialog).queryByText('Failed to upload. Ask administrator for help')).not.toBeInTheDocument();
  });

  it('shows the message of an HTTP failure of the transport on the file', async () => {
    const user = userEvent.setup();
    const { xhr, upload } = fakeTransport();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} />);
    const dialog = screen.getByTestId('upload-dialog');
    await user.upload(screen.getByTestId('upload-input'), [xlsx('a.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    act(() =>
      xhr.latest().respond({ status: 400, body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'x' } }),
    );
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'red'));
    expect(screen.getByTestId('upload-file-status')).toHaveAttribute('data-status', 'failed');
    expect(within(dialog).getByText('Failed to upload. Ask administrator for help')).toBeInTheDocument();
  });

  it('disables upload and shows the limit message when a 6th file is chosen', async () => {
    const user = userEvent.setup();
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={vi.fn()} />);
    const input = screen.getByTestId('upload-input');
    await user.upload(
      input,
      [1, 2, 3, 4, 5].map((n) => xlsx(`f${n}.xlsx`)),
    );
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(screen.queryByTestId('upload-file-limit')).not.toBeInTheDocument();

    await user.upload(input, [xlsx('f6.xlsx')]);
    expect(screen.getAllByTestId('upload-file-status')).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(screen.getByTestId('upload-file-limit')).toHaveTextContent('You can upload at most 5 files at a time');

    await user.click(screen.getAllByRole('button', { name: 'Remove file' })[0]!);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('cuts a 61-character name at 60 characters with an ellipsis', async () => {
    const user = userEvent.setup();
    const name = `${'a'.repeat(56)}.xlsx`; // 61 characters
    expect(name).toHaveLength(61);
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={vi.fn()} />);
    await user.upload(screen.getByTestId('upload-input'), [xlsx(name)]);
    expect(screen.getByTestId('upload-file-name')).toHaveTextContent(`${name.slice(0, 60)}...`);
    expect(displayFileName('a'.repeat(60))).toBe('a'.repeat(60));
  });

  it('is blue, yellow while progressing, then green when finished or red when one failed', async () => {
    const user = userEvent.setup();
    const answers = [deferred<UploadOutcome>(), deferred<UploadOutcome>()];
    let call = 0;
    const upload = vi.fn(() => answers[call++]!.promise);
    renderUi(<UploadDialog opened onClose={() => {}} title="Import" upload={upload} />);
    const dialog = screen.getByTestId('upload-dialog');
    expect(dialog).toHaveAttribute('data-color', 'blue');

    await user.upload(screen.getByTestId('upload-input'), [xlsx('a.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'yellow'));
    expect(screen.getByTestId('upload-file-status')).toHaveAttribute('data-status', 'progressing');

    answers[0]!.resolve({ status: 'finished', failures: [] });
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'green'));
    expect(screen.getByTestId('upload-file-status')).toHaveAttribute('data-status', 'finished');

    await user.upload(screen.getByTestId('upload-input'), [xlsx('b.xlsx')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    answers[1]!.resolve(
      outcomeFromImportAnswer({
        success: false,
        sheetParseResults: [
          {
            sheetName: 'TractionUnit',
            type: 'TractionUnit',
            rowsRead: 3,
            failures: [{ errorMessage: 'The EVN field must be exactly 12 digits', type: 'TractionUnit' }],
          },
        ],
      }),
    );
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'red'));
    const failures = screen.getByTestId('upload-failures');
    expect(within(failures).getByText('The EVN field must be exactly 12 digits')).toBeInTheDocument();
  });
});

describe('upload state', () => {
  it('counts an upload as failed when success is false or any sheet has failures', () => {
    expect(
      outcomeFromImportAnswer({
        success: true,
        sheetParseResults: [{ sheetName: 's', type: 'T', rowsRead: 1, failures: [] }],
      }).status,
    ).toBe('finished');
    expect(outcomeFromImportAnswer({ success: false, sheetParseResults: [] }).status).toBe('failed');
    expect(
      outcomeFromImportAnswer({
        success: true,
        sheetParseResults: [{ sheetName: 's', type: 'T', rowsRead: 1, failures: [{ errorMessage: 'x', type: 'T' }] }],
      }).status,
    ).toBe('failed');
  });

  it('turns bytes sent into whole percent, 100 only when every byte is out', () => {
    expect(uploadPercent({ loaded: 0, total: 1000 })).toBe(0);
    expect(uploadPercent({ loaded: 999, total: 1000 })).toBe(99);
    expect(uploadPercent({ loaded: 1000, total: 1000 })).toBe(100);
    // The browser could not tell the length: no percentage rather than a made-up one.
    expect(uploadPercent({ loaded: 500, total: 0 })).toBe(0);
  });

  it('chooses the colour: yellow over red over green over blue', () => {
    expect(uploadDialogColor([])).toBe('blue');
    expect(uploadDialogColor(['waiting'])).toBe('blue');
    expect(uploadDialogColor(['failed', 'progressing'])).toBe('yellow');
    expect(uploadDialogColor(['failed', 'finished'])).toBe('red');
    expect(uploadDialogColor(['finished', 'finished_async'])).toBe('green');
  });

  it('colours a finished_async file by its followed jobs: yellow until they end, red for failure or dead', () => {
    expect(uploadDialogColor(['finished_async'], [undefined])).toBe('yellow');
    expect(uploadDialogColor(['finished_async'], ['queued'])).toBe('yellow');
    expect(uploadDialogColor(['finished_async'], ['running'])).toBe('yellow');
    expect(uploadDialogColor(['finished_async'], ['success'])).toBe('green');
    expect(uploadDialogColor(['finished', 'finished_async'], ['success', 'failure'])).toBe('red');
    expect(uploadDialogColor(['finished_async'], ['dead'])).toBe('red');
    expect(uploadDialogColor(['failed', 'finished_async'], ['running'])).toBe('yellow');
    expect(uploadDialogColor(['failed', 'finished_async'], ['success'])).toBe('red');
    // A job that cannot be read holds nothing up.
    expect(uploadDialogColor(['finished_async'], ['unknown'])).toBe('green');
  });
});
