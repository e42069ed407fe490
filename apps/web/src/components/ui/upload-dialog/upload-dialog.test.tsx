import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderUi } from '../test-harness';
import { UploadDialog } from './upload-dialog';
import { displayFileName, outcomeFromImportAnswer, uploadDialogColor, type UploadOutcome } from './upload-state';

const xlsx = (name: string) =>
  new File(['x'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('upload dialog', () => {
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

  it('chooses the colour: yellow over red over green over blue', () => {
    expect(uploadDialogColor([])).toBe('blue');
    expect(uploadDialogColor(['waiting'])).toBe('blue');
    expect(uploadDialogColor(['failed', 'progressing'])).toBe('yellow');
    expect(uploadDialogColor(['failed', 'finished'])).toBe('red');
    expect(uploadDialogColor(['finished', 'finished_async'])).toBe('green');
  });
});
