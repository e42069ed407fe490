import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeXhr, type FakeXhrAnswer } from '../../../lib/api/testing/fake-xhr';
import { mockFetch, renderEntityKit } from './testing/render-entity-kit';

afterEach(() => vi.unstubAllGlobals());

const UUID = '11111111-1111-4111-8111-111111111111';

describe('entity import', () => {
  it('sends the workbook to the entities import and shows a single failed file on the import error screen', async () => {
    const user = userEvent.setup();
    const answer: FakeXhrAnswer = {
      body: {
        success: false,
        sheetParseResults: [
          {
            sheetName: 'SupplyMeteringPoint',
            type: 'SupplyMeteringPoint',
            rowsRead: 3,
            failures: [
              {
                errorMessage: 'Row 3, column location: The value must be a geographic location (e.g. "1,1")',
                type: 'SupplyMeteringPoint',
              },
            ],
          },
        ],
      },
    };
    const fake = createFakeXhr(() => answer);
    vi.stubGlobal('XMLHttpRequest', fake.Constructor);
    renderEntityKit('/kit/import');
    const dialog = await screen.findByTestId('upload-dialog');
    const file = new File(['x'], 'infra.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await user.upload(within(dialog).getByTestId('upload-input'), [file]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(errorScreen).toHaveTextContent('Row 3, column location: The value must be a geographic location');
    expect(new URL(fake.requests[0]!.url, 'http://localhost').pathname).toBe('/api/excel/domain/import');
  });
});

describe('entity segments history', () => {
  it('lists every segment of the entity of the URL, replaced ones marked', async () => {
    const segment = (id: number, start: string, end: string, superseded: string | null) => ({
      id,
      name: 'NO-SUB-1',
      timeRange: { start, end },
      active: true,
      state: 'ACTIVE',
      comments: id === 2 ? 'new meter' : null,
      lastModified: '2026-01-05T10:00:00Z',
      lastModifiedBy: 'erex-administrator',
      attributes: {},
      supersededAt: superseded,
    });
    mockFetch({
      [`GET /api/domain/supplymeteringpoint/versions/${UUID}`]: [
        segment(1, '1970-01-01T00:00:00Z', '2070-01-01T00:00:00Z', '2026-01-05T10:00:00Z'),
        segment(2, '2026-01-31T23:00:00Z', '2070-01-01T00:00:00Z', null),
        segment(3, '1970-01-01T00:00:00Z', '2026-01-31T23:00:00Z', null),
      ],
    });
    renderEntityKit(`/kit/segmentshistory?uuid=${UUID}&type=supplymeteringpoint`);
    const rows = await screen.findAllByTestId('segment-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2]!).getByText('01.02.2026')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('new meter')).toBeInTheDocument();
    expect(screen.getAllByText('replaced')).toHaveLength(1);
  });
});
