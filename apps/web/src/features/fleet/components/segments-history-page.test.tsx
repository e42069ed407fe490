import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { mockFetch, renderFleet } from '../testing/render-fleet';
import { organisation, UUID } from '../testing/fixtures';

afterEach(() => vi.unstubAllGlobals());

const segment = (start: string, end: string, owner: string, id: number) => ({
  id,
  name: 'El18-2241',
  timeRange: { start, end },
  active: true,
  state: 'ACTIVE',
  comments: id === 2 ? 'sold to CargoNet' : null,
  lastModified: '2024-05-01T08:00:00Z',
  lastModifiedBy: 'keeper',
  attributes: { owner, evn: '917600100015' },
});

describe('segments history', () => {
  it('shows an owner change as two segments in the table and two lanes on the timeline', async () => {
    const { calls } = mockFetch({
      [`GET /api/domain/tractionunit/versions/${UUID.unitA}`]: [
        segment('1970-01-01T00:00:00Z', '2024-04-30T22:00:00Z', UUID.ownerA, 1),
        segment('2024-04-30T22:00:00Z', '2070-01-01T00:00:00Z', UUID.ownerB, 2),
      ],
      'GET /api/domain/organisations': [organisation(UUID.ownerA, 'Vy'), organisation(UUID.ownerB, 'CargoNet')],
    });
    renderFleet(`/fleet/segmentshistory?uuid=${UUID.unitA}&type=tractionunit`);
    const table = await screen.findByTestId('segments-table');
    const rows = await within(table).findAllByTestId('segment-row');
    expect(rows).toHaveLength(2);
    expect(await within(rows[1]!).findByText('CargoNet')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('01.05.2024')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('sold to CargoNet')).toBeInTheDocument();
    expect(within(screen.getByTestId('segments-timeline')).getAllByTestId('timeline-bar')).toHaveLength(2);
    expect(calls.some((c) => c.url.pathname.endsWith(`/versions/${UUID.unitA}`))).toBe(true);
  });
});
