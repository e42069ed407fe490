import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeXhr, type FakeXhr, type FakeXhrAnswer } from '../../../lib/api/testing/fake-xhr';
import { renderFleet } from '../testing/render-fleet';

afterEach(() => vi.unstubAllGlobals());

/** Uploads go over XMLHttpRequest (real byte progress): answer them like a quick server would. */
function mockUpload(answer: (xhr: FakeXhr) => FakeXhrAnswer) {
  const fake = createFakeXhr(answer);
  vi.stubGlobal('XMLHttpRequest', fake.Constructor);
  return fake;
}

const xlsx = (name: string) =>
  new File(['x'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

describe('fleet import', () => {
  it('sends the file to the entities import and shows a single failed file on the import error screen', async () => {
    const user = userEvent.setup();
    const { requests } = mockUpload(() => ({
      body: {
        success: false,
        sheetParseResults: [
          {
            sheetName: 'TractionUnit',
            type: 'TractionUnit',
            rowsRead: 500,
            failures: [{ errorMessage: 'Row 17: The EVN field must be exactly 12 digits', type: 'TractionUnit' }],
          },
        ],
      },
    }));
    renderFleet('/fleet/import');
    const dialog = await screen.findByTestId('upload-dialog');
    expect(dialog).toHaveAttribute('data-color', 'blue');
    await user.upload(within(dialog).getByTestId('upload-input'), [xlsx('fleet.xlsx')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));

    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(within(errorScreen).getByText('Row 17: The EVN field must be exactly 12 digits')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    const call = requests[0]!;
    expect(call.method).toBe('POST');
    expect(new URL(call.url, 'http://localhost').pathname).toBe('/api/excel/domain/import');
    expect(call.body).toBeInstanceOf(FormData);
    expect((call.body as FormData).get('files')).toBeInstanceOf(File);
  });

  it('lists each file with its status when several files are uploaded', async () => {
    const user = userEvent.setup();
    let n = 0;
    mockUpload(() =>
      n++ === 0
        ? {
            body: {
              success: true,
              sheetParseResults: [{ sheetName: 'TractionUnit', type: 'TractionUnit', rowsRead: 4, failures: [] }],
            },
          }
        : { status: 500, statusText: 'Server Error', body: {} },
    );
    renderFleet('/fleet/import');
    const dialog = await screen.findByTestId('upload-dialog');
    await user.upload(within(dialog).getByTestId('upload-input'), [xlsx('a.xlsx'), xlsx('b.xlsx')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-color', 'red'));
    const statuses = within(dialog).getAllByTestId('upload-file-status');
    expect(statuses.map((s) => s.getAttribute('data-status'))).toEqual(['finished', 'failed']);
    expect(within(dialog).getByText('Failed to upload. Ask administrator for help')).toBeInTheDocument();
    expect(screen.queryByTestId('import-error-screen')).not.toBeInTheDocument();
  });

  it("shows the server's reason when the upload is refused as a whole, not only the generic message", async () => {
    const user = userEvent.setup();
    const reason = 'Something is wrong with uploaded data. notes.xlsx: The file is not a valid xlsx workbook';
    mockUpload(() => ({
      status: 400,
      statusText: 'Bad Request',
      body: {
        timestamp: '2026-11-23T10:00:00Z',
        status: 400,
        error: 'Bad Request',
        code: 'invalid_input',
        message: reason,
      },
    }));
    renderFleet('/fleet/import');
    const dialog = await screen.findByTestId('upload-dialog');
    await user.upload(within(dialog).getByTestId('upload-input'), [xlsx('notes.xlsx')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));

    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(within(errorScreen).getByText(reason)).toBeInTheDocument();
    expect(within(errorScreen).queryByText('Something is wrong with uploaded data')).not.toBeInTheDocument();
  });

  it('falls back to the generic message when a 400 carries no reason', async () => {
    const user = userEvent.setup();
    mockUpload(() => ({ status: 400, statusText: 'Bad Request', body: {} }));
    renderFleet('/fleet/import');
    const dialog = await screen.findByTestId('upload-dialog');
    await user.upload(within(dialog).getByTestId('upload-input'), [xlsx('a.xlsx')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(within(errorScreen).getByText('Something is wrong with uploaded data')).toBeInTheDocument();
  });
});
