import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { mockFetch, renderFleet } from '../testing/render-fleet';
import { versionedEntity } from '../testing/fixtures';

afterEach(() => vi.unstubAllGlobals());

const unit = (name: string, lastModified: string) =>
  versionedEntity({ name, evn: '917600100015', lastModified, lastModifiedBy: 'keeper' });

describe('master data updates', () => {
  it('lists the latest change first', async () => {
    mockFetch({
      'GET /api/domain/tractionunit/all': [
        unit('older', '2024-01-01T00:00:00Z'),
        unit('newer', '2024-06-01T00:00:00Z'),
      ],
    });
    renderFleet('/fleet/masterdata-updates');
    const table = await screen.findByTestId('masterdata-updates-table');
    await within(table).findByText('newer');
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('td')?.textContent);
    expect(names).toEqual(['newer', 'older']);
  });
});
